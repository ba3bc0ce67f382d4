import { Button, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  type AlarmFilters,
  type AlarmStatus,
  fromLocalInput,
  type OpenFilter,
  reversedRange,
  toLocalInput,
} from './alarm-query.ts';
import { DevicePicker } from './DevicePicker.tsx';
import { isSeverity, SEVERITIES } from './severity.ts';

type Props = {
  filters: AlarmFilters;
  onChange: (changes: Partial<AlarmFilters>) => void;
  onReset: () => void;
  /** The history also filters by open state and by when alarms were raised. */
  history: boolean;
  filtered: boolean;
};

const STATUSES: readonly AlarmStatus[] = ['ACTIVE', 'CLEARED'];

/** The alarm list's filters (the free-text search sits in the table): severity, status, device, and in the history open state and time range. */
export function AlarmFiltersBar({ filters, onChange, onReset, history, filtered }: Props) {
  const { t } = useTranslation();
  const reversed = reversedRange(filters);
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" data-testid="alarm-filters">
      <MultiSelect
        label={t('alarms.filters.severity')}
        placeholder={filters.severities.length ? undefined : t('alarms.filters.any')}
        data={SEVERITIES.map((severity) => ({ value: severity, label: t(`alarms.severity.${severity}`) }))}
        value={filters.severities}
        onChange={(values) => onChange({ severities: values.filter(isSeverity) })}
        clearable
        size="xs"
        w={240}
      />
      <MultiSelect
        label={t('alarms.filters.status')}
        placeholder={filters.statuses.length ? undefined : t('alarms.filters.any')}
        data={STATUSES.map((status) => ({ value: status, label: t(`alarms.status.${status}`) }))}
        value={filters.statuses}
        onChange={(values) =>
          onChange({
            statuses: values.filter(
              (value): value is AlarmStatus => value === 'ACTIVE' || value === 'CLEARED',
            ),
          })
        }
        clearable
        size="xs"
        w={200}
      />
      <DevicePicker
        label={t('alarms.filters.device')}
        placeholder={t('alarms.filters.anyDevice')}
        value={filters.deviceId}
        onChange={(deviceId) => onChange({ deviceId })}
        size="xs"
        w={220}
      />
      {history && (
        <>
          <Select
            label={t('alarms.filters.open')}
            data={(['all', 'open', 'closed'] as const).map((value) => ({
              value,
              label: t(`alarms.filters.openValues.${value}`),
            }))}
            value={filters.open}
            onChange={(value) => onChange({ open: (value ?? 'all') as OpenFilter })}
            allowDeselect={false}
            size="xs"
            w={160}
          />
          <TextInput
            type="datetime-local"
            label={t('alarms.filters.from')}
            value={toLocalInput(filters.from)}
            onChange={(event) => onChange({ from: fromLocalInput(event.currentTarget.value) })}
            size="xs"
            w={200}
          />
          <TextInput
            type="datetime-local"
            label={t('alarms.filters.to')}
            value={toLocalInput(filters.to)}
            onChange={(event) => onChange({ to: fromLocalInput(event.currentTarget.value) })}
            error={reversed ? t('alarms.filters.reversed') : undefined}
            size="xs"
            w={200}
          />
        </>
      )}
      <Button variant="default" size="xs" onClick={onReset} disabled={!filtered}>
        {t('alarms.filters.reset')}
      </Button>
    </Group>
  );
}
