import { Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import type { AggregationQuery } from './api.ts';
import { ByOrganization } from './components/ByOrganization.tsx';
import { ConsumptionControls } from './components/ConsumptionControls.tsx';
import { HistorySection } from './components/HistorySection.tsx';
import { JournalSection } from './components/JournalSection.tsx';
import { UsageOverTime } from './components/UsageOverTime.tsx';
import { type ConsumptionChoice, choiceProblem, readChoice, writeChoice } from './consumption-params.ts';
import { serverRange } from './date-range.ts';
import { OrganizationTabs } from './OrganizationTabs.tsx';

/**
 * Spec 2 /organizations/consumptions: how the organization's resources were used over time, from the usage journal.
 * The choice (resource type, days, bucket) lives in the address, so a view can be shared and survives a reload; the
 * server is asked for the chosen days with the end extended by one day (spec 9).
 */
export default function ConsumptionsPage() {
  const { t } = useTranslation();
  const { organization } = useOrganizationApi();
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const choice = useMemo(() => readChoice(new URLSearchParams(search), new Date()), [search]);
  const problem = choiceProblem(choice);
  const range = useMemo(() => serverRange(choice.range), [choice.range]);
  const query = useMemo<AggregationQuery | undefined>(
    () => (range ? { ...range, bucket: choice.bucket, type: choice.type } : undefined),
    [range, choice.bucket, choice.type],
  );
  const change = (next: ConsumptionChoice) => setParams(writeChoice(next), { replace: true });

  return (
    <Stack gap="lg" data-testid="organization-consumptions-page">
      <OrganizationTabs />
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('organizationUsage.consumptions.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('organizationUsage.consumptions.intro', { name: organization.name })}
        </Text>
      </Stack>
      <ConsumptionControls choice={choice} problem={problem} onChange={change} />
      <UsageOverTime choice={choice} query={query} />
      <ByOrganization choice={choice} query={query} />
      <JournalSection key={`${choice.type} ${range?.from} ${range?.to}`} choice={choice} range={range} />
      <HistorySection key={`${range?.from} ${range?.to}`} range={range} />
    </Stack>
  );
}
