import {
  Alert,
  Button,
  Drawer,
  Loader,
  Group as Row,
  Select,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isNotFound } from '../../shared/http/errors.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import {
  changeGroupMembers,
  fetchDeviceGroup,
  fetchDevices,
  fetchGroupMembers,
  type GroupMember,
} from './api.ts';
import { DeviceStatusBadge } from './DeviceStatusBadge.tsx';
import { deviceFailure } from './messages.ts';
import { DEVICE_GROUPS_KEY, DEVICES_KEY } from './query-keys.ts';

/** One device group's devices: paged and searchable; devices are added (searched on the server) and removed. */
export function GroupMembersDrawer({ groupId, onClose }: { groupId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canUpdate = ability.can('UPDATE', 'devicegroups');
  const [request, setRequest] = usePageRequest({ sort: 'label', order: 'asc', pageSize: 25 });

  const group = useQuery({
    queryKey: [DEVICE_GROUPS_KEY, organization.id, 'group', groupId],
    queryFn: async ({ signal }) => fetchDeviceGroup(await token(), organization.id, groupId ?? '', signal),
    enabled: groupId !== null,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
  });
  const members = useQuery({
    queryKey: [DEVICE_GROUPS_KEY, organization.id, 'members', groupId, request],
    queryFn: async ({ signal }) =>
      fetchGroupMembers(await token(), organization.id, groupId ?? '', request, signal),
    enabled: groupId !== null,
    placeholderData: keepPreviousData,
  });

  const change = useMutation({
    mutationFn: async ({ ids, kind }: { ids: string[]; kind: 'add' | 'remove' }) =>
      changeGroupMembers(await token(), organization.id, groupId ?? '', ids, kind),
    onSuccess: (_result, { kind }) =>
      notifications.show({
        color: 'green',
        message: t(kind === 'add' ? 'devices.groups.added' : 'devices.groups.removed'),
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('devices.groups.membersFailed'),
        message: deviceFailure(t, 'members', error),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: [DEVICE_GROUPS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
    },
  });

  const columns = useMemo<ColumnDef<GroupMember>[]>(
    () => [
      {
        id: 'label',
        accessorKey: 'label',
        header: t('devices.columns.label'),
        cell: ({ row }) => row.original.label,
      },
      {
        id: 'alias',
        accessorKey: 'alias',
        header: t('devices.columns.alias'),
        cell: ({ row }) => row.original.alias ?? '',
      },
      {
        id: 'status',
        accessorKey: 'status',
        header: t('devices.columns.status'),
        cell: ({ row }) => <DeviceStatusBadge status={row.original.status} />,
      },
      ...(canUpdate
        ? [
            {
              id: 'actions',
              header: () => <VisuallyHidden>{t('devices.groups.columns.actions')}</VisuallyHidden>,
              enableSorting: false,
              cell: ({ row }) => (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  aria-label={t('devices.groups.removeDevice', { label: row.original.label })}
                  onClick={() => change.mutate({ ids: [row.original.id], kind: 'remove' })}
                >
                  {t('devices.groups.removeShort')}
                </Button>
              ),
            } satisfies ColumnDef<GroupMember>,
          ]
        : []),
    ],
    [t, canUpdate, change],
  );

  return (
    <Drawer
      opened={groupId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={group.data?.name ?? t('devices.groups.drawerTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {group.isPending && groupId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {group.isError && (
        <Alert color="red" title={t('devices.groups.loadFailed')}>
          {isNotFound(group.error) ? t('devices.groups.gone') : describeError(t, group.error)}
        </Alert>
      )}
      {group.data && (
        <Stack gap="md" data-testid="group-members">
          {group.data.description && <Text size="sm">{group.data.description}</Text>}
          {canUpdate && (
            <AddDevice pending={change.isPending} onAdd={(id) => change.mutate({ ids: [id], kind: 'add' })} />
          )}
          <DataTable<GroupMember>
            label={t('devices.groups.membersLabel', { name: group.data.name })}
            columns={columns}
            request={request}
            onRequestChange={setRequest}
            query={members}
            rowId={(member) => member.id}
            empty={<Text size="sm">{t('devices.groups.noMembers')}</Text>}
          />
        </Stack>
      )}
    </Drawer>
  );
}

/** Finds a device of the organization by label, alias or serial number (on the server) and adds it. */
function AddDevice({ pending, onAdd }: { pending: boolean; onAdd: (id: string) => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [chosen, setChosen] = useState<string | null>(null);
  const options = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'pick', debounced],
    queryFn: async ({ signal }) =>
      fetchDevices(
        await token(),
        organization.id,
        { page: 0, pageSize: 20, search: debounced || undefined, sort: 'label', order: 'asc' },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Row align="flex-end" gap="xs">
      <Select
        label={t('devices.groups.addDevice')}
        placeholder={t('devices.groups.findDevice')}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        data={(options.data?.items ?? []).map((device) => ({ value: device.id, label: device.label }))}
        value={chosen}
        onChange={setChosen}
        nothingFoundMessage={options.isFetching ? t('common.loading') : t('devices.empty.noMatch')}
        w={320}
      />
      <Button
        disabled={!chosen}
        loading={pending}
        onClick={() => {
          if (!chosen) return;
          onAdd(chosen);
          setChosen(null);
          setSearch('');
        }}
      >
        {t('devices.groups.add')}
      </Button>
    </Row>
  );
}
