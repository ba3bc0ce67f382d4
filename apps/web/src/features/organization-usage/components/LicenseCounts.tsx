import { Badge, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { fetchLicenseCounts, LICENSE_STATUSES, usageKeys } from '../api.ts';
import { useFormats } from '../format.ts';
import { colorOf, LICENSE_COLORS } from '../status-colors.ts';

/** How many licences the organization holds in each status (the licence count call, spec 7 and 9). */
export function LicenseCounts() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const counts = useQuery({
    queryKey: usageKeys.licenseCounts(organization.id),
    queryFn: async ({ signal }) => fetchLicenseCounts(await token(), organization.id, signal),
  });
  if (counts.isPending)
    return <Loader size="xs" aria-label={t('organizationUsage.resources.licenses.counting')} />;
  if (counts.isError)
    return (
      <Text size="sm" c="red">
        {t('organizationUsage.resources.licenses.countFailed')}
      </Text>
    );
  return (
    <Group gap="xs" role="group" aria-label={t('organizationUsage.resources.licenses.counts')}>
      {LICENSE_STATUSES.map((status) => (
        <Badge
          key={status}
          variant="light"
          color={colorOf(LICENSE_COLORS, status)}
          tt="none"
          data-testid={`licence-count-${status}`}
        >
          {t('organizationUsage.resources.licenses.countOf', {
            status: t(`organizationUsage.resources.licenses.status.${status}`),
            amount: format.count(counts.data[status]),
          })}
        </Badge>
      ))}
    </Group>
  );
}
