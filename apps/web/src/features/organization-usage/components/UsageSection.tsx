import { Progress, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { LEVEL_COLORS, usageOf } from '../../iam-organizations/limits-form.ts';
import { fetchSummary, type Summary, usageKeys } from '../api.ts';
import { NONE, useFormats } from '../format.ts';
import { LoadFailed, Loading } from './states.tsx';

/** Per resource type: the allowance of the active licences, what is used of it and what is left, with a usage bar. */
export function UsageSection() {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const summary = useQuery({
    queryKey: usageKeys.summary(organization.id),
    queryFn: async ({ signal }) => fetchSummary(await token(), organization.id, signal),
  });
  return (
    <Stack gap="xs" component="section" aria-labelledby="usage-heading">
      <Title order={2} size="h4" id="usage-heading">
        {t('organizationUsage.resources.usage.heading')}
      </Title>
      {summary.isPending && <Loading label={t('organizationUsage.resources.usage.loading')} />}
      {summary.isError && (
        <LoadFailed
          title={t('organizationUsage.resources.usage.loadFailed')}
          error={summary.error}
          onRetry={summary.refetch}
        />
      )}
      {summary.data && <UsageTable summary={summary.data} />}
    </Stack>
  );
}

function UsageTable({ summary }: { summary: Summary }) {
  const { t } = useTranslation();
  const format = useFormats();
  const pooled = summary.pooledWith !== null;
  return (
    <Stack gap="xs">
      {pooled && (
        <Text size="sm" c="dimmed" data-testid="usage-pooled">
          {t('organizationUsage.resources.pooled', { name: summary.name })}
        </Text>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={t('organizationUsage.resources.usage.tableLabel')} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('organizationUsage.resources.usage.columns.resource')}</Table.Th>
              <Table.Th ta="right">{t('organizationUsage.resources.usage.columns.allowance')}</Table.Th>
              <Table.Th ta="right">{t('organizationUsage.resources.usage.columns.used')}</Table.Th>
              <Table.Th ta="right">{t('organizationUsage.resources.usage.columns.available')}</Table.Th>
              <Table.Th w="30%">
                <VisuallyHidden>{t('organizationUsage.resources.usage.columns.bar')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {summary.resources.map((resource) => {
              const name = t(`organizationUsage.resourceTypes.${resource.resourceType}`);
              const { percent, level } = usageOf(resource.used, resource.allowance);
              const over = resource.available !== null && resource.available < 0;
              return (
                <Table.Tr key={resource.resourceType} data-resource={resource.resourceType}>
                  <Table.Th scope="row" fw={500}>
                    {name}
                  </Table.Th>
                  <Table.Td ta="right" data-testid={`allowance-${resource.resourceType}`}>
                    {resource.allowance === null
                      ? t('organizationUsage.resources.usage.noAllowance')
                      : format.count(resource.allowance)}
                  </Table.Td>
                  <Table.Td ta="right" data-testid={`used-${resource.resourceType}`}>
                    {format.count(resource.used)}
                    {pooled && (
                      <Text size="xs" c="dimmed">
                        {t('organizationUsage.resources.usage.ownUsed', {
                          name: summary.name,
                          used: format.count(resource.ownUsed),
                        })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td
                    ta="right"
                    data-testid={`available-${resource.resourceType}`}
                    c={over ? 'red' : undefined}
                  >
                    {resource.available === null ? NONE : format.count(resource.available)}
                    {over && (
                      <Text size="xs" c="red">
                        {t('organizationUsage.resources.usage.overdrawn')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {resource.allowance !== null && (
                      <Progress
                        value={percent}
                        color={LEVEL_COLORS[level]}
                        aria-label={t('organizationUsage.resources.usage.barLabel', {
                          name,
                          percent: Math.round(percent),
                        })}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
