import {
  Alert,
  Button,
  Paper,
  Group as Row,
  Select,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import {
  fetchMembers,
  type Group,
  type Member,
  putMember,
  type RoleOption,
  removeMember,
  searchUsers,
  type UserOption,
} from './api.ts';
import { groupFailure, personLabel } from './messages.ts';

type Props = { group: Group; roleOptions: RoleOption[] | undefined };

export function useRefreshGroups() {
  const { organization } = useOrganizationApi();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
    await queryClient.invalidateQueries({ queryKey: ['iam-roles', organization.id] });
  }, [queryClient, organization.id]);
}

/** The members of a group, each with the role they carry in it; members are added, re-roled and removed here. */
export function GroupMembers({ group, roleOptions }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const refresh = useRefreshGroups();
  const [request, setRequest] = usePageRequest({ sort: 'email', order: 'asc', pageSize: 25 });
  const canUpdate = ability.can('UPDATE', 'usergroups');
  const members = useQuery({
    queryKey: ['iam-groups', organization.id, 'members', group.id, request],
    queryFn: async ({ signal }) => fetchMembers(await token(), organization.id, group.id, request, signal),
    placeholderData: keepPreviousData,
  });
  const roleData = useMemo(
    () => (roleOptions ?? []).map((role) => ({ value: role.id, label: role.name })),
    [roleOptions],
  );

  const columns = useMemo<ColumnDef<Member>[]>(() => {
    const changeRole = async (member: Member, roleId: string | null) => {
      try {
        await putMember(await token(), organization.id, group.id, member.userId, roleId);
        notifications.show({
          color: 'green',
          message: t('iamGroups.members.roleChanged', { email: member.email }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('iamGroups.members.failed'),
          message: groupFailure(t, 'member', error),
        });
      } finally {
        await refresh();
      }
    };
    const remove = (member: Member) =>
      confirmDanger({
        title: t('iamGroups.members.removeTitle'),
        message: t('iamGroups.members.removeConfirm', { email: member.email, group: group.name }),
        confirmLabel: t('iamGroups.members.remove'),
        onConfirm: async () => {
          try {
            await removeMember(await token(), organization.id, group.id, member.userId);
          } catch (error) {
            notifications.show({
              color: 'red',
              title: t('iamGroups.members.failed'),
              message: groupFailure(t, 'member', error),
            });
          } finally {
            await refresh();
          }
        },
      });

    return [
      {
        id: 'email',
        header: t('iamGroups.members.person'),
        cell: ({ row }) => <Text size="sm">{personLabel(row.original)}</Text>,
      },
      {
        id: 'role',
        header: t('iamGroups.members.role'),
        enableSorting: false,
        cell: ({ row }) =>
          canUpdate && roleOptions ? (
            <Select
              size="xs"
              aria-label={t('iamGroups.members.roleOf', { email: row.original.email })}
              data={roleData}
              value={row.original.role?.id ?? null}
              placeholder={t('iamGroups.members.noRole')}
              clearable
              onChange={(value) => void changeRole(row.original, value)}
            />
          ) : (
            <Text size="sm" c={row.original.role ? undefined : 'dimmed'}>
              {row.original.role?.name ?? t('iamGroups.members.noRole')}
            </Text>
          ),
      },
      {
        id: 'actions',
        header: () => <VisuallyHidden>{t('iamGroups.columns.actions')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) =>
          canUpdate ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => remove(row.original)}
              aria-label={t('iamGroups.members.removeLabel', { email: row.original.email })}
            >
              {t('iamGroups.members.remove')}
            </Button>
          ) : null,
      },
    ];
  }, [t, canUpdate, roleOptions, roleData, token, organization.id, group.id, group.name, refresh]);

  return (
    <Stack gap="md">
      {canUpdate &&
        (ability.can('READ', 'users') ? (
          <AddMemberForm group={group} roleData={roleData} onAdded={refresh} />
        ) : (
          <Alert color="gray" variant="light">
            {t('iamGroups.members.needUsers')}
          </Alert>
        ))}
      <DataTable<Member>
        label={t('iamGroups.members.tableLabel', { group: group.name })}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={members}
        rowId={(row) => row.userId}
        empty={
          <Text c="dimmed" ta="center">
            {request.search ? t('iamGroups.members.emptySearch') : t('iamGroups.members.empty')}
          </Text>
        }
      />
    </Stack>
  );
}

type AddValues = { userId: string | null; roleId: string | null };

function AddMemberForm({
  group,
  roleData,
  onAdded,
}: {
  group: Group;
  roleData: { value: string; label: string }[];
  onAdded: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [picked, setPicked] = useState<UserOption | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AddValues>({ defaultValues: { userId: null, roleId: null } });
  const query = picked && search === personLabel(picked) ? '' : debounced;
  const users = useQuery({
    queryKey: ['iam-groups', organization.id, 'user-search', query],
    queryFn: async ({ signal }) => searchUsers(await token(), organization.id, query, signal),
    placeholderData: keepPreviousData,
  });
  const options = useMemo(() => {
    const list = [
      ...(picked ? [picked] : []),
      ...(users.data ?? []).filter((user) => user.id !== picked?.id),
    ];
    return list.map((user) => ({ value: user.id, label: personLabel(user) }));
  }, [users.data, picked]);

  const submit = form.handleSubmit(async ({ userId, roleId }) => {
    if (!userId) return;
    setFailure(null);
    try {
      const member = await putMember(await token(), organization.id, group.id, userId, roleId);
      notifications.show({
        color: 'green',
        message: t('iamGroups.members.added', { email: member.email, group: group.name }),
      });
      form.reset({ userId: null, roleId: null });
      setPicked(null);
      setSearch('');
      await onAdded();
    } catch (error) {
      setFailure(groupFailure(t, 'member', error));
    }
  });

  return (
    <Paper withBorder p="sm">
      <form onSubmit={submit} noValidate data-testid="add-member">
        <Stack gap="xs">
          <Title order={3} size="h6">
            {t('iamGroups.members.addTitle')}
          </Title>
          <Row align="flex-end" gap="xs" wrap="wrap">
            <Controller
              control={form.control}
              name="userId"
              rules={{ validate: (value) => value !== null || t('iamGroups.members.pickUser') }}
              render={({ field, fieldState }) => (
                <Select
                  label={t('iamGroups.members.user')}
                  placeholder={t('iamGroups.members.userPlaceholder')}
                  searchable
                  clearable
                  data={options}
                  filter={({ options: all }) => all}
                  searchValue={search}
                  onSearchChange={setSearch}
                  value={field.value}
                  onChange={(value) => {
                    field.onChange(value);
                    setPicked((users.data ?? []).find((user) => user.id === value) ?? null);
                  }}
                  nothingFoundMessage={
                    users.isFetching ? t('common.loading') : t('iamGroups.members.noUsers')
                  }
                  error={fieldState.error?.message}
                  miw={280}
                  style={{ flex: 1 }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="roleId"
              render={({ field }) => (
                <Select
                  label={t('iamGroups.members.role')}
                  placeholder={t('iamGroups.members.noRole')}
                  data={roleData}
                  clearable
                  searchable
                  value={field.value}
                  onChange={field.onChange}
                  miw={200}
                />
              )}
            />
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('iamGroups.members.add')}
            </Button>
          </Row>
          {failure && (
            <Text size="sm" c="red" role="alert">
              {failure}
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
