import { Button, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { domainOf, type Gateway } from '../vpn-endpoints/api.ts';
import { type Application, deleteShortcut, fetchShortcuts, type Shortcut, VPN_SHORTCUTS_KEY } from './api.ts';
import { osLabel } from './application-form.ts';
import { localPage } from './local-page.ts';
import { vpnAppsFailure } from './messages.ts';
import { ShortcutFormModal } from './ShortcutFormModal.tsx';

/** "My shortcuts": the signed-in user's application preferences in this organization (spec 7, page size 200). */
export function ShortcutsSection({
  gateways,
  applications,
}: {
  gateways: readonly Gateway[];
  applications: readonly Application[];
}) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const domain = domainOf(organization);
  const [request, setRequest] = usePageRequest();
  const [creating, setCreating] = useState(false);

  const shortcuts = useQuery({
    queryKey: [VPN_SHORTCUTS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchShortcuts(await token(), domain, signal),
  });
  const page = useMemo(
    () =>
      shortcuts.data &&
      localPage(
        shortcuts.data.items,
        request,
        (shortcut) => [shortcut.label, shortcut.gateway, shortcut.endpoint, shortcut.action],
        (shortcut) => shortcut.label,
      ),
    [shortcuts.data, request],
  );

  const columns = useMemo<ColumnDef<Shortcut>[]>(() => {
    const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    const remove = async (shortcut: Shortcut) => {
      try {
        await deleteShortcut(await token(), domain, shortcut.id);
        notifications.show({
          color: 'green',
          message: t('vpnApplications.shortcuts.deleted', { label: shortcut.label }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('vpnApplications.shortcuts.deleteFailed'),
          message: vpnAppsFailure(t, 'shortcut', error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: [VPN_SHORTCUTS_KEY, organization.id] });
      }
    };
    const plain = (id: keyof Shortcut & string, header: string): ColumnDef<Shortcut> => ({
      id,
      header,
      enableSorting: false,
      cell: ({ row }) => String(row.original[id]),
    });
    return [
      {
        id: 'label',
        header: t('vpnApplications.shortcuts.fields.label'),
        enableSorting: false,
        cell: ({ row }) => <Text fw={500}>{row.original.label}</Text>,
      },
      plain('gateway', t('vpnEndpoints.fields.gateway')),
      plain('endpoint', t('vpnApplications.shortcuts.fields.endpoint')),
      plain('action', t('vpnApplications.shortcuts.fields.application')),
      {
        id: 'clientOs',
        header: t('vpnApplications.shortcuts.fields.clientOs'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.clientOs ? osLabel(row.original.clientOs) : t('vpnApplications.allSystems'),
      },
      {
        id: 'createdAt',
        header: t('vpnApplications.shortcuts.fields.createdAt'),
        enableSorting: false,
        cell: ({ row }) => dates.format(new Date(row.original.createdAt)),
      },
      actionsColumn(t('vpnApplications.rowActions'), (shortcut) => (
        <RowAction
          danger
          label={t('vpnApplications.shortcuts.delete', { label: shortcut.label })}
          onClick={() =>
            confirmDanger({
              title: t('vpnApplications.shortcuts.deleteTitle'),
              message: t('vpnApplications.shortcuts.deleteConfirm', { label: shortcut.label }),
              confirmLabel: t('vpnApplications.deleteShort'),
              onConfirm: () => remove(shortcut),
            })
          }
        >
          {t('vpnApplications.deleteShort')}
        </RowAction>
      )),
    ];
  }, [t, i18n.language, token, domain, organization.id, queryClient]);

  return (
    <Stack gap="sm" data-testid="vpn-shortcuts">
      <div>
        <Title order={3} size="h4">
          {t('vpnApplications.shortcuts.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnApplications.shortcuts.intro')}
        </Text>
      </div>
      <DataTable<Shortcut>
        label={t('vpnApplications.shortcuts.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={{
          data: page,
          isFetching: shortcuts.isFetching,
          error: shortcuts.error,
          refetch: shortcuts.refetch,
        }}
        rowId={(shortcut) => shortcut.id}
        searchable={false}
        toolbar={
          <Button variant="light" onClick={() => setCreating(true)} data-testid="create-shortcut">
            {t('vpnApplications.shortcuts.create')}
          </Button>
        }
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>{t('vpnApplications.shortcuts.empty')}</Text>
            <Text size="sm" c="dimmed">
              {t('vpnApplications.shortcuts.emptyHint')}
            </Text>
          </Stack>
        }
      />
      <ShortcutFormModal
        opened={creating}
        gateways={gateways}
        applications={applications}
        onClose={() => setCreating(false)}
      />
    </Stack>
  );
}
