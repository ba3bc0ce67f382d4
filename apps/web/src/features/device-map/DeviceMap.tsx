import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group as Row,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import L from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { statusIcon } from '../../shared/map/status-icon.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import {
  type DevicePosition,
  type DeviceStatus,
  fetchMapSettings,
  fetchPositions,
  type Box as MapBox,
  updateDevice,
} from '../devices/api.ts';
import { DeviceStatusBadge } from '../devices/DeviceStatusBadge.tsx';
import { deviceFailure } from '../devices/messages.ts';
import { DEVICES_KEY } from '../devices/query-keys.ts';
import classes from './device-map.module.css';
import { boundsOf, boxOf, onlineAngle, roundCoordinate, wrapLongitude } from './geometry.ts';
import { PlaceDevicesPanel } from './PlaceDevicesPanel.tsx';

/** After this many failed tiles and none loaded, the background is given up: the devices stay on a plain one. */
const TILE_FAILURES_BEFORE_GIVING_UP = 4;
const WORLD_CENTER: [number, number] = [20, 0];

type Props = {
  /** Opens the device's drawer. */
  onOpenDevice: (id: string) => void;
  /** A device to centre on at start (its position, closely zoomed). */
  focus?: { latitude: number; longitude: number } | null;
};

/** What leaflet.markercluster hands to `iconCreateFunction` (its types are not installed). */
type Cluster = { getAllChildMarkers(): L.Marker[] };

/** A cluster: its device count inside a ring whose teal share is the share of online devices. */
function clusterIcon(cluster: Cluster): L.DivIcon {
  const markers = cluster.getAllChildMarkers();
  const online = markers.filter((marker) => marker.options.icon === statusIcon('ONLINE')).length;
  const angle = onlineAngle(online, markers.length);
  const ring = `conic-gradient(var(--mantine-color-teal-6) 0deg ${angle}deg, var(--mantine-color-gray-6) ${angle}deg 360deg)`;
  return L.divIcon({
    className: classes.cluster,
    html: `<span class="${classes.clusterRing}" style="background:${ring}"><span class="${classes.clusterCount}">${markers.length}</span></span>`,
    iconSize: [40, 40],
  });
}

/**
 * The organization's devices on a Leaflet map: clustered markers in the status colours, a popup per device leading
 * to its drawer, positions editable (dragging with "Move markers" on, or placing a device without one) with UPDATE
 * devices. The tiles come from the server's MAP_TILE_URL (OpenStreetMap by default); when no tile server answers the
 * devices stay on a plain background.
 */
export default function DeviceMap({ onOpenDevice, focus = null }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const canUpdate = ability.can('UPDATE', 'devices');
  const [box, setBox] = useState<MapBox | null>(null);
  const [status, setStatus] = useState<'all' | DeviceStatus>('all');
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [moving, setMoving] = useState(false);
  const [placing, setPlacing] = useState<{ id: string; label: string } | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const mapRef = useRef<L.Map | null>(null);

  const settings = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'mapSettings'],
    queryFn: async ({ signal }) => fetchMapSettings(await token(), organization.id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const filter = {
    box: box ?? undefined,
    status: status === 'all' ? undefined : status,
    search: debouncedSearch.trim() || undefined,
  };
  const positions = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'positions', filter],
    queryFn: async ({ signal }) => fetchPositions(await token(), organization.id, filter, signal),
    placeholderData: keepPreviousData,
  });

  const move = useMutation({
    mutationFn: async (input: { id: string; label: string; latitude: number; longitude: number }) =>
      updateDevice(await token(), organization.id, input.id, {
        latitude: input.latitude,
        longitude: input.longitude,
      }),
    onSuccess: (saved) =>
      notifications.show({ color: 'green', message: t('deviceMap.positionSaved', { label: saved.label }) }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('deviceMap.positionFailed'),
        message: deviceFailure(t, 'save', error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] }),
  });

  const place = (latitude: number, longitude: number) => {
    if (!placing) return;
    move.mutate({
      ...placing,
      latitude: roundCoordinate(Math.max(-90, Math.min(90, latitude))),
      longitude: roundCoordinate(wrapLongitude(longitude)),
    });
    setPlacing(null);
  };

  const items = positions.data?.items ?? [];
  const online = items.filter((item) => item.status === 'ONLINE').length;

  return (
    <Stack gap="sm" data-testid="device-map">
      <Row justify="space-between" wrap="wrap" gap="xs">
        <Row gap="xs" wrap="wrap">
          <TextInput
            aria-label={t('deviceMap.search')}
            placeholder={t('deviceMap.search')}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            size="xs"
            w={220}
          />
          <SegmentedControl
            aria-label={t('deviceMap.status')}
            size="xs"
            value={status}
            onChange={(value) => setStatus(value as 'all' | DeviceStatus)}
            data={[
              { value: 'all', label: t('deviceMap.all') },
              { value: 'ONLINE', label: t('devices.status.ONLINE') },
              { value: 'OFFLINE', label: t('devices.status.OFFLINE') },
            ]}
          />
          {canUpdate && (
            <Switch
              label={t('deviceMap.moveMarkers')}
              checked={moving}
              onChange={(event) => setMoving(event.currentTarget.checked)}
              size="sm"
            />
          )}
        </Row>
        <Row gap="xs" aria-live="polite" data-testid="map-legend">
          <Badge color="teal" variant="light" tt="none">
            {t('deviceMap.legend.online', { count: online })}
          </Badge>
          <Badge color="gray" variant="light" tt="none">
            {t('deviceMap.legend.offline', { count: items.length - online })}
          </Badge>
        </Row>
      </Row>
      {positions.isError && (
        <LoadFailed
          title={t('deviceMap.loadFailed')}
          message={describeError(t, positions.error)}
          onRetry={() => void positions.refetch()}
        />
      )}
      {positions.data?.truncated && (
        <Text size="sm" c="dimmed" data-testid="map-truncated">
          {t('deviceMap.truncated', { count: items.length })}
        </Text>
      )}
      {(tilesFailed || settings.isError) && (
        <Text size="sm" c="dimmed" data-testid="tiles-unavailable">
          {t('deviceMap.noTiles')}
        </Text>
      )}
      {placing && (
        <Alert color="blue" data-testid="placing-hint">
          <Row justify="space-between" gap="xs">
            <Text size="sm">{t('deviceMap.placing', { label: placing.label })}</Text>
            <Row gap="xs">
              <Button
                size="xs"
                onClick={() => {
                  const centre = mapRef.current?.getCenter();
                  if (centre) place(centre.lat, centre.lng);
                }}
              >
                {t('deviceMap.placeAtCentre')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setPlacing(null)}>
                {t('common.cancel')}
              </Button>
            </Row>
          </Row>
        </Alert>
      )}
      <Row align="flex-start" gap="sm" wrap="nowrap">
        <Box
          style={{ flex: 1, minWidth: 0 }}
          className={placing ? classes.placing : undefined}
          role="region"
          aria-label={t('deviceMap.label')}
        >
          <MapContainer
            ref={mapRef}
            center={focus ? [focus.latitude, focus.longitude] : WORLD_CENTER}
            zoom={focus ? 16 : 2}
            minZoom={2}
            // The clusters need a maximum zoom even when no tile layer (which would bring one) is shown.
            maxZoom={19}
            worldCopyJump
            className={classes.map}
            attributionControl
          >
            {settings.data && !tilesFailed && (
              <TileLayer
                url={settings.data.tileUrl}
                attribution={settings.data.attribution}
                maxZoom={settings.data.maxZoom}
                eventHandlers={tileWatch(() => setTilesFailed(true))}
              />
            )}
            <ViewWatcher onBox={setBox} />
            <FitToDevices devices={items} skip={focus !== null} />
            <PlaceOnClick active={placing !== null} onPlace={place} />
            <MarkerClusterGroup chunkedLoading iconCreateFunction={clusterIcon} maxClusterRadius={50}>
              {items.map((device) => (
                <DeviceMarker
                  key={device.id}
                  device={device}
                  draggable={canUpdate && moving}
                  onOpen={() => onOpenDevice(device.id)}
                  onMoved={(latitude, longitude) =>
                    move.mutate({
                      id: device.id,
                      label: device.label,
                      latitude: roundCoordinate(latitude),
                      longitude: roundCoordinate(wrapLongitude(longitude)),
                    })
                  }
                />
              ))}
            </MarkerClusterGroup>
          </MapContainer>
        </Box>
        {canUpdate && <PlaceDevicesPanel placing={placing?.id ?? null} onChoose={setPlacing} />}
      </Row>
    </Stack>
  );
}

/** Counts tile failures; gives the background up when only failures come (no tile server reachable). */
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

function DeviceMarker({
  device,
  draggable,
  onOpen,
  onMoved,
}: {
  device: DevicePosition;
  draggable: boolean;
  onOpen: () => void;
  onMoved: (latitude: number, longitude: number) => void;
}) {
  const { t } = useTranslation();
  const handlers = useMemo<L.LeafletEventHandlerFnMap>(
    () => ({
      dragend: (event) => {
        const { lat, lng } = (event.target as L.Marker).getLatLng();
        onMoved(lat, lng);
      },
    }),
    [onMoved],
  );
  return (
    <Marker
      position={[device.latitude, device.longitude]}
      icon={statusIcon(device.status)}
      title={device.label}
      alt={device.label}
      draggable={draggable}
      eventHandlers={handlers}
      keyboard
    >
      <Popup>
        <Stack gap={6} data-testid="device-popup" miw={160}>
          <Text fw={600} size="sm">
            {device.label}
          </Text>
          {device.alias && (
            <Text size="xs" c="dimmed">
              {device.alias}
            </Text>
          )}
          <DeviceStatusBadge status={device.status} />
          <Button size="compact-xs" variant="light" onClick={onOpen}>
            {t('deviceMap.openDevice')}
          </Button>
        </Stack>
      </Popup>
    </Marker>
  );
}

/** Reports the visible box after every pan and zoom (the positions call asks only for what is in view). */
function ViewWatcher({ onBox }: { onBox: (box: MapBox) => void }) {
  const map = useMapEvents({
    moveend: () => report(),
  });
  const report = () => {
    const bounds = map.getBounds();
    onBox(
      boxOf({
        south: bounds.getSouth(),
        west: bounds.getWest(),
        north: bounds.getNorth(),
        east: bounds.getEast(),
      }),
    );
  };
  return null;
}

/** Once, when the first devices arrive: shows them all. */
function FitToDevices({ devices, skip }: { devices: readonly DevicePosition[]; skip: boolean }) {
  const map = useMap();
  const done = useRef(skip);
  useEffect(() => {
    if (done.current || devices.length === 0) return;
    done.current = true;
    const bounds = boundsOf(devices);
    if (bounds) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 14 });
  }, [devices, map]);
  return null;
}

/** While a device is being placed, a click on the map puts it there. */
function PlaceOnClick({
  active,
  onPlace,
}: {
  active: boolean;
  onPlace: (latitude: number, longitude: number) => void;
}) {
  useMapEvents({
    click: (event) => {
      if (active) onPlace(event.latlng.lat, event.latlng.lng);
    },
  });
  return null;
}
