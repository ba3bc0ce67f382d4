import { Alert, Badge, Button, Group as Row, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionTabs } from '../../app/routing/section-tabs.tsx';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { deleteGroup, fetchGroups, type Group } from './api.ts';
import { GroupDrawer } from './GroupDrawer.tsx';
import { GroupFormModal } from './GroupFormModal.tsx';
import { groupFailure } from './messages.ts';

/** Spec 2 /permission/groups: the organization's user groups; a group opens in a drawer with members and roles. */
export default function GroupsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [openGroupId, openGroup] = useSearchParam('group');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const canRead = ability.can('READ', 'usergroups');
  const canUpdate = ability.can('UPDATE', 'usergroups');
  const canDelete = ability.can('DELETE', 'usergroups');

  const groups = useQuery({
    queryKey: ['iam-groups', organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchGroups(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
    enabled: canRead,
  });

  const columns = useMemo<ColumnDef<Group>[]>(() => {
    const remove = async (group: Group) => {
      try {
        await deleteGroup(await token(), organization.id, group.id);
        notifications.show({ color: 'green', message: t('iamGroups.delete.done', { name: group.name }) });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('iamGroups.delete.failed'),
          message: groupFailure(t, 'delete', error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
        await queryClient.invalidateQueries({ queryKey: ['iam-roles', organization.id] });
      }
    };
    const confirmDelete = (group: Group) =>
      confirmDanger({
        title: t('iamGroups.delete.title'),
        message: t('iamGroups.delete.confirm', { name: group.name, count: group.memberCount }),
        confirmLabel: t('iamGroups.delete.action'),
        onConfirm: () => remove(group),
      });

    return [
      {
        id: 'name',
        header: t('iamGroups.columns.name'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => openGroup(row.original.id)}
            label={t('iamGroups.open', { name: row.original.name })}
          >
            {row.original.name}
          </RowLinkButton>
        ),
      },
      {
        id: 'description',
        header: t('iamGroups.columns.description'),
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'memberCount',
        header: t('iamGroups.columns.members'),
        cell: ({ row }) => row.original.memberCount,
      },
      {
        id: 'roles',
        header: t('iamGroups.columns.roles'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.roles.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('iamGroups.noRoles')}
            </Text>
          ) : (
            <Row gap={4}>
              {row.original.roles.map((role) => (
                <Badge key={role.id} variant="light" tt="none">
                  {role.name}
                </Badge>
              ))}
            </Row>
          ),
      },
      actionsColumn(t('iamGroups.columns.actions'), (group) => (
        <>
          {canUpdate && (
            <RowAction label={t('iamGroups.edit', { name: group.name })} onClick={() => setEditing(group)}>
              {t('iamGroups.editShort')}
            </RowAction>
          )}
          {canDelete && (
            <RowAction
              danger
              label={t('iamGroups.delete.label', { name: group.name })}
              onClick={() => confirmDelete(group)}
            >
              {t('iamGroups.delete.action')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, canUpdate, canDelete, organization.id, token, queryClient, openGroup]);

  return (
    <Stack gap="md" p="md" data-testid="groups-page">
      <Title order={1} size="h2">
        {t('iamGroups.title')}
      </Title>
      <SectionTabs section="permission" />
      <Text c="dimmed" size="sm">
        {t('iamGroups.intro')}
      </Text>
      {canRead ? (
        <DataTable<Group>
          label={t('iamGroups.tableLabel')}
          columns={columns}
          request={request}
          onRequestChange={setRequest}
          query={groups}
          rowId={(row) => row.id}
          empty={
            <Text c="dimmed" ta="center">
              {request.search ? t('iamGroups.emptySearch') : t('iamGroups.empty')}
            </Text>
          }
          toolbar={
            ability.can('CREATE', 'usergroups') ? (
              <Button onClick={() => setEditing('new')}>{t('iamGroups.newGroup')}</Button>
            ) : null
          }
        />
      ) : (
        <Alert color="yellow">{t('iamGroups.noAccess')}</Alert>
      )}
      <GroupFormModal group={editing} onClose={() => setEditing(null)} />
      <GroupDrawer groupId={canRead ? openGroupId : null} onClose={() => openGroup(null)} />
    </Stack>
  );
}
