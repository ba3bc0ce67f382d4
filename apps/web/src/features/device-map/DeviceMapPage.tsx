import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { fetchDevice } from '../devices/api.ts';
import { DeviceDrawer } from '../devices/DeviceDrawer.tsx';
import { DEVICES_KEY } from '../devices/query-keys.ts';
import DeviceMap from './DeviceMap.tsx';

/**
 * Spec 2 /devicemap: the device map on its own page. `?device=<id>` opens a device's drawer; `?focus=<id>` centres
 * the map on a device (the drawer's "show on the map" link).
 */
export default function DeviceMapPage() {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [deviceId, openDevice] = useSearchParam('device');
  const [focusId] = useSearchParam('focus');
  const focused = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'device', focusId],
    queryFn: async ({ signal }) => fetchDevice(await token(), organization.id, focusId ?? '', signal),
    enabled: focusId !== null,
    retry: false,
  });
  const focus =
    focused.data && focused.data.latitude !== null && focused.data.longitude !== null
      ? { latitude: focused.data.latitude, longitude: focused.data.longitude }
      : null;
  // With a focus asked, the map waits for it (its start view is fixed at creation).
  const ready = focusId === null || !focused.isPending;

  return (
    <Stack gap="md" data-testid="device-map-page">
      <Title order={1} size="h3">
        {t('deviceMap.title')}
      </Title>
      {ready && <DeviceMap key={focusId ?? 'all'} onOpenDevice={openDevice} focus={focus} />}
      <DeviceDrawer deviceId={deviceId} onClose={() => openDevice(null)} />
    </Stack>
  );
}
