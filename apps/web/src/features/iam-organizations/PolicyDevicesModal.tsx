import { Alert, Button, Group, Loader, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../shared/http/describe.ts';
import {
  assignPolicyDevice,
  fetchPolicyDevices,
  type SecurityPolicy,
  searchDevices,
  unassignPolicyDevice,
} from './api.ts';
import { commonFailure } from './messages.ts';
import type { ScopedAccess } from './scoped-access.ts';

type Props = {
  policy: SecurityPolicy | undefined;
  access: ScopedAccess;
  onClose: () => void;
  onChanged: () => void;
};

/** The devices a security policy group is assigned to; devices of the same organization can be added. */
export function PolicyDevicesModal({ policy, access, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={policy !== undefined}
      onClose={onClose}
      title={policy ? t('iamOrganizations.policyDevices.title', { name: policy.name }) : ''}
      size="lg"
    >
      {policy && <PolicyDevices policy={policy} access={access} onChanged={onChanged} />}
    </Modal>
  );
}

function PolicyDevices({
  policy,
  access,
  onChanged,
}: {
  policy: SecurityPolicy;
  access: ScopedAccess;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const org = access.organization.id;
  const canUpdate = access.ability.can('UPDATE', 'organizations');
  const canSearch = access.ability.can('READ', 'devices');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search, 250);
  const [choice, setChoice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const assigned = useQuery({
    queryKey: ['iam-organizations', org, 'policy-devices', policy.id],
    queryFn: async ({ signal }) => fetchPolicyDevices(await access.token(), org, policy.id, signal),
  });
  const found = useQuery({
    queryKey: ['iam-organizations', org, 'device-search', query],
    queryFn: async ({ signal }) => searchDevices(await access.token(), org, query, signal),
    enabled: canUpdate && canSearch,
  });
  const assignedIds = new Set(assigned.data?.items.map((device) => device.id));
  const options = (found.data?.items ?? [])
    .filter((device) => !assignedIds.has(device.id))
    .map((device) => ({
      value: device.id,
      label: device.alias ? `${device.label} (${device.alias})` : device.label,
    }));

  const change = async (work: (token: string) => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work(await access.token());
      notifications.show({ color: 'green', message: done });
      setChoice(null);
      onChanged();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('iamOrganizations.policyDevices.failed'),
        message: commonFailure(t, error),
      });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({
        queryKey: ['iam-organizations', org, 'policy-devices', policy.id],
      });
    }
  };

  return (
    <Stack gap="sm">
      {assigned.isPending && <Loader size="sm" aria-label={t('common.loading')} />}
      {assigned.isError && (
        <Alert color="red" title={t('iamOrganizations.policyDevices.loadFailed')}>
          {describeError(t, assigned.error)}
        </Alert>
      )}
      {assigned.data && assigned.data.items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('iamOrganizations.policyDevices.empty')}
        </Text>
      )}
      {assigned.data && assigned.data.items.length > 0 && (
        <Table aria-label={t('iamOrganizations.policyDevices.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('iamOrganizations.policyDevices.label')}</Table.Th>
              <Table.Th>{t('iamOrganizations.policyDevices.serial')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assigned.data.items.map((device) => (
              <Table.Tr key={device.id}>
                <Table.Td>{device.alias ? `${device.label} (${device.alias})` : device.label}</Table.Td>
                <Table.Td>{device.serialNumber}</Table.Td>
                <Table.Td>
                  {canUpdate && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      disabled={busy}
                      aria-label={t('iamOrganizations.policyDevices.removeNamed', { label: device.label })}
                      onClick={() =>
                        void change(
                          (token) => unassignPolicyDevice(token, org, policy.id, device.id),
                          t('iamOrganizations.policyDevices.removed', { label: device.label }),
                        )
                      }
                    >
                      {t('iamOrganizations.policyDevices.remove')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canUpdate && !canSearch && (
        <Text size="sm" c="dimmed">
          {t('iamOrganizations.policyDevices.noDeviceRead')}
        </Text>
      )}
      {canUpdate && canSearch && (
        <Group align="flex-end" gap="sm">
          <Select
            label={t('iamOrganizations.policyDevices.add')}
            placeholder={t('iamOrganizations.policyDevices.searchPlaceholder')}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options}
            value={choice}
            onChange={setChoice}
            filter={({ options: all }) => all}
            nothingFoundMessage={
              found.isFetching ? t('common.loading') : t('iamOrganizations.policyDevices.noMatch')
            }
            style={{ flex: 1 }}
          />
          <Button
            disabled={!choice || busy}
            onClick={() => {
              const device = found.data?.items.find((item) => item.id === choice);
              if (!device) return;
              void change(
                (token) => assignPolicyDevice(token, org, policy.id, device.id),
                t('iamOrganizations.policyDevices.added', { label: device.label }),
              );
            }}
          >
            {t('iamOrganizations.policyDevices.assign')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
