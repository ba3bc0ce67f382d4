import { Button, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { type DeviceGroup, deleteDeviceGroup, fetchDeviceGroups } from './api.ts';
import { DevicesTabs } from './DevicesTabs.tsx';
import { GroupFormModal } from './GroupFormModal.tsx';
import { GroupMembersDrawer } from './GroupMembersDrawer.tsx';
import { deviceFailure } from './messages.ts';
import { DEVICE_GROUPS_KEY, DEVICES_KEY } from './query-keys.ts';

/** Spec 2 /devices/groups: the organization's device groups; a group opens in a drawer with its devices. */
export default function DeviceGroupsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [openGroupId, openGroup] = useSearchParam('group');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const [editing, setEditing] = useState<DeviceGroup | 'new' | null>(null);
  const canCreate = ability.can('CREATE', 'devicegroups');
  const canUpdate = ability.can('UPDATE', 'devicegroups');
  const canDelete = ability.can('DELETE', 'devicegroups');

  const groups = useQuery({
    queryKey: [DEVICE_GROUPS_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchDeviceGroups(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<ColumnDef<DeviceGroup>[]>(() => {
    const remove = async (group: DeviceGroup) => {
      try {
        await deleteDeviceGroup(await token(), organization.id, group.id);
        notifications.show({ color: 'green', message: t('devices.groups.deleted', { name: group.name }) });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('devices.groups.deleteFailed'),
          message: deviceFailure(t, 'group', error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: [DEVICE_GROUPS_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
      }
    };
    return [
      {
        id: 'name',
        accessorKey: 'name',
        header: t('devices.groups.columns.name'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => openGroup(row.original.id)}
            label={t('devices.groups.open', { name: row.original.name })}
          >
            {row.original.name}
          </RowLinkButton>
        ),
      },
      {
        id: 'description',
        header: t('devices.groups.columns.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'deviceCount',
        header: t('devices.groups.columns.devices'),
        enableSorting: false,
        cell: ({ row }) => row.original.deviceCount,
      },
      actionsColumn(t('devices.groups.columns.actions'), (group) => (
        <>
          {canUpdate && (
            <RowAction
              label={t('devices.groups.rename', { name: group.name })}
              onClick={() => setEditing(group)}
            >
              {t('devices.groups.renameShort')}
            </RowAction>
          )}
          {canDelete && (
            <RowAction
              danger
              label={t('devices.groups.delete', { name: group.name })}
              onClick={() =>
                confirmDanger({
                  title: t('devices.groups.deleteTitle'),
                  message: t('devices.groups.deleteConfirm', { name: group.name, count: group.deviceCount }),
                  confirmLabel: t('devices.groups.deleteShort'),
                  onConfirm: () => remove(group),
                })
              }
            >
              {t('devices.groups.deleteShort')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, token, organization.id, queryClient, openGroup, canUpdate, canDelete]);

  return (
    <Stack gap="md" data-testid="device-groups-page">
      <DevicesTabs />
      <Title order={1} size="h3">
        {t('devices.groups.title')}
      </Title>
      <DataTable<DeviceGroup>
        label={t('devices.groups.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={groups}
        rowId={(group) => group.id}
        toolbar={
          canCreate && (
            <Button onClick={() => setEditing('new')} data-testid="create-device-group">
              {t('devices.groups.create')}
            </Button>
          )
        }
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>
              {request.search ? t('devices.groups.empty.noMatch') : t('devices.groups.empty.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {request.search
                ? t('devices.empty.noMatchHint')
                : canCreate
                  ? t('devices.groups.empty.createHint')
                  : t('devices.groups.empty.askHint')}
            </Text>
          </Stack>
        }
      />
      <GroupFormModal group={editing} onClose={() => setEditing(null)} />
      <GroupMembersDrawer groupId={openGroupId} onClose={() => openGroup(null)} />
    </Stack>
  );
}
