import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { fetchDevice, fetchDevices, fetchModel, fetchModelNames } from '../api.ts';
import { EDITOR_QUERY_KEY } from '../query-keys.ts';

/** The organization's models (the slots' model choice). */
export function useModelNames() {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'model-names'],
    queryFn: async ({ signal }) => fetchModelNames(await token(), organization.id, signal),
    staleTime: 60_000,
  });
}

/** The paths of a model's current version (what a slot's bindings can name). */
export function useModelPaths(modelId: string | undefined) {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'model', modelId],
    queryFn: async ({ signal }) => fetchModel(await token(), organization.id, modelId ?? '', signal),
    enabled: modelId !== undefined,
    staleTime: 60_000,
    select: (model) => model.paths,
  });
}

/** Devices matching a search (first 50 by label), for the slots' default device and fixed devices of actions. */
export function useDeviceSearch(search: string) {
  const { organization, token } = useOrganizationApi();
  const [debounced] = useDebouncedValue(search.trim(), 250);
  return useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'devices', debounced],
    queryFn: async ({ signal }) => fetchDevices(await token(), organization.id, debounced, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** One device's label (a chosen device that the current search does not list). */
export function useDeviceLabel(deviceId: string | undefined) {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, 'device', deviceId],
    queryFn: async ({ signal }) => fetchDevice(await token(), organization.id, deviceId ?? '', signal),
    enabled: deviceId !== undefined && deviceId !== '',
    staleTime: 60_000,
    select: (device) => device.label,
  });
}
