import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { fetchDeviceLicenseCounts, usageKeys } from '../api.ts';
import { useFormats } from '../format.ts';
import { LoadFailed, Loading } from './states.tsx';

/** How many device licences (activation keys) the organization has available, active and expired. */
export function DeviceLicensesSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const counts = useQuery({
    queryKey: usageKeys.deviceLicenses(organization.id),
    queryFn: async ({ signal }) => fetchDeviceLicenseCounts(await token(), organization.id, signal),
  });
  const cells = counts.data
    ? ([
        ['available', counts.data.AVAILABLE, 'blue'],
        ['active', counts.data.ACTIVE, 'green'],
        ['expired', counts.data.EXPIRED, 'orange'],
        ['total', counts.data.AVAILABLE + counts.data.ACTIVE + counts.data.EXPIRED, undefined],
      ] as const)
    : [];
  return (
    <Stack gap="xs" component="section" aria-labelledby="device-licences-heading">
      <Title order={2} size="h4" id="device-licences-heading">
        {t('organizationUsage.resources.deviceLicenses.heading')}
      </Title>
      {counts.isPending && <Loading label={t('organizationUsage.resources.usage.loading')} />}
      {counts.isError && (
        <LoadFailed
          title={t('organizationUsage.resources.deviceLicenses.loadFailed')}
          error={counts.error}
          onRetry={counts.refetch}
        />
      )}
      {counts.data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {cells.map(([key, value, color]) => (
            <Card key={key} withBorder padding="sm" data-testid={`device-licences-${key}`}>
              <Text size="xs" c="dimmed">
                {t(`organizationUsage.resources.deviceLicenses.${key}`)}
              </Text>
              <Text size="xl" fw={600} c={color}>
                {format.count(value)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
