import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { fetchSummaryByOrg, RESOURCE_TYPES, type ResourceSummary, usageKeys } from '../api.ts';
import { NONE, useFormats } from '../format.ts';
import { LoadFailed, Loading } from './states.tsx';

/** What is assigned to each direct sub-organization: per resource type its use and allowance. */
export function SubOrganizationsSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const byOrg = useQuery({
    queryKey: usageKeys.summaryByOrg(organization.id),
    queryFn: async ({ signal }) => fetchSummaryByOrg(await token(), organization.id, signal),
  });
  const cell = (resource: ResourceSummary | undefined) => {
    if (!resource) return NONE;
    return resource.allowance === null
      ? t('organizationUsage.resources.byOrg.usedOnly', { used: format.count(resource.used) })
      : t('organizationUsage.resources.byOrg.usedOf', {
          used: format.count(resource.used),
          allowance: format.count(resource.allowance),
        });
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="by-org-heading">
      <Title order={2} size="h4" id="by-org-heading">
        {t('organizationUsage.resources.byOrg.heading')}
      </Title>
      {byOrg.isPending && <Loading label={t('organizationUsage.resources.usage.loading')} />}
      {byOrg.isError && (
        <LoadFailed
          title={t('organizationUsage.resources.byOrg.loadFailed')}
          error={byOrg.error}
          onRetry={byOrg.refetch}
        />
      )}
      {byOrg.data && byOrg.data.items.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="by-org-empty">
          {t('organizationUsage.resources.byOrg.empty', { name: organization.name })}
        </Text>
      )}
      {byOrg.data && byOrg.data.items.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('organizationUsage.resources.byOrg.tableLabel')} verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('organizationUsage.resources.byOrg.organization')}</Table.Th>
                {RESOURCE_TYPES.map((type) => (
                  <Table.Th key={type} ta="right">
                    {t(`organizationUsage.resourceTypes.${type}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {byOrg.data.items.map((sub) => (
                <Table.Tr key={sub.organizationId} data-organization={sub.organizationId}>
                  <Table.Th scope="row" fw={500}>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {sub.name}
                      </Text>
                      <Badge size="xs" variant="light" color={sub.pooledWith ? 'gray' : 'teal'}>
                        {t(
                          sub.pooledWith
                            ? 'organizationUsage.resources.byOrg.pooled'
                            : 'organizationUsage.resources.byOrg.own',
                        )}
                      </Badge>
                    </Group>
                  </Table.Th>
                  {RESOURCE_TYPES.map((type) => (
                    <Table.Td key={type} ta="right">
                      {cell(sub.resources.find((resource) => resource.resourceType === type))}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
