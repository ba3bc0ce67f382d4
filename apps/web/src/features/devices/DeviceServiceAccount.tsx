import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { type DeviceDetail, fetchServiceClients, updateDevice } from './api.ts';
import { deviceFailure } from './messages.ts';
import { DEVICES_KEY } from './query-keys.ts';

/** The organization's service-account clients (READ organizations); disabled for callers who cannot list them. */
export function useServiceClients() {
  const { organization, ability, token } = useOrganizationApi();
  const allowed = ability.can('READ', 'organizations');
  const query = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'service-clients'],
    queryFn: async ({ signal }) => fetchServiceClients(await token(), organization.id, signal),
    enabled: allowed,
    retry: false,
  });
  return { ...query, allowed };
}

/** Read-only: the name of the device's service account (its id when the list cannot be read), or "none". */
export function ServiceAccountName({ serviceClientId }: { serviceClientId: string | null }) {
  const { t } = useTranslation();
  const clients = useServiceClients();
  if (serviceClientId === null) return <>{t('devices.serviceAccount.none')}</>;
  const client = clients.data?.items.find((item) => item.id === serviceClientId);
  if (client) return <>{client.name}</>;
  if (clients.allowed && clients.isPending) return <>{t('common.loading')}</>;
  return <>{serviceClientId}</>;
}

/**
 * Experimental deviceServiceAccountAssociation: chooses (or clears) the service account acting for the device;
 * saved at once through PATCH devices/{id}. Give it `key={device.serviceClientId}` so a reloaded device resets it.
 */
export function ServiceAccountSelect({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const clients = useServiceClients();
  const [selected, setSelected] = useState<string | null>(device.serviceClientId);
  const [failure, setFailure] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: async (serviceClientId: string | null) =>
      updateDevice(await token(), organization.id, device.id, { serviceClientId }),
    onSuccess: async (saved, serviceClientId) => {
      notifications.show({
        color: 'green',
        message:
          serviceClientId === null
            ? t('devices.serviceAccount.removed', { label: saved.label })
            : t('devices.serviceAccount.saved', { label: saved.label }),
      });
      await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
    },
    onError: (error) => {
      setSelected(device.serviceClientId);
      setFailure(deviceFailure(t, 'save', error));
    },
  });

  const options = (clients.data?.items ?? []).map((client) => ({ value: client.id, label: client.name }));
  if (selected !== null && !options.some((option) => option.value === selected))
    options.unshift({ value: selected, label: selected });

  const loadError = clients.isError ? describeError(t, clients.error) : null;
  return (
    <Select
      label={t('devices.serviceAccount.label')}
      description={t('devices.serviceAccount.hint')}
      placeholder={
        clients.allowed && clients.isPending ? t('common.loading') : t('devices.serviceAccount.none')
      }
      nothingFoundMessage={t('devices.serviceAccount.noneFound')}
      data={options}
      value={selected}
      onChange={(value) => {
        if (value === selected) return;
        setFailure(null);
        setSelected(value);
        save.mutate(value);
      }}
      searchable
      clearable
      allowDeselect={false}
      disabled={save.isPending || (clients.isPending && clients.fetchStatus !== 'idle')}
      error={failure ?? (loadError ? t('devices.serviceAccount.loadFailed', { reason: loadError }) : null)}
      data-testid="device-service-account"
    />
  );
}
