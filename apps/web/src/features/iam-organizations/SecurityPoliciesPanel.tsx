import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasStatus } from '../../shared/http/errors.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { deletePolicy, fetchPolicies, type SecurityPolicy } from './api.ts';
import { commonFailure } from './messages.ts';
import { PolicyDevicesModal } from './PolicyDevicesModal.tsx';
import { PolicyEditorModal } from './PolicyEditorModal.tsx';
import type { ScopedAccess } from './scoped-access.ts';

type Editing =
  | { kind: 'new' }
  | { kind: 'edit'; policy: SecurityPolicy }
  | { kind: 'devices'; policy: SecurityPolicy };

/** The organization's security policy groups: rules for the users and devices they are assigned to; they nest. */
export function SecurityPoliciesPanel({ access }: { access: ScopedAccess }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const org = access.organization.id;
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc', pageSize: 25 });
  const [editing, setEditing] = useState<Editing>();
  const canUpdate = access.ability.can('UPDATE', 'organizations');
  const list = useQuery({
    queryKey: ['iam-organizations', org, 'policies', request],
    queryFn: async ({ signal }) => fetchPolicies(await access.token(), org, request, signal),
    placeholderData: keepPreviousData,
  });
  // Every group of the organization, to name parents and offer them in the editor.
  const all = useQuery({
    queryKey: ['iam-organizations', org, 'policies', 'all'],
    queryFn: async ({ signal }) =>
      fetchPolicies(await access.token(), org, { page: 0, pageSize: 1000, sort: 'name' }, signal),
  });
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['iam-organizations', org, 'policies'] }),
    [queryClient, org],
  );

  const columns = useMemo<ColumnDef<SecurityPolicy>[]>(() => {
    const nameOf = (id: string | null) => all.data?.items.find((policy) => policy.id === id)?.name;
    const confirmDelete = (policy: SecurityPolicy) => {
      if (policy.childCount > 0) {
        modals.open({
          title: t('iamOrganizations.policies.cannotDelete'),
          children: (
            <Text size="sm" role="alert">
              {t('iamOrganizations.policies.hasNested', { name: policy.name, count: policy.childCount })}
            </Text>
          ),
        });
        return;
      }
      confirmDanger({
        title: t('iamOrganizations.policies.deleteTitle'),
        message: t('iamOrganizations.policies.deleteConfirm', { name: policy.name }),
        confirmLabel: t('iamOrganizations.policies.delete'),
        onConfirm: async () => {
          try {
            await deletePolicy(await access.token(), org, policy.id);
            notifications.show({
              color: 'green',
              message: t('iamOrganizations.policies.deleted', { name: policy.name }),
            });
          } catch (error) {
            notifications.show({
              color: 'red',
              title: t('iamOrganizations.policies.deleteFailed'),
              message: hasStatus(error, 409)
                ? t('iamOrganizations.policies.hasNested', {
                    name: policy.name,
                    count: policy.childCount || 1,
                  })
                : commonFailure(t, error),
            });
          } finally {
            await refresh();
          }
        },
      });
    };
    return [
      {
        id: 'name',
        header: t('iamOrganizations.policies.columns.name'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm" fw={500}>
              {row.original.name}
            </Text>
            {row.original.parentId && (
              <Text size="xs" c="dimmed">
                {t('iamOrganizations.policies.nestedIn', { parent: nameOf(row.original.parentId) ?? '…' })}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'rules',
        header: t('iamOrganizations.policies.columns.rules'),
        enableSorting: false,
        cell: ({ row }) => {
          const { rules } = row.original;
          return (
            <Group gap={4}>
              {rules.requireTotp && <Badge variant="light">{t('iamOrganizations.policies.totp')}</Badge>}
              <Badge variant="light" color="gray">
                {rules.allowedIpRanges.length === 0
                  ? t('iamOrganizations.policies.anyAddress')
                  : t('iamOrganizations.policies.ranges', { count: rules.allowedIpRanges.length })}
              </Badge>
              {rules.maxSessionMinutes > 0 && (
                <Badge variant="light" color="gray">
                  {t('iamOrganizations.policies.session', { minutes: rules.maxSessionMinutes })}
                </Badge>
              )}
            </Group>
          );
        },
      },
      {
        id: 'assigned',
        header: t('iamOrganizations.policies.columns.assigned'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {t('iamOrganizations.policies.assigned', {
              devices: t('iamOrganizations.policies.devices', { count: row.original.deviceCount }),
              users: t('iamOrganizations.policies.users', { count: row.original.userCount }),
            })}
          </Text>
        ),
      },
      actionsColumn(t('iamOrganizations.policies.columns.actions'), (policy) => (
        <>
          <RowAction
            label={t('iamOrganizations.policies.devicesLabel', { name: policy.name })}
            onClick={() => setEditing({ kind: 'devices', policy })}
          >
            {t('iamOrganizations.policies.devicesAction')}
          </RowAction>
          {canUpdate && (
            <RowAction
              label={t('iamOrganizations.policies.editLabel', { name: policy.name })}
              onClick={() => setEditing({ kind: 'edit', policy })}
            >
              {t('iamOrganizations.policies.edit')}
            </RowAction>
          )}
          {canUpdate && (
            <RowAction
              danger
              label={t('iamOrganizations.policies.deleteLabel', { name: policy.name })}
              onClick={() => confirmDelete(policy)}
            >
              {t('iamOrganizations.policies.delete')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, all.data, canUpdate, access, org, refresh]);

  return (
    <>
      <DataTable
        label={t('iamOrganizations.policies.table')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={list}
        rowId={(policy) => policy.id}
        empty={
          <Text size="sm" c="dimmed">
            {canUpdate ? t('iamOrganizations.policies.emptyCreate') : t('iamOrganizations.policies.empty')}
          </Text>
        }
        toolbar={
          canUpdate && (
            <Button onClick={() => setEditing({ kind: 'new' })}>{t('iamOrganizations.policies.new')}</Button>
          )
        }
      />
      <PolicyEditorModal
        opened={editing?.kind === 'new' || editing?.kind === 'edit'}
        policy={editing?.kind === 'edit' ? editing.policy : undefined}
        policies={all.data?.items ?? []}
        access={access}
        onClose={() => setEditing(undefined)}
        onSaved={() => void refresh()}
      />
      <PolicyDevicesModal
        policy={editing?.kind === 'devices' ? editing.policy : undefined}
        access={access}
        onClose={() => setEditing(undefined)}
        onChanged={() => void refresh()}
      />
    </>
  );
}
