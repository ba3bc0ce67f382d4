import { Center, Loader, Group as Row, SegmentedControl, Stack, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { GatewayDrawer } from './GatewayDrawer.tsx';
import { GatewaysTable } from './GatewaysTable.tsx';
import { VpnTabs } from './VpnTabs.tsx';

const GatewayMap = lazy(() => import('./GatewayMap.tsx'));

type View = 'table' | 'map';

/**
 * Spec 2 /vpn (vpn-devices): the organization's gateways as a table or on a map; a gateway opens in a drawer that
 * the address keeps (`?gateway=<name>`): details, connection and applications, logs, management.
 */
export default function VpnDevicesPage() {
  const { t } = useTranslation();
  const [asked, setView] = useSearchParam('view');
  const view: View = asked === 'map' ? 'map' : 'table';
  const [gateway, open] = useSearchParam('gateway');

  return (
    <Stack gap="md" data-testid="vpn-devices-page">
      <VpnTabs />
      <Row justify="space-between" wrap="wrap">
        <Title order={1} size="h3">
          {t('vpnDevices.title')}
        </Title>
        <SegmentedControl
          aria-label={t('vpnDevices.view.label')}
          value={view}
          onChange={(value) => setView(value === 'map' ? 'map' : null)}
          data={[
            { value: 'table', label: t('vpnDevices.view.table') },
            { value: 'map', label: t('vpnDevices.view.map') },
          ]}
        />
      </Row>
      {view === 'table' ? (
        <GatewaysTable onOpen={open} />
      ) : (
        <Suspense
          fallback={
            <Center h={300}>
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          }
        >
          <GatewayMap onOpen={open} />
        </Suspense>
      )}
      <GatewayDrawer name={gateway} onClose={() => open(null)} />
    </Stack>
  );
}
