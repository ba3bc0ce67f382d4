import { Center, Loader, Group as Row, SegmentedControl, Stack, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { isFeatureEnabled } from '../experimental/flags.ts';
import { DeviceDrawer } from './DeviceDrawer.tsx';
import { DevicesTable } from './DevicesTable.tsx';
import { DevicesTabs } from './DevicesTabs.tsx';

const DeviceMap = lazy(() => import('../device-map/DeviceMap.tsx'));

type View = 'table' | 'map';

/**
 * Spec 2 /devices: the organization's devices as a server-paged table or on the map (the map first when the
 * experimental flag showMapByDefault is on). A device opens in a drawer; the address keeps it (`?device=<id>`).
 */
export default function DevicesPage() {
  const { t } = useTranslation();
  const [defaultView] = useState<View>(() => (isFeatureEnabled('showMapByDefault') ? 'map' : 'table'));
  const [asked, setView] = useSearchParam('view');
  const view: View = asked === 'map' || asked === 'table' ? asked : defaultView;
  const [deviceId, openDevice] = useSearchParam('device');

  return (
    <Stack gap="md" data-testid="devices-page">
      <DevicesTabs />
      <Row justify="space-between" wrap="wrap">
        <Title order={1} size="h3">
          {t('devices.title')}
        </Title>
        <SegmentedControl
          aria-label={t('devices.view.label')}
          value={view}
          onChange={setView}
          data={[
            { value: 'table', label: t('devices.view.table') },
            { value: 'map', label: t('devices.view.map') },
          ]}
        />
      </Row>
      {view === 'table' ? (
        <DevicesTable onOpenDevice={openDevice} />
      ) : (
        <Suspense
          fallback={
            <Center h={300}>
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          }
        >
          <DeviceMap onOpenDevice={openDevice} />
        </Suspense>
      )}
      <DeviceDrawer deviceId={deviceId} onClose={() => openDevice(null)} />
    </Stack>
  );
}
