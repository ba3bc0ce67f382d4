import 'leaflet/dist/leaflet.css';
import { Badge, Box, Button, Group as Row, SegmentedControl, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { statusIcon } from '../../shared/map/status-icon.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchMapSettings } from '../devices/api.ts';
import { DEVICES_KEY } from '../devices/query-keys.ts';
import { fetchGateways, type Gateway, type GatewayStatus } from './api.ts';
import { GatewayStatusBadge } from './GatewayStatus.tsx';
import { GATEWAYS_REFRESH_MS } from './GatewaysTable.tsx';
import { GATEWAYS_KEY } from './query-keys.ts';
import classes from './vpn-devices.module.css';

/** The map shows at most this many gateways (the largest page the gateways call gives). */
const MAP_LIMIT = 1000;
const TILE_FAILURES_BEFORE_GIVING_UP = 4;
const WORLD_CENTER: [number, number] = [20, 0];

type Positioned = Gateway & { latitude: number; longitude: number };

/**
 * The gateways with a position on a Leaflet map in the status colours; a popup leads to the gateway's drawer. Without
 * a reachable tile server (offline plants, test machines) the markers stay on a plain background.
 */
export default function GatewayMap({ onOpen }: { onOpen: (name: string) => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [status, setStatus] = useState<'all' | GatewayStatus>('all');
  const [tilesFailed, setTilesFailed] = useState(false);

  const settings = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'mapSettings'],
    queryFn: async ({ signal }) => fetchMapSettings(await token(), organization.id, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const gateways = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'map', status],
    queryFn: async ({ signal }) =>
      fetchGateways(
        await token(),
        organization.resourceId,
        { page: 0, pageSize: MAP_LIMIT, status: status === 'all' ? undefined : status },
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: GATEWAYS_REFRESH_MS,
  });
  const positioned = useMemo(
    () =>
      (gateways.data?.items ?? []).filter(
        (gateway): gateway is Positioned => gateway.latitude !== null && gateway.longitude !== null,
      ),
    [gateways.data],
  );
  const online = positioned.filter((gateway) => gateway.status === 'ONLINE').length;
  const unplaced = (gateways.data?.items.length ?? 0) - positioned.length;

  return (
    <Stack gap="sm" data-testid="gateway-map">
      <Row justify="space-between" wrap="wrap" gap="xs">
        <SegmentedControl
          aria-label={t('vpnDevices.filters.status')}
          size="xs"
          value={status}
          onChange={(value) => setStatus(value as 'all' | GatewayStatus)}
          data={[
            { value: 'all', label: t('vpnDevices.filters.all') },
            { value: 'ONLINE', label: t('vpnDevices.status.ONLINE') },
            { value: 'OFFLINE', label: t('vpnDevices.status.OFFLINE') },
          ]}
        />
        <Row gap="xs" aria-live="polite">
          <Badge color="teal" variant="light" tt="none">
            {t('vpnDevices.map.online', { count: online })}
          </Badge>
          <Badge color="gray" variant="light" tt="none">
            {t('vpnDevices.map.offline', { count: positioned.length - online })}
          </Badge>
        </Row>
      </Row>
      {gateways.isError && (
        <LoadFailed
          title={t('vpnDevices.loadFailed')}
          message={describeError(t, gateways.error)}
          onRetry={() => void gateways.refetch()}
        />
      )}
      {unplaced > 0 && (
        <Text size="sm" c="dimmed" data-testid="gateways-unplaced">
          {t('vpnDevices.map.unplaced', { count: unplaced })}
        </Text>
      )}
      {(tilesFailed || settings.isError) && (
        <Text size="sm" c="dimmed" data-testid="gateway-tiles-unavailable">
          {t('vpnDevices.map.noTiles')}
        </Text>
      )}
      <Box role="region" aria-label={t('vpnDevices.map.label')}>
        <MapContainer
          center={WORLD_CENTER}
          zoom={2}
          minZoom={2}
          maxZoom={19}
          worldCopyJump
          className={classes.map}
        >
          {settings.data && !tilesFailed && (
            <TileLayer
              url={settings.data.tileUrl}
              attribution={settings.data.attribution}
              maxZoom={settings.data.maxZoom}
              eventHandlers={tileWatch(() => setTilesFailed(true))}
            />
          )}
          <FitToGateways gateways={positioned} />
          {positioned.map((gateway) => (
            <Marker
              key={gateway.id}
              position={[gateway.latitude, gateway.longitude]}
              icon={statusIcon(gateway.status)}
              title={gateway.name}
              alt={gateway.name}
              keyboard
            >
              <Popup>
                <Stack gap={6} miw={160} data-testid="gateway-popup">
                  <Text fw={600} size="sm">
                    {gateway.name}
                  </Text>
                  <GatewayStatusBadge status={gateway.status} />
                  <Button size="compact-xs" variant="light" onClick={() => onOpen(gateway.name)}>
                    {t('vpnDevices.map.open')}
                  </Button>
                </Stack>
              </Popup>
            </Marker>
          ))}
        </MapContainer>
      </Box>
    </Stack>
  );
}

function tileWatch(onGiveUp: () => void): L.LeafletEventHandlerFnMap {
  let failed = 0;
  let loaded = 0;
  return {
    tileload: () => {
      loaded += 1;
    },
    tileerror: () => {
      failed += 1;
      if (loaded === 0 && failed >= TILE_FAILURES_BEFORE_GIVING_UP) onGiveUp();
    },
  };
}

/** Once, when the first gateways arrive: shows them all. */
function FitToGateways({ gateways }: { gateways: readonly Positioned[] }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || gateways.length === 0) return;
    done.current = true;
    const bounds = L.latLngBounds(gateways.map((gateway) => [gateway.latitude, gateway.longitude]));
    map.fitBounds(bounds, { padding: [40, 40], maxZoom: 14 });
  }, [gateways, map]);
  return null;
}
