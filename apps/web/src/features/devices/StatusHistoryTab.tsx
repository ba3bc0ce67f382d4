import { Box, Loader, Group as Row, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type DeviceDetail, fetchStatusHistory } from './api.ts';
import { DeviceStatusBadge } from './DeviceStatusBadge.tsx';
import { absoluteTime, isDeviceStatus, STATUS_CSS, statusSegments, uptimeShare } from './format.ts';
import { DEVICES_KEY } from './query-keys.ts';

const RANGES = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': 30 * 24 * 3600_000 } as const;
type Range = keyof typeof RANGES;
const WIDTH = 1000;
const HEIGHT = 48;
/** Changes listed under the chart (the chart itself uses all of them, up to the service's 1000). */
const LISTED = 20;

/** The device's ONLINE/OFFLINE periods over a chosen window as a step chart, its uptime, and the latest changes. */
export function StatusHistoryTab({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [range, setRange] = useState<Range>('24h');
  // The window is fixed when the range is chosen (a moving "now" would refetch on every render).
  const frame = useMemo(() => {
    const to = Date.now();
    return { from: to - RANGES[range], to };
  }, [range]);

  const history = useQuery({
    queryKey: [DEVICES_KEY, organization.id, 'status', device.id, range, frame.from],
    queryFn: async ({ signal }) => {
      const bearer = await token();
      const since = new Date(frame.from).toISOString();
      const [inside, before] = await Promise.all([
        fetchStatusHistory(bearer, organization.id, device.id, { since, limit: 1000 }, signal),
        fetchStatusHistory(bearer, organization.id, device.id, { to: since, limit: 1 }, signal),
      ]);
      return { inside, before };
    },
  });

  const segments = useMemo(() => {
    if (!history.data) return [];
    const current = isDeviceStatus(device.status) ? device.status : 'OFFLINE';
    return statusSegments(
      [...history.data.before.items, ...history.data.inside.items],
      frame.from,
      frame.to,
      current,
    );
  }, [history.data, frame, device.status]);
  const span = frame.to - frame.from;
  const x = (at: number) => ((at - frame.from) / span) * WIDTH;
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const tick = new Intl.DateTimeFormat(
    i18n.language,
    range === '24h' ? { timeStyle: 'short' } : { dateStyle: 'short' },
  );

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t('devices.history.range')}
        value={range}
        onChange={(value) => setRange(value as Range)}
        data={(Object.keys(RANGES) as Range[]).map((value) => ({
          value,
          label: t(`devices.history.ranges.${value}`),
        }))}
        size="xs"
        w="fit-content"
      />
      {history.isPending && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {history.isError && (
        <LoadFailed
          title={t('devices.history.loadFailed')}
          message={describeError(t, history.error)}
          onRetry={() => void history.refetch()}
        />
      )}
      {history.data && (
        <>
          <Text size="sm" data-testid="uptime">
            {t('devices.history.uptime', { share: percent.format(uptimeShare(segments)) })}
          </Text>
          <Box>
            <svg
              viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
              width="100%"
              height={HEIGHT}
              preserveAspectRatio="none"
              role="img"
              aria-label={t('devices.history.chartLabel', {
                share: percent.format(uptimeShare(segments)),
                changes: history.data.inside.items.length,
              })}
              data-testid="status-chart"
            >
              {segments.map((segment) => {
                const online = segment.status === 'ONLINE';
                return (
                  <rect
                    key={segment.from}
                    x={x(segment.from)}
                    width={Math.max(1, x(segment.to) - x(segment.from))}
                    y={online ? 4 : HEIGHT / 2}
                    height={online ? HEIGHT - 8 : HEIGHT / 2 - 4}
                    fill={STATUS_CSS[segment.status]}
                    data-status={segment.status}
                  >
                    <title>
                      {`${t(`devices.status.${segment.status}`)}: ${absoluteTime(new Date(segment.from).toISOString(), i18n.language)} – ${absoluteTime(new Date(segment.to).toISOString(), i18n.language)}`}
                    </title>
                  </rect>
                );
              })}
            </svg>
            <Row justify="space-between">
              {[frame.from, frame.from + span / 2, frame.to].map((at) => (
                <Text key={at} size="xs" c="dimmed">
                  {tick.format(new Date(at))}
                </Text>
              ))}
            </Row>
          </Box>
          {history.data.inside.truncated && (
            <Text size="xs" c="dimmed">
              {t('devices.history.truncated', { limit: history.data.inside.limit })}
            </Text>
          )}
          {history.data.inside.items.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="history-empty">
              {t('devices.history.empty')}
            </Text>
          ) : (
            <Table aria-label={t('devices.history.tableLabel')} striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('devices.history.at')}</Table.Th>
                  <Table.Th>{t('devices.history.status')}</Table.Th>
                  <Table.Th>{t('devices.history.detail')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.inside.items.slice(0, LISTED).map((change) => (
                  <Table.Tr key={`${change.at}-${change.status}`}>
                    <Table.Td>{absoluteTime(change.at, i18n.language)}</Table.Td>
                    <Table.Td>
                      <DeviceStatusBadge status={change.status} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{change.detail}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Stack>
  );
}
