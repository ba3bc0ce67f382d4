import { Badge, Button, Group as Row, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, type PageRequest, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { type Client, fetchClients } from './api.ts';
import { ClientDrawer } from './ClientDrawer.tsx';
import { DealerLayout } from './DealerLayout.tsx';
import { formatCount, formatDate } from './format.ts';
import { NewClientModal } from './NewClientModal.tsx';
import { DEALER_KEY } from './query-keys.ts';

/**
 * Spec 2 /dealer/clients: the dealer's client organizations (server-paged), "New client", and a client in a drawer
 * (`?client=<id>`) with its licences, activation keys, invoices and resources.
 */
export default function ClientsPage() {
  const { t } = useTranslation();
  return (
    <DealerLayout title={t('dealer.clients.title')} testId="dealer-clients-page">
      <ClientsScreen />
    </DealerLayout>
  );
}

function ClientsScreen() {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [clientId, openClient] = useSearchParam('client');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const [creating, setCreating] = useState(false);

  const clients = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'clients', request],
    queryFn: async ({ signal }) => fetchClients(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
    // The clients act too (activate licences, add devices): the counts are read whenever the list shows.
    staleTime: 0,
  });

  const onRequestChange = useCallback((next: PageRequest) => setRequest(next), [setRequest]);

  const columns = useMemo<ColumnDef<Client>[]>(
    () => [
      {
        id: 'name',
        accessorKey: 'name',
        header: t('dealer.clients.columns.name'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => openClient(row.original.id)}
            label={t('dealer.clients.open', { name: row.original.name })}
          >
            {row.original.name}
          </RowLinkButton>
        ),
      },
      {
        id: 'licenses',
        header: t('dealer.clients.columns.licenses'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" data-testid="client-licenses">
            {t('dealer.clients.licenseCounts', {
              active: formatCount(row.original.activeLicenseCount, i18n.language),
              total: formatCount(row.original.licenseCount, i18n.language),
            })}
          </Text>
        ),
      },
      {
        id: 'devices',
        header: t('dealer.clients.columns.devices'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" data-testid="client-devices">
            {formatCount(row.original.deviceCount, i18n.language)}
          </Text>
        ),
      },
      {
        id: 'features',
        header: t('dealer.clients.columns.features'),
        enableSorting: false,
        cell: ({ row }) => (
          <Row gap={4} wrap="nowrap">
            {row.original.iotEnabled && (
              <Badge variant="outline" size="sm" tt="none">
                {t('organization.iot')}
              </Badge>
            )}
            {row.original.vpnEnabled && (
              <Badge variant="outline" size="sm" tt="none">
                {t('organization.vpn')}
              </Badge>
            )}
          </Row>
        ),
      },
      {
        id: 'createdAt',
        accessorKey: 'createdAt',
        header: t('dealer.clients.columns.createdAt'),
        cell: ({ row }) => formatDate(row.original.createdAt, i18n.language),
      },
    ],
    [t, i18n.language, openClient],
  );

  return (
    <>
      <DataTable<Client>
        label={t('dealer.clients.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={onRequestChange}
        query={clients}
        rowId={(client) => client.id}
        toolbar={
          <Button onClick={() => setCreating(true)} data-testid="new-client">
            {t('dealer.clients.new')}
          </Button>
        }
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>
              {request.search ? t('dealer.clients.empty.noMatch') : t('dealer.clients.empty.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {request.search ? t('dealer.clients.empty.noMatchHint') : t('dealer.clients.empty.hint')}
            </Text>
          </Stack>
        }
      />
      <NewClientModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(client) => {
          setCreating(false);
          openClient(client.id);
        }}
      />
      <ClientDrawer clientId={clientId} onClose={() => openClient(null)} />
    </>
  );
}
