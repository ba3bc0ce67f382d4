import { vpn } from '@edgeport/contract/values';
import { Badge, Button, Group as Row, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { absoluteTime } from '../devices/format.ts';
import { fetchGatewayLogs, type GatewayDetail, type GatewayLog } from './api.ts';
import { fromLocalInput, toLocalInput } from './messages.ts';
import { GATEWAYS_KEY } from './query-keys.ts';

const DAY_MS = 24 * 3600_000;
const LEVEL_COLOR: Record<GatewayLog['level'], string> = { INFO: 'blue', WARN: 'orange', ERROR: 'red' };

/**
 * The gateway's log over a time range (spec 7: showSystem off by default, from/to, limit 1000): tunnel up and down,
 * resets, sessions, configuration changes. System entries (agent details) show on demand.
 */
export function GatewayLogsTab({ gateway }: { gateway: GatewayDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [from, setFrom] = useState<number | undefined>(() => Date.now() - DAY_MS);
  const [to, setTo] = useState<number | undefined>(undefined);
  const [showSystem, setShowSystem] = useState(false);
  const reversed = from !== undefined && to !== undefined && from >= to;

  const logs = useQuery({
    queryKey: [GATEWAYS_KEY, organization.id, 'logs', gateway.name, from, to, showSystem],
    queryFn: async ({ signal }) =>
      fetchGatewayLogs(
        await token(),
        organization.resourceId,
        gateway.name,
        { fromTimestamp: from, toTimestamp: to, showSystem },
        vpn.GATEWAY_LOG_LIMIT,
        signal,
      ),
    enabled: !reversed,
    placeholderData: keepPreviousData,
  });
  const items = logs.data?.items ?? [];

  return (
    <Stack gap="sm" data-testid="gateway-logs">
      <Row gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="datetime-local"
          label={t('vpnDevices.logs.from')}
          value={toLocalInput(from)}
          onChange={(event) => setFrom(fromLocalInput(event.currentTarget.value))}
          w={210}
        />
        <TextInput
          type="datetime-local"
          label={t('vpnDevices.logs.to')}
          description={to === undefined ? t('vpnDevices.logs.toNow') : undefined}
          value={toLocalInput(to)}
          onChange={(event) => setTo(fromLocalInput(event.currentTarget.value))}
          error={reversed ? t('vpnDevices.logs.reversed') : undefined}
          w={210}
        />
        <Switch
          label={t('vpnDevices.logs.showSystem')}
          checked={showSystem}
          onChange={(event) => setShowSystem(event.currentTarget.checked)}
        />
        <Button variant="default" onClick={() => void logs.refetch()} loading={logs.isFetching}>
          {t('vpnDevices.logs.refresh')}
        </Button>
      </Row>
      {logs.isError && (
        <LoadFailed
          title={t('vpnDevices.logs.loadFailed')}
          message={describeError(t, logs.error)}
          onRetry={() => void logs.refetch()}
        />
      )}
      {logs.isPending && !reversed && (
        <Text size="sm" c="dimmed" aria-busy="true">
          {t('common.loading')}
        </Text>
      )}
      {logs.data && items.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="logs-empty">
          {t('vpnDevices.logs.empty')}
        </Text>
      )}
      {items.length >= vpn.GATEWAY_LOG_LIMIT && (
        <Text size="sm" c="dimmed">
          {t('vpnDevices.logs.limited', { count: vpn.GATEWAY_LOG_LIMIT })}
        </Text>
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={500} maxHeight="60vh">
          <Table
            stickyHeader
            striped
            aria-label={t('vpnDevices.logs.tableLabel')}
            aria-busy={logs.isFetching}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={190}>{t('vpnDevices.logs.at')}</Table.Th>
                <Table.Th w={90}>{t('vpnDevices.logs.level')}</Table.Th>
                <Table.Th>{t('vpnDevices.logs.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((entry) => (
                <Table.Tr key={entry.id} data-system={entry.system}>
                  <Table.Td>
                    <Text size="xs">{absoluteTime(entry.at, i18n.language)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="xs" color={LEVEL_COLOR[entry.level]} variant="light">
                      {entry.level}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {entry.message}
                      {entry.system && (
                        <Badge size="xs" variant="outline" ml="xs" tt="none">
                          {t('vpnDevices.logs.system')}
                        </Badge>
                      )}
                    </Text>
                    {Object.keys(entry.detail).length > 0 && (
                      <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {JSON.stringify(entry.detail)}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
