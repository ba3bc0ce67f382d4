import { Badge, Button, Group as Row, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { SectionTabs } from '../../app/routing/section-tabs.tsx';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { deleteUser, fetchUsers, type User, updateUser } from './api.ts';
import { InviteUserModal } from './InviteUserModal.tsx';
import { STATUS_COLORS, userFailure, userStatuses } from './messages.ts';
import { PendingInvitations } from './PendingInvitations.tsx';
import { UserDrawer } from './UserDrawer.tsx';

/**
 * Spec 2 /permission (the users tab): the organization's members with their roles and groups. Someone who may open
 * the screen through groups or roles only lands on that tab instead.
 */
export default function UsersPage() {
  const { ability } = useOrganizationApi();
  if (ability.can('READ', 'users')) return <UsersScreen />;
  if (ability.can('READ', 'usergroups')) return <Navigate to="/permission/groups" replace />;
  return <Navigate to="/permission/roles" replace />;
}

export const USERS_QUERY_KEY = 'iam-users';

function UsersScreen() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [openUserId, openUser] = useSearchParam('user');
  const [request, setRequest] = usePageRequest({ sort: 'email', order: 'asc' });
  const [inviting, setInviting] = useState(false);
  const me = currentPortal().session.user.username.toLowerCase();
  const canCreate = ability.can('CREATE', 'users');
  const canUpdate = ability.can('UPDATE', 'users');
  const canDelete = ability.can('DELETE', 'users');

  const users = useQuery({
    queryKey: [USERS_QUERY_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchUsers(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<ColumnDef<User>[]>(() => {
    const refresh = async () => {
      await queryClient.invalidateQueries({ queryKey: [USERS_QUERY_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
    };
    const setEnabled = async (user: User, enabled: boolean) => {
      try {
        await updateUser(await token(), organization.id, user.id, { enabled });
        notifications.show({
          color: 'green',
          message: t(enabled ? 'iamUsers.enable.done' : 'iamUsers.disable.done', { email: user.email }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('iamUsers.saveFailed'),
          message: userFailure(t, 'enable', error),
        });
      } finally {
        await refresh();
      }
    };
    const remove = async (user: User) => {
      try {
        await deleteUser(await token(), organization.id, user.id);
        notifications.show({ color: 'green', message: t('iamUsers.delete.done', { email: user.email }) });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('iamUsers.delete.failed'),
          message: userFailure(t, 'delete', error),
        });
      } finally {
        await refresh();
      }
    };
    const confirmDisable = (user: User) =>
      confirmDanger({
        title: t('iamUsers.disable.title'),
        message: t('iamUsers.disable.confirm', { email: user.email }),
        confirmLabel: t('iamUsers.disable.action'),
        onConfirm: () => setEnabled(user, false),
      });
    const confirmDelete = (user: User) =>
      confirmDanger({
        title: t('iamUsers.delete.title'),
        message: t('iamUsers.delete.confirm', { email: user.email, organization: organization.name }),
        confirmLabel: t('iamUsers.delete.action'),
        onConfirm: () => remove(user),
      });

    return [
      {
        id: 'email',
        accessorKey: 'email',
        header: t('iamUsers.columns.email'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => openUser(row.original.id)}
            label={t('iamUsers.open', { email: row.original.email })}
          >
            {row.original.email}
          </RowLinkButton>
        ),
      },
      { id: 'firstName', accessorKey: 'firstName', header: t('iamUsers.columns.firstName') },
      { id: 'lastName', accessorKey: 'lastName', header: t('iamUsers.columns.lastName') },
      {
        id: 'roles',
        header: t('iamUsers.columns.roles'),
        enableSorting: false,
        cell: ({ row }) => (
          <Chips names={row.original.roles.map((role) => role.name)} empty={t('iamUsers.none')} />
        ),
      },
      {
        id: 'groups',
        header: t('iamUsers.columns.groups'),
        enableSorting: false,
        cell: ({ row }) => (
          <Chips names={row.original.groups.map((group) => group.name)} empty={t('iamUsers.none')} />
        ),
      },
      {
        id: 'status',
        header: t('iamUsers.columns.status'),
        enableSorting: false,
        cell: ({ row }) => (
          <Row gap={4} wrap="nowrap" data-testid="user-status">
            {userStatuses(row.original).map((status) => (
              <Badge key={status} color={STATUS_COLORS[status]} variant="light" tt="none">
                {t(`iamUsers.status.${status}`)}
              </Badge>
            ))}
          </Row>
        ),
      },
      actionsColumn(t('iamUsers.columns.actions'), (user) => {
        const self = user.email === me;
        return (
          <>
            <RowAction
              label={t(canUpdate ? 'iamUsers.edit' : 'iamUsers.view', { email: user.email })}
              onClick={() => openUser(user.id)}
            >
              {t(canUpdate ? 'iamUsers.editShort' : 'iamUsers.viewShort')}
            </RowAction>
            {canUpdate && !self && user.accountManaged && (
              <Button
                size="compact-sm"
                variant="subtle"
                color={user.enabled ? 'orange' : 'green'}
                onClick={() => (user.enabled ? confirmDisable(user) : void setEnabled(user, true))}
                aria-label={t(user.enabled ? 'iamUsers.disable.label' : 'iamUsers.enable.label', {
                  email: user.email,
                })}
              >
                {t(user.enabled ? 'iamUsers.disable.short' : 'iamUsers.enable.short')}
              </Button>
            )}
            {canDelete && !self && (
              <RowAction
                danger
                label={t('iamUsers.delete.label', { email: user.email })}
                onClick={() => confirmDelete(user)}
              >
                {t('iamUsers.delete.short')}
              </RowAction>
            )}
          </>
        );
      }),
    ];
  }, [t, token, organization, queryClient, openUser, canUpdate, canDelete, me]);

  return (
    <Stack gap="md" data-testid="users-page">
      <SectionTabs section="permission" />
      <Title order={1} size="h3">
        {t('iamUsers.title')}
      </Title>
      <DataTable<User>
        label={t('iamUsers.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={users}
        rowId={(user) => user.id}
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>{request.search ? t('iamUsers.empty.noMatch') : t('iamUsers.empty.title')}</Text>
            <Text size="sm" c="dimmed">
              {request.search
                ? t('iamUsers.empty.noMatchHint')
                : canCreate
                  ? t('iamUsers.empty.inviteHint')
                  : t('iamUsers.empty.askHint')}
            </Text>
          </Stack>
        }
        toolbar={
          canCreate && (
            <Button onClick={() => setInviting(true)} data-testid="invite-user">
              {t('iamUsers.invite.open')}
            </Button>
          )
        }
      />
      <PendingInvitations />
      <InviteUserModal opened={inviting} onClose={() => setInviting(false)} />
      <UserDrawer userId={openUserId} onClose={() => openUser(null)} />
    </Stack>
  );
}

function Chips({ names, empty }: { names: string[]; empty: string }) {
  if (names.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Row gap={4}>
      {names.map((name) => (
        <Badge key={name} variant="outline" tt="none">
          {name}
        </Badge>
      ))}
    </Row>
  );
}
