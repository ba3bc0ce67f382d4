import { Badge, Group as Row, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { absoluteTime, relativeTime } from '../devices/format.ts';
import type { Gateway } from './api.ts';

/** Spec/architecture: the status colours of devices (ONLINE teal/green, OFFLINE grey). */
const COLOR = { ONLINE: 'teal', OFFLINE: 'gray' } as const;

export function GatewayStatusBadge({ status }: { status: Gateway['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLOR[status]} variant="light" tt="none" data-status={status}>
      {t(`vpnDevices.status.${status}`)}
    </Badge>
  );
}

/**
 * The status and since when: online since the tunnel came up, offline since the agent was last seen. `now` is the
 * server's time (spec 7: the gateways call's Date header), so the user's clock does not matter.
 */
export function GatewayStatusSince({
  gateway,
  now,
}: {
  gateway: Pick<Gateway, 'status' | 'connectedAt' | 'lastSeenAt'>;
  now: number;
}) {
  const { t, i18n } = useTranslation();
  const since = gateway.status === 'ONLINE' ? gateway.connectedAt : gateway.lastSeenAt;
  return (
    <Row gap={6} wrap="nowrap">
      <GatewayStatusBadge status={gateway.status} />
      {since ? (
        <Tooltip label={absoluteTime(since, i18n.language)}>
          <Text size="xs" c="dimmed" component="span" tabIndex={0} data-testid="gateway-since">
            {t('vpnDevices.since', { when: relativeTime(since, now, i18n.language) })}
          </Text>
        </Tooltip>
      ) : (
        gateway.status === 'OFFLINE' && (
          <Text size="xs" c="dimmed" component="span">
            {t('vpnDevices.neverConnected')}
          </Text>
        )
      )}
    </Row>
  );
}
