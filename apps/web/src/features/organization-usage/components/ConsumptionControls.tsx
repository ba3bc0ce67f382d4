import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type ConsumptionChoice, RESOURCE_CHOICES } from '../consumption-params.ts';
import { type DayRangeProblem, lastDays } from '../date-range.ts';
import { BUCKETS } from '../series.ts';

type Props = {
  choice: ConsumptionChoice;
  problem: DayRangeProblem | undefined;
  onChange: (choice: ConsumptionChoice) => void;
};

const QUICK = [
  ['last7', 7],
  ['last30', 30],
  ['last365', 365],
] as const;

/**
 * The consumption filters: the days (first and last, both included; the browser's date picker), quick ranges ending
 * today, the resource type and the bucket.
 */
export function ConsumptionControls({ choice, problem, onChange }: Props) {
  const { t } = useTranslation();
  const message = problem ? t(`organizationUsage.consumptions.range.${problem}`) : undefined;
  return (
    <Stack gap="xs" role="group" aria-label={t('organizationUsage.consumptions.controls')}>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label={t('organizationUsage.consumptions.range.start')}
          value={choice.range.start}
          max={choice.range.end || undefined}
          onChange={(event) =>
            onChange({ ...choice, range: { ...choice.range, start: event.currentTarget.value } })
          }
          error={problem === 'invalid' && !choice.range.start ? true : undefined}
          data-testid="range-start"
        />
        <TextInput
          type="date"
          label={t('organizationUsage.consumptions.range.end')}
          value={choice.range.end}
          min={choice.range.start || undefined}
          onChange={(event) =>
            onChange({ ...choice, range: { ...choice.range, end: event.currentTarget.value } })
          }
          error={problem !== undefined ? true : undefined}
          data-testid="range-end"
        />
        <Group gap={4}>
          {QUICK.map(([key, days]) => (
            <Button
              key={key}
              size="sm"
              variant="default"
              onClick={() => onChange({ ...choice, range: lastDays(new Date(), days) })}
            >
              {t(`organizationUsage.consumptions.range.${key}`)}
            </Button>
          ))}
        </Group>
      </Group>
      {message && (
        <Text size="sm" c="red" role="alert">
          {message}
        </Text>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('organizationUsage.consumptions.resource')}
          value={choice.type}
          allowDeselect={false}
          w={220}
          data={RESOURCE_CHOICES.map((type) => ({
            value: type,
            label: t(`organizationUsage.resourceTypes.${type}`),
          }))}
          onChange={(value) => {
            const type = RESOURCE_CHOICES.find((choiceType) => choiceType === value);
            if (type) onChange({ ...choice, type });
          }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="bucket-label">
            {t('organizationUsage.consumptions.bucket')}
          </Text>
          <SegmentedControl
            aria-labelledby="bucket-label"
            value={choice.bucket}
            data={BUCKETS.map((bucket) => ({
              value: bucket,
              label: t(`organizationUsage.consumptions.buckets.${bucket}`),
            }))}
            onChange={(value) => {
              const bucket = BUCKETS.find((choiceBucket) => choiceBucket === value);
              if (bucket) onChange({ ...choice, bucket });
            }}
          />
        </Stack>
      </Group>
    </Stack>
  );
}
