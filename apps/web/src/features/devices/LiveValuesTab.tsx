import { Badge, Loader, Group as Row, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { useLiveDevices } from '../../shared/live/use-live-devices.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type DeviceDetail, fetchLatestValues, type LatestValue } from './api.ts';
import { DeviceStatusBadge } from './DeviceStatusBadge.tsx';
import { absoluteTime } from './format.ts';
import { DEVICES_KEY } from './query-keys.ts';
import { SetpointButton } from './SetpointButton.tsx';

type ValueRow = {
  path: string;
  value: number | boolean | string;
  ts: number;
  unit: string | null;
  live: boolean;
};

/** The latest value of every model path (from storage), replaced by live values as they arrive over `/svc/live`. */
export function LiveValuesTab({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const latest = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'values', device.id],
    queryFn: async ({ signal }) => fetchLatestValues(await token(), organization.id, device.id, signal),
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 403) && count < 2,
  });
  const live = useLiveDevices([device.id]);
  const liveValues = live.values[device.id] ?? {};
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 6 });

  const rows = new Map<string, ValueRow>();
  for (const value of latest.data?.values ?? []) {
    rows.set(value.path, {
      path: value.path,
      value: value.value,
      ts: new Date(value.ts).getTime(),
      unit: value.unit,
      live: false,
    });
  }
  for (const [path, value] of Object.entries(liveValues)) {
    const known = rows.get(path);
    if (!known || known.ts <= value.ts)
      rows.set(path, { path, value: value.value, ts: value.ts, unit: known?.unit ?? null, live: true });
  }
  const sorted = [...rows.values()].sort((a, b) => a.path.localeCompare(b.path));
  // The server says which paths the caller may write (model says writable, UPDATE devices, data role allows it).
  const writable = new Map(
    (latest.data?.values ?? []).filter((value) => value.writable).map((value) => [value.path, value]),
  );
  const anyWritable = writable.size > 0;
  const setpointFor = (row: ValueRow) => {
    const target: LatestValue | undefined = writable.get(row.path);
    return target && <SetpointButton deviceId={device.id} value={{ ...target, value: row.value }} />;
  };
  const status = live.status[device.id] ?? latest.data?.status ?? device.status;

  const show = (value: ValueRow['value']) =>
    typeof value === 'number'
      ? number.format(value)
      : typeof value === 'boolean'
        ? t(value ? 'devices.live.true' : 'devices.live.false')
        : value;

  return (
    <Stack gap="sm">
      <Row justify="space-between">
        <DeviceStatusBadge status={status} />
        <Badge variant="dot" color={live.connected ? 'teal' : 'gray'} tt="none" data-testid="live-connection">
          {t(live.connected ? 'devices.live.connected' : 'devices.live.disconnected')}
        </Badge>
      </Row>
      {latest.isPending && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {latest.isError && (
        <LoadFailed
          title={t('devices.live.loadFailed')}
          message={
            hasStatus(latest.error, 403) ? t('devices.errors.forbidden') : describeError(t, latest.error)
          }
          onRetry={() => void latest.refetch()}
        />
      )}
      {!latest.isPending && sorted.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="live-empty">
          {device.presetId === null ? t('devices.live.noPreset') : t('devices.live.empty')}
        </Text>
      )}
      {sorted.length > 0 && (
        <Table striped aria-label={t('devices.live.tableLabel')} data-testid="live-values">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('devices.live.path')}</Table.Th>
              <Table.Th ta="right">{t('devices.live.value')}</Table.Th>
              <Table.Th>{t('devices.live.time')}</Table.Th>
              {anyWritable && <Table.Th>{t('devices.setpoint.column')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((row) => (
              <Table.Tr key={row.path} data-path={row.path}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {row.path}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  {show(row.value)}
                  {row.unit ? ` ${row.unit}` : ''}
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {absoluteTime(new Date(row.ts).toISOString(), i18n.language)}
                  </Text>
                </Table.Td>
                {anyWritable && <Table.Td>{setpointFor(row)}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
