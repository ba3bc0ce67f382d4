import { Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { SEVERITIES, SEVERITY_COLOR, type Severity } from './severity.ts';
import { useSeverityCounts } from './use-severity-counts.ts';

/**
 * The open alarms per severity as coloured chips (live: every alarm change reloads the counts). A chip also filters
 * the list below to its severity.
 */
export function SeveritySummary({
  selected,
  onToggle,
}: {
  selected: readonly Severity[];
  onToggle: (severity: Severity) => void;
}) {
  const { t, i18n } = useTranslation();
  const counts = useSeverityCounts();
  const number = new Intl.NumberFormat(i18n.language);

  if (counts.isError)
    return (
      <LoadFailed
        title={t('alarms.summary.failed')}
        message={describeError(t, counts.error)}
        onRetry={() => void counts.refetch()}
        testId="severity-summary"
      />
    );

  return (
    <Group gap="xs" data-testid="severity-summary" role="group" aria-label={t('alarms.summary.label')}>
      <Text size="sm" fw={500} aria-live="polite" data-testid="open-total">
        {counts.data ? t('alarms.summary.total', { count: counts.data.total }) : t('common.loading')}
      </Text>
      {counts.isPending && <Loader size="xs" aria-label={t('common.loading')} />}
      {counts.data &&
        SEVERITIES.map((severity) => {
          const count = counts.data[severity];
          const chosen = selected.includes(severity);
          return (
            <Button
              key={severity}
              size="compact-sm"
              radius="xl"
              color={SEVERITY_COLOR[severity]}
              variant={chosen ? 'filled' : count > 0 ? 'light' : 'default'}
              autoContrast
              aria-pressed={chosen}
              onClick={() => onToggle(severity)}
              data-testid={`severity-count-${severity}`}
              data-count={count}
            >
              {t(`alarms.severity.${severity}`)}
              <Text span fw={700} inherit ml={6}>
                {number.format(count)}
              </Text>
            </Button>
          );
        })}
    </Group>
  );
}
