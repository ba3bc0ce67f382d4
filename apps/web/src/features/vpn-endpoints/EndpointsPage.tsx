import { Anchor, Badge, Button, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, type PageRequest, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { GATEWAYS_KEY } from '../vpn-devices/query-keys.ts';
import { VpnTabs } from '../vpn-devices/VpnTabs.tsx';
import {
  deleteEndpoint,
  domainOf,
  type Endpoint,
  fetchEndpoints,
  fetchGatewayOptions,
  VPN_ENDPOINTS_KEY,
  VPN_GATEWAY_OPTIONS_KEY,
} from './api.ts';
import { EndpointFormModal } from './EndpointFormModal.tsx';
import { endpointFailure } from './messages.ts';

const GATEWAY_PARAM = 'gateway';

/** Spec 2 /vpn/endpoints: the machines of every gateway of the organization, searchable and filtered by gateway. */
export default function EndpointsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const domain = domainOf(organization);
  const [gatewayParam, setGatewayParam] = useSearchParam(GATEWAY_PARAM);
  const gatewayFilter = gatewayParam ?? '';
  const [request, setRequest] = usePageRequest();
  const [creating, setCreating] = useState(false);
  const canCreate = ability.can('CREATE', 'devices');
  const canDelete = ability.can('DELETE', 'devices');

  const gateways = useQuery({
    queryKey: [VPN_GATEWAY_OPTIONS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchGatewayOptions(await token(), domain, signal),
  });

  const endpoints = useQuery({
    queryKey: [VPN_ENDPOINTS_KEY, organization.id, 'list', request, gatewayFilter],
    queryFn: async ({ signal }) =>
      fetchEndpoints(
        await token(),
        domain,
        { ...request, ...(gatewayFilter && { gateway: gatewayFilter }) },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

  const filterByGateway = useCallback(
    (gateway: string | null) => {
      setGatewayParam(gateway);
      setRequest((current: PageRequest) => ({ ...current, page: 0 }));
    },
    [setGatewayParam, setRequest],
  );

  const columns = useMemo<ColumnDef<Endpoint>[]>(() => {
    const remove = async (endpoint: Endpoint) => {
      try {
        await deleteEndpoint(await token(), domain, endpoint);
        notifications.show({ color: 'green', message: t('vpnEndpoints.deleted', { name: endpoint.name }) });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('vpnEndpoints.deleteFailed'),
          message: endpointFailure(t, error),
        });
      } finally {
        await queryClient.invalidateQueries({ queryKey: [VPN_ENDPOINTS_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [VPN_GATEWAY_OPTIONS_KEY, organization.id] });
        await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
      }
    };
    return [
      {
        id: 'name',
        header: t('vpnEndpoints.fields.name'),
        enableSorting: false,
        cell: ({ row }) => <Text fw={500}>{row.original.name}</Text>,
      },
      {
        id: 'gateway',
        header: t('vpnEndpoints.fields.gateway'),
        enableSorting: false,
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={{ pathname: '/vpn', search: `?${new URLSearchParams({ gateway: row.original.gateway })}` }}
            aria-label={t('vpnEndpoints.openGateway', { name: row.original.gateway })}
          >
            {row.original.gateway}
          </Anchor>
        ),
      },
      {
        id: 'address',
        header: t('vpnEndpoints.fields.address'),
        enableSorting: false,
        cell: ({ row }) => <Text ff="monospace">{row.original.address}</Text>,
      },
      {
        id: 'protocol',
        header: t('vpnEndpoints.fields.protocol'),
        enableSorting: false,
        cell: ({ row }) => row.original.protocol,
      },
      {
        id: 'port',
        header: t('vpnEndpoints.fields.port'),
        enableSorting: false,
        cell: ({ row }) => row.original.port,
      },
      {
        id: 'source',
        header: t('vpnEndpoints.fields.source'),
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.source === 'AGENT' ? 'teal' : 'blue'}>
            {t(`vpnEndpoints.source.${row.original.source}`)}
          </Badge>
        ),
      },
      {
        id: 'description',
        header: t('vpnEndpoints.fields.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={2}>
            {row.original.description}
          </Text>
        ),
      },
      actionsColumn(
        t('vpnEndpoints.rowActions'),
        (endpoint) =>
          canDelete && (
            <RowAction
              danger
              label={t('vpnEndpoints.delete', { name: endpoint.name, gateway: endpoint.gateway })}
              onClick={() =>
                confirmDanger({
                  title: t('vpnEndpoints.deleteTitle'),
                  message: t('vpnEndpoints.deleteConfirm', {
                    name: endpoint.name,
                    gateway: endpoint.gateway,
                  }),
                  confirmLabel: t('vpnEndpoints.deleteShort'),
                  onConfirm: () => remove(endpoint),
                })
              }
            >
              {t('vpnEndpoints.deleteShort')}
            </RowAction>
          ),
      ),
    ];
  }, [t, token, domain, organization.id, queryClient, canDelete]);

  const gatewayList = gateways.data ?? [];
  const noGateways = gateways.isSuccess && gatewayList.length === 0;
  const filtering = Boolean(request.search) || gatewayFilter !== '';

  return (
    <Stack gap="md" data-testid="vpn-endpoints-page">
      <VpnTabs />
      <div>
        <Title order={1} size="h3">
          {t('vpnEndpoints.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('vpnEndpoints.intro')}
        </Text>
      </div>
      {gateways.isError && (
        <LoadFailed
          title={t('vpnEndpoints.gatewaysFailed')}
          message={describeError(t, gateways.error)}
          onRetry={() => void gateways.refetch()}
        />
      )}
      <DataTable<Endpoint>
        label={t('vpnEndpoints.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={endpoints}
        rowId={(endpoint) => endpoint.id}
        toolbar={
          <>
            <Select
              aria-label={t('vpnEndpoints.filters.gateway')}
              placeholder={t('vpnEndpoints.filters.allGateways')}
              data={gatewayList.map((gateway) => ({ value: gateway.name, label: gateway.name }))}
              value={gatewayFilter || null}
              onChange={filterByGateway}
              clearable
              clearButtonProps={{ 'aria-label': t('vpnEndpoints.filters.clear') }}
              searchable
              nothingFoundMessage={t('vpnEndpoints.noGatewayMatch')}
              w={220}
            />
            {canCreate && (
              <Button onClick={() => setCreating(true)} disabled={noGateways} data-testid="create-endpoint">
                {t('vpnEndpoints.create')}
              </Button>
            )}
          </>
        }
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>
              {filtering ? t('vpnEndpoints.empty.noMatch') : t('vpnEndpoints.empty.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {filtering
                ? t('vpnEndpoints.empty.noMatchHint')
                : noGateways
                  ? t('vpnEndpoints.noGateways')
                  : canCreate
                    ? t('vpnEndpoints.empty.createHint')
                    : t('vpnEndpoints.empty.askHint')}
            </Text>
          </Stack>
        }
      />
      <EndpointFormModal
        opened={creating}
        gateways={gatewayList}
        initialGateway={gatewayFilter}
        onClose={() => setCreating(false)}
      />
    </Stack>
  );
}
