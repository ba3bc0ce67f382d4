import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { fetchExpiration, fetchTrial, usageKeys } from '../api.ts';
import { useFormats } from '../format.ts';
import { LoadFailed } from './states.tsx';

/**
 * The trial notice (an organization without an active licence runs on a 30-day trial from its creation) or, with
 * licences in force, until when they run.
 */
export function TrialNotice() {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const trial = useQuery({
    queryKey: usageKeys.trial(organization.id),
    queryFn: async ({ signal }) => fetchTrial(await token(), organization.id, signal),
  });
  const expiration = useQuery({
    queryKey: usageKeys.expiration(organization.id),
    queryFn: async ({ signal }) => fetchExpiration(await token(), organization.id, signal),
    enabled: trial.data !== undefined && !trial.data.onTrial,
  });

  if (trial.isError)
    return (
      <LoadFailed
        title={t('organizationUsage.resources.trial.title')}
        error={trial.error}
        onRetry={trial.refetch}
      />
    );
  if (!trial.data) return null;
  if (trial.data.onTrial) {
    const date = format.date(trial.data.trialExpiresAt);
    return trial.data.expired ? (
      <Alert
        color="red"
        title={t('organizationUsage.resources.trial.expiredTitle')}
        data-testid="trial-notice"
      >
        <Text size="sm">
          {t('organizationUsage.resources.trial.expired', { name: organization.name, date })}
        </Text>
      </Alert>
    ) : (
      <Alert color="yellow" title={t('organizationUsage.resources.trial.title')} data-testid="trial-notice">
        <Text size="sm">
          {t('organizationUsage.resources.trial.daysLeft', {
            count: trial.data.daysLeft,
            name: organization.name,
            date,
          })}
        </Text>
      </Alert>
    );
  }
  const until = expiration.data?.expirationDate;
  return until ? (
    <Text size="sm" c="dimmed" data-testid="licence-expiration">
      {t('organizationUsage.resources.expiration', { date: format.date(until) })}
    </Text>
  ) : null;
}
