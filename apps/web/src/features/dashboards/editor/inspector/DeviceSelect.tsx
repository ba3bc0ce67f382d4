import { Select } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceLabel, useDeviceSearch } from './lookups.ts';

type Props = {
  label: string;
  value: string;
  onChange: (deviceId: string) => void;
  /** The text of the empty choice ('' clears the device). */
  noneLabel: string;
  testId?: string;
};

/** A device of the organization, searched on the server by label, alias or serial number. */
export function DeviceSelect({ label, value, onChange, noneLabel, testId }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const chosenLabel = useDeviceLabel(value || undefined);
  // The field shows the chosen option's label as its text: that is no search.
  const shown = value === '' ? noneLabel : chosenLabel.data;
  const devices = useDeviceSearch(search === shown ? '' : search);
  const data = useMemo(() => {
    const options = [{ value: '', label: noneLabel }];
    for (const device of devices.data?.items ?? []) options.push({ value: device.id, label: device.label });
    if (value && !options.some((option) => option.value === value)) {
      options.push({ value, label: chosenLabel.data ?? value });
    }
    return options;
  }, [devices.data, value, chosenLabel.data, noneLabel]);
  return (
    <Select
      size="xs"
      label={label}
      data={data}
      value={value}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={
        devices.isFetching ? t('common.loading') : t('dashboardEditor.inspector.noDevices')
      }
      onChange={(next) => onChange(next ?? '')}
      allowDeselect={false}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
