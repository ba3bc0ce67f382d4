import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { type Device, searchDevices } from '../api.ts';

/** The most devices one query may name (the server's limit). */
export const MAX_DEVICES = 20;

type Props = { value: Device[]; onChange: (devices: Device[]) => void };

function deviceLabel(device: Device): string {
  return device.alias ? `${device.label} (${device.alias})` : device.label;
}

/** Searchable multi-select over the organization's devices (the server searches label, alias and serial number). */
export function DevicePicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useQuery({
    queryKey: ['data-explore', organization.id, 'device-search', debounced],
    queryFn: async ({ signal }) => searchDevices(await token(), organization.id, debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const known = new Map<string, Device>();
  for (const device of value) known.set(device.id, device);
  for (const device of found.data?.items ?? []) if (!known.has(device.id)) known.set(device.id, device);
  const data = [...known.values()].map((device) => ({ value: device.id, label: deviceLabel(device) }));

  return (
    <MultiSelect
      label={t('dataExplore.devices.label')}
      placeholder={value.length === 0 ? t('dataExplore.devices.placeholder') : undefined}
      data={data}
      value={value.map((device) => device.id)}
      onChange={(ids) => onChange(ids.flatMap((id) => known.get(id) ?? []))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      maxValues={MAX_DEVICES}
      clearable
      hidePickedOptions
      nothingFoundMessage={
        found.isFetching
          ? t('common.loading')
          : found.isError
            ? t('dataExplore.devices.failed')
            : t('dataExplore.devices.noMatch')
      }
      error={found.isError ? t('dataExplore.devices.failed') : undefined}
      data-testid="device-picker"
      style={{ flex: 1, minWidth: 260 }}
    />
  );
}
