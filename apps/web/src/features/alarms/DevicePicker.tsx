import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { searchDevices } from './api.ts';

type Props = {
  label: string;
  value: string | null;
  /** The chosen device's label when it is known (an existing rule's device), so it shows before any search. */
  knownLabel?: string | null;
  onChange: (deviceId: string | null, label: string | null) => void;
  placeholder?: string;
  description?: string;
  size?: 'xs' | 'sm';
  w?: number;
};

/**
 * One device of the organization, found by typing (the server searches label, alias and serial number: fine with
 * 100,000 devices); empty means none.
 */
export function DevicePicker({
  label,
  value,
  knownLabel,
  onChange,
  placeholder,
  description,
  size,
  w,
}: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const [chosenLabel, setChosenLabel] = useState<string | null>(knownLabel ?? null);
  const [debounced] = useDebouncedValue(search, 250);
  const devices = useQuery({
    queryKey: ['devices', organization.id, 'picker', debounced],
    queryFn: async ({ signal }) => searchDevices(await token(), organization.id, debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = (devices.data?.items ?? []).map((device) => ({ value: device.id, label: device.label }));
  if (value && !options.some((option) => option.value === value))
    options.unshift({ value, label: chosenLabel ?? knownLabel ?? value });

  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder}
      data={options}
      value={value}
      onChange={(next, option) => {
        setChosenLabel(option?.label ?? null);
        onChange(next, option?.label ?? null);
      }}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={devices.isError ? t('alarms.devicePicker.failed') : t('alarms.devicePicker.none')}
      size={size}
      w={w}
      data-testid="device-picker"
    />
  );
}
