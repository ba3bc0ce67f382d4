import { Code, Drawer, Loader, Group as Row, ScrollArea, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isNotFound } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type DeviceDetail, fetchDevice } from './api.ts';
import { DeviceOverview } from './DeviceOverview.tsx';
import { LiveValuesTab } from './LiveValuesTab.tsx';
import { DEVICES_KEY } from './query-keys.ts';
import { StatusHistoryTab } from './StatusHistoryTab.tsx';

type Props = { deviceId: string | null; onClose: () => void };

/** One device: overview (editable with UPDATE devices), live values, connection history and configuration. */
export function DeviceDrawer({ deviceId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const device = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'device', deviceId],
    queryFn: async ({ signal }) => fetchDevice(await token(), organization.id, deviceId ?? '', signal),
    enabled: deviceId !== null,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
  });

  return (
    <Drawer
      opened={deviceId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={device.data?.label ?? t('devices.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {device.isPending && deviceId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {device.isError && (
        <LoadFailed
          title={t('devices.drawer.loadFailed')}
          message={isNotFound(device.error) ? t('devices.errors.gone') : describeError(t, device.error)}
          onRetry={() => void device.refetch()}
        />
      )}
      {device.data && <DeviceTabs device={device.data} />}
    </Drawer>
  );
}

function DeviceTabs({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="overview" keepMounted={false} data-testid="device-drawer">
      <Tabs.List aria-label={t('devices.drawer.sections')}>
        <Tabs.Tab value="overview">{t('devices.drawer.overview')}</Tabs.Tab>
        <Tabs.Tab value="live">{t('devices.drawer.live')}</Tabs.Tab>
        <Tabs.Tab value="status">{t('devices.drawer.status')}</Tabs.Tab>
        <Tabs.Tab value="configuration">{t('devices.drawer.configuration')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="overview" pt="md">
        <DeviceOverview key={device.id} device={device} />
      </Tabs.Panel>
      <Tabs.Panel value="live" pt="md">
        <LiveValuesTab device={device} />
      </Tabs.Panel>
      <Tabs.Panel value="status" pt="md">
        <StatusHistoryTab device={device} />
      </Tabs.Panel>
      <Tabs.Panel value="configuration" pt="md">
        {Object.keys(device.configuration).length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('devices.configuration.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah="60vh">
            <Code block data-testid="device-configuration" aria-label={t('devices.drawer.configuration')}>
              {JSON.stringify(device.configuration, null, 2)}
            </Code>
          </ScrollArea.Autosize>
        )}
      </Tabs.Panel>
    </Tabs>
  );
}
