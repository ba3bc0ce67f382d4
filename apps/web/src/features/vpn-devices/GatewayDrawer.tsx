import { Drawer, Loader, Group as Row, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isNotFound } from '../../shared/http/errors.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchGateway } from './api.ts';
import { GatewayAccess } from './GatewayAccess.tsx';
import { GatewayLogsTab } from './GatewayLogsTab.tsx';
import { GatewayManage } from './GatewayManage.tsx';
import { GatewayOverview } from './GatewayOverview.tsx';
import { GATEWAYS_KEY } from './query-keys.ts';

/** How often an open drawer follows the gateway (its status shows the tunnel coming and going). */
const DETAIL_REFRESH_MS = 5_000;

type Props = { name: string | null; onClose: () => void };

/**
 * One gateway: overview (editable with UPDATE devices), remote access (connect, applications), logs, and management
 * (edge configuration file, clone, reset; UPDATE devices only).
 */
export function GatewayDrawer({ name, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canUpdate = ability.can('UPDATE', 'devices');
  const gateway = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'gateway', name],
    queryFn: async ({ signal }) => fetchGateway(await token(), organization.resourceId, name ?? '', signal),
    enabled: name !== null,
    refetchInterval: DETAIL_REFRESH_MS,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
  });

  return (
    <Drawer
      opened={name !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={name ?? t('vpnDevices.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {gateway.isPending && name !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {gateway.isError && !gateway.data && (
        <LoadFailed
          title={t('vpnDevices.drawer.loadFailed')}
          message={
            isNotFound(gateway.error) ? t('vpnDevices.errors.gatewayGone') : describeError(t, gateway.error)
          }
          onRetry={() => void gateway.refetch()}
        />
      )}
      {gateway.data && (
        <Tabs defaultValue="overview" keepMounted={false} data-testid="gateway-drawer">
          <Tabs.List aria-label={t('vpnDevices.drawer.sections')}>
            <Tabs.Tab value="overview">{t('vpnDevices.drawer.overview')}</Tabs.Tab>
            <Tabs.Tab value="access">{t('vpnDevices.drawer.access')}</Tabs.Tab>
            <Tabs.Tab value="logs">{t('vpnDevices.drawer.logs')}</Tabs.Tab>
            {canUpdate && <Tabs.Tab value="manage">{t('vpnDevices.drawer.manage')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="overview" pt="md">
            <GatewayOverview key={gateway.data.id} gateway={gateway.data} />
          </Tabs.Panel>
          <Tabs.Panel value="access" pt="md">
            <GatewayAccess gateway={gateway.data} />
          </Tabs.Panel>
          <Tabs.Panel value="logs" pt="md">
            <GatewayLogsTab gateway={gateway.data} />
          </Tabs.Panel>
          {canUpdate && (
            <Tabs.Panel value="manage" pt="md">
              <GatewayManage gateway={gateway.data} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </Drawer>
  );
}
