import { Anchor, Badge, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { fetchRoles, type Role, type RoleKind, rolesPathOf } from './api.ts';
import { usageText } from './messages.ts';
import { useDeleteRole } from './use-delete-role.tsx';

type Props = {
  /** Only roles of this kind; all kinds (with a kind column) when absent. */
  kind?: RoleKind;
  toolbar?: ReactNode;
};

/** The organization's roles, paged by the server; each name opens the role editor of its kind. */
export function RolesTable({ kind, toolbar }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const confirmDelete = useDeleteRole();
  const roles = useQuery({
    queryKey: ['iam-roles', organization.id, 'list', kind ?? 'all', request],
    queryFn: async ({ signal }) => fetchRoles(await token(), organization.id, { ...request, kind }, signal),
    placeholderData: keepPreviousData,
  });
  const canDelete = ability.can('DELETE', 'roles');

  const columns = useMemo<ColumnDef<Role>[]>(() => {
    const list: ColumnDef<Role>[] = [
      {
        id: 'name',
        header: t('iamRoles.columns.name'),
        cell: ({ row }) => (
          <Anchor component={Link} to={`${rolesPathOf(row.original.kind)}?role=${row.original.id}`} fw={500}>
            {row.original.name}
          </Anchor>
        ),
      },
    ];
    if (!kind)
      list.push({
        id: 'kind',
        header: t('iamRoles.columns.kind'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.kind === 'general' ? 'blue' : 'grape'}>
            {t(`iamRoles.kinds.${row.original.kind}`)}
          </Badge>
        ),
      });
    list.push(
      {
        id: 'description',
        header: t('iamRoles.columns.description'),
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'usage',
        header: t('iamRoles.columns.usage'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" c="dimmed">
            {usageText(t, row.original.usage)}
          </Text>
        ),
      },
      actionsColumn(
        t('iamRoles.columns.actions'),
        (role) =>
          canDelete && (
            <RowAction
              danger
              label={t('iamRoles.delete.label', { name: role.name })}
              onClick={() => confirmDelete(role)}
            >
              {t('iamRoles.delete.action')}
            </RowAction>
          ),
      ),
    );
    return list;
  }, [t, kind, canDelete, confirmDelete]);

  return (
    <DataTable<Role>
      label={t('iamRoles.tableLabel')}
      columns={columns}
      request={request}
      onRequestChange={setRequest}
      query={roles}
      rowId={(row) => row.id}
      empty={
        <Text c="dimmed" ta="center">
          {request.search ? t('iamRoles.emptySearch') : t('iamRoles.empty')}
        </Text>
      }
      toolbar={toolbar}
    />
  );
}
