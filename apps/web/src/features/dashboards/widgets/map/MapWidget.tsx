import 'leaflet/dist/leaflet.css';
import { Box, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { useOrganizationApi } from '../../../../app/use-organization-api.ts';
import { useLiveAlarms } from '../../../../shared/live/use-live-alarms.ts';
import { severityIcon, statusIcon } from '../../../../shared/map/status-icon.ts';
import { tileWatch } from '../../../../shared/map/tile-watch.ts';
import { searchAlarms } from '../../../alarms/api.ts';
import { type Severity, severityRank } from '../../../alarms/severity.ts';
import { fetchDevice, fetchMapSettings } from '../../../devices/api.ts';
import { DEVICES_KEY } from '../../../devices/query-keys.ts';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';
import classes from './map-widget.module.css';

type Placed = { id: string; label: string; status: string; latitude: number; longitude: number };

function FitTo({ devices }: { devices: readonly Placed[] }) {
  const map = useMap();
  const key = devices.map((device) => `${device.id}:${device.latitude}:${device.longitude}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the positions.
  useEffect(() => {
    if (devices.length === 0) return;
    const bounds = L.latLngBounds(devices.map((device) => [device.latitude, device.longitude]));
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
  }, [map, key]);
  return null;
}

/** Watches the map's size (the grid cell may change) so Leaflet redraws its tiles. */
function SizeWatcher() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

/**
 * The slots' devices on a Leaflet map (tiles from the server's MAP_TILE_URL, as on the device map; a plain background
 * when none answers), each marker in its status colour — or, with `showAlarms`, in the colour of its most severe open
 * alarm (experimental `mapAlarmWidget`).
 */
export default function MapWidget({ widget, runtime }: WidgetPropsOf<'map'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [tilesFailed, setTilesFailed] = useState(false);
  const tileHandlers = useMemo(() => tileWatch(() => setTilesFailed(true)), []);
  const showAlarms = widget.options.showAlarms;
  const deviceIds = useMemo(
    () => [
      ...new Set(
        (runtime.slots?.() ?? [])
          .map((slot) => runtime.deviceOf(slot))
          .filter((id): id is string => Boolean(id)),
      ),
    ],
    [runtime],
  );
  const settings = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'mapSettings'],
    queryFn: async ({ signal }) => fetchMapSettings(await token(), organization.id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const devices = useQueries({
    queries: deviceIds.map((id) => ({
      queryKey: [DEVICES_KEY, organization.id, 'device', id],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        fetchDevice(await token(), organization.id, id, signal),
      retry: false,
    })),
  });
  const alarms = useQueries({
    queries: deviceIds.map((id) => ({
      queryKey: ['dashboard-map-alarms', organization.id, id],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        searchAlarms(await token(), organization.id, { open: true, deviceId: id, pageSize: 100 }, signal),
      enabled: showAlarms,
      retry: false,
    })),
  });
  useLiveAlarms(
    {
      onAlarm: (message) => {
        const at = deviceIds.indexOf(message.alarm.deviceId ?? '');
        if (at >= 0) void alarms[at]?.refetch();
      },
    },
    showAlarms && deviceIds.length > 0,
  );

  const placed: Placed[] = devices.flatMap((query) => {
    const device = query.data;
    if (!device || device.latitude === null || device.longitude === null) return [];
    return [
      {
        id: device.id,
        label: device.label,
        status: runtime.statusOf?.(device.id) ?? device.status,
        latitude: device.latitude,
        longitude: device.longitude,
      },
    ];
  });
  const worst = (index: number): Severity | undefined =>
    alarms[index]?.data?.items
      .map((alarm) => alarm.severity)
      .sort((a, b) => severityRank(a) - severityRank(b))[0];

  if (deviceIds.length === 0) return <Placeholder message={t('dashboardWidgets.map.noDevices')} />;
  if (devices.some((query) => query.isPending)) return <Placeholder loading message={t('common.loading')} />;
  return (
    <Stack h="100%" gap={4}>
      {placed.length === 0 && (
        <Text size="xs" c="dimmed" data-testid="map-unplaced">
          {t('dashboardWidgets.map.noPositions')}
        </Text>
      )}
      <Box
        style={{ flex: 1, minHeight: 0 }}
        role="region"
        aria-label={widget.title || t('dashboardWidgets.types.map')}
      >
        <MapContainer
          center={[20, 0]}
          zoom={2}
          minZoom={2}
          maxZoom={19}
          className={classes.map}
          dragging={runtime.mode !== 'edit'}
          scrollWheelZoom={false}
        >
          {settings.data && !tilesFailed && (
            <TileLayer
              url={settings.data.tileUrl}
              attribution={settings.data.attribution}
              maxZoom={settings.data.maxZoom}
              eventHandlers={tileHandlers}
            />
          )}
          <SizeWatcher />
          <FitTo devices={placed} />
          {placed.map((device) => {
            const severity = showAlarms ? worst(deviceIds.indexOf(device.id)) : undefined;
            return (
              <Marker
                key={device.id}
                position={[device.latitude, device.longitude]}
                icon={severity ? severityIcon(severity) : statusIcon(device.status)}
                title={device.label}
                alt={device.label}
                keyboard
              >
                <Popup>
                  <Text size="sm" fw={600}>
                    {device.label}
                  </Text>
                  {severity && (
                    <Text size="xs" c="dimmed">
                      {t(`alarms.severity.${severity}`)}
                    </Text>
                  )}
                </Popup>
              </Marker>
            );
          })}
        </MapContainer>
      </Box>
    </Stack>
  );
}
