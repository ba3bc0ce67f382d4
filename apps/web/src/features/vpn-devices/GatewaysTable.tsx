import { SegmentedControl, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, type PageRequest } from '../../shared/ui/DataTable.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { formatCoordinate } from '../devices/format.ts';
import { useNow } from '../devices/use-now.ts';
import { isFeatureEnabled } from '../experimental/flags.ts';
import { fetchGateways, type Gateway, type GatewayStatus } from './api.ts';
import { GatewayStatusSince } from './GatewayStatus.tsx';
import { GATEWAYS_KEY } from './query-keys.ts';

/** The list follows the tunnels: a gateway that comes online shows so within this time. */
export const GATEWAYS_REFRESH_MS = 5_000;

type StatusFilter = 'all' | GatewayStatus;
type Request = PageRequest & { status?: GatewayStatus };

/**
 * The organization's gateways (VPN devices): server-side paging, search and status filter; status with the time of
 * the last change against the server's clock; LAN (and its size with VPNnetworkSize), VPN IP (showVpnIp), endpoints
 * and position.
 */
export function GatewaysTable({ onOpen }: { onOpen: (name: string) => void }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [request, setRequest] = useState<Request>({ page: 0, pageSize: 50 });
  const [showSize] = useState(() => isFeatureEnabled('VPNnetworkSize'));
  const [showVpnIp] = useState(() => isFeatureEnabled('showVpnIp'));
  const localNow = useNow(15_000);

  const gateways = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) =>
      fetchGateways(
        await token(),
        organization.resourceId,
        {
          page: request.page,
          pageSize: request.pageSize,
          search: request.search,
          status: request.status,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: GATEWAYS_REFRESH_MS,
  });
  const now = localNow + (gateways.data?.clockOffset ?? 0);

  const onRequestChange = useCallback(
    (next: PageRequest) => setRequest((current) => ({ ...current, ...next })),
    [],
  );

  const columns = useMemo<ColumnDef<Gateway>[]>(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const all: (ColumnDef<Gateway> | false)[] = [
      {
        id: 'name',
        header: t('vpnDevices.columns.name'),
        cell: ({ row }) => (
          <RowLinkButton
            onClick={() => onOpen(row.original.name)}
            label={t('vpnDevices.open', { name: row.original.name })}
          >
            {row.original.name}
          </RowLinkButton>
        ),
      },
      {
        id: 'status',
        header: t('vpnDevices.columns.status'),
        cell: ({ row }) => <GatewayStatusSince gateway={row.original} now={now} />,
      },
      {
        id: 'lanNetwork',
        header: t('vpnDevices.columns.lanNetwork'),
        cell: ({ row }) =>
          row.original.lanNetwork ? (
            <Stack gap={0}>
              <Text size="sm" ff="monospace">
                {row.original.lanNetwork}
              </Text>
              {showSize && row.original.networkSize !== null && (
                <Text size="xs" c="dimmed" data-testid="network-size">
                  {t('vpnDevices.hosts', {
                    count: row.original.networkSize,
                    formatted: number.format(row.original.networkSize),
                  })}
                </Text>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {t('vpnDevices.noLan')}
            </Text>
          ),
      },
      showVpnIp && {
        id: 'vpnIp',
        header: t('vpnDevices.columns.vpnIp'),
        cell: ({ row }) => (
          <Text size="sm" ff="monospace">
            {row.original.vpnIp ?? '—'}
          </Text>
        ),
      },
      {
        id: 'endpointCount',
        header: t('vpnDevices.columns.endpoints'),
        cell: ({ row }) => number.format(row.original.endpointCount),
      },
      {
        id: 'position',
        header: t('vpnDevices.columns.position'),
        cell: ({ row }) => {
          const { latitude, longitude } = row.original;
          if (latitude === null || longitude === null)
            return (
              <Text size="sm" c="dimmed">
                {t('vpnDevices.noPosition')}
              </Text>
            );
          return `${formatCoordinate(latitude, i18n.language)}, ${formatCoordinate(longitude, i18n.language)}`;
        },
      },
    ];
    return all
      .filter((column): column is ColumnDef<Gateway> => column !== false)
      .map((column) => ({ ...column, enableSorting: false }));
  }, [t, i18n.language, now, showSize, showVpnIp, onOpen]);

  const filtered = Boolean(request.search || request.status);

  return (
    <DataTable<Gateway>
      label={t('vpnDevices.tableLabel')}
      columns={columns}
      request={request}
      onRequestChange={onRequestChange}
      query={{
        data: gateways.data,
        error: gateways.error,
        refetch: gateways.refetch,
        // The periodic refresh stays quiet; a new page, search or filter shows the loader.
        isFetching: gateways.isFetching && (gateways.isPending || gateways.isPlaceholderData),
      }}
      rowId={(gateway) => gateway.id}
      toolbar={
        <SegmentedControl
          aria-label={t('vpnDevices.filters.status')}
          size="xs"
          value={request.status ?? 'all'}
          onChange={(value) => {
            const status = value as StatusFilter;
            setRequest((current) => ({
              ...current,
              page: 0,
              status: status === 'all' ? undefined : status,
            }));
          }}
          data={[
            { value: 'all', label: t('vpnDevices.filters.all') },
            { value: 'ONLINE', label: t('vpnDevices.status.ONLINE') },
            { value: 'OFFLINE', label: t('vpnDevices.status.OFFLINE') },
          ]}
        />
      }
      empty={
        <Text c="dimmed" size="sm">
          {filtered ? t('vpnDevices.emptyFiltered') : t('vpnDevices.empty')}
        </Text>
      }
    />
  );
}
