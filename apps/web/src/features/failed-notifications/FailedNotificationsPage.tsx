import { Alert, Badge, Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { failureText } from '../notifications/failure.ts';
import { DELIVERIES_KEY, type Delivery, fetchDeliveries, resendDelivery } from './api.ts';
import { LogTabs } from './LogTabs.tsx';
import { LOOKUP_PAGE_SIZE, locate, mergeRows, stateOf, type Tracked } from './resend-tracker.ts';

type Row = ReturnType<typeof mergeRows>[number];

/** How often a resent delivery is looked up while it is queued. */
const POLL_MS = 1000;

/** Spec 2 /log/failed-notifications: deliveries whose retries are used up, with the reason and "Resend". */
export default function FailedNotificationsPage() {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  return (
    <Stack gap="md" p="md" data-testid="failed-notifications">
      <LogTabs />
      <Title order={1} size="h2">
        {t('failedNotifications.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('failedNotifications.intro')}
      </Text>
      {ability.can('READ', 'notifications') ? (
        <FailedLog />
      ) : (
        <Alert color="yellow" data-testid="no-notification-access">
          {t('failedNotifications.noAccess')}
        </Alert>
      )}
    </Stack>
  );
}

function FailedLog() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [request, setRequest] = usePageRequest({ pageSize: 50 });
  const [tracked, setTracked] = useState<Tracked[]>([]);
  const [resending, setResending] = useState<string | null>(null);
  const canResend = ability.can('UPDATE', 'notifications');

  const failed = useQuery({
    queryKey: [DELIVERIES_KEY, organization.id, 'FAILED', request.page, request.pageSize],
    queryFn: async ({ signal }) =>
      fetchDeliveries(await token(), organization.id, 'FAILED', request.page, request.pageSize, signal),
    placeholderData: keepPreviousData,
  });

  // Resent deliveries are looked up until they are sent or failed again.
  const pendingIds = tracked.filter((entry) => entry.state === 'pending').map((entry) => entry.id);
  const trackedRef = useRef(tracked);
  trackedRef.current = tracked;
  const tracking = useQuery({
    queryKey: [DELIVERIES_KEY, organization.id, 'tracking', pendingIds.join(',')],
    queryFn: async () => {
      const bearerToken = await token();
      return locate(trackedRef.current, async (status) => {
        const page = await fetchDeliveries(bearerToken, organization.id, status, 0, LOOKUP_PAGE_SIZE);
        return page.items;
      });
    },
    enabled: pendingIds.length > 0,
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  useEffect(() => {
    const located = tracking.data;
    if (!located) return;
    const byId = new Map(located.map((entry) => [entry.id, entry]));
    setTracked((current) =>
      current.map((entry) => (entry.state === 'pending' ? (byId.get(entry.id) ?? entry) : entry)),
    );
    if (located.some((entry) => entry.state !== 'pending'))
      void queryClient.invalidateQueries({ queryKey: [DELIVERIES_KEY, organization.id, 'FAILED'] });
  }, [tracking.data, queryClient, organization.id]);

  const rows = useMemo(() => mergeRows(failed.data?.items ?? [], tracked), [failed.data, tracked]);
  const timeFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
    [i18n.language],
  );

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const resend = async (delivery: Delivery) => {
      setResending(delivery.id);
      try {
        const queued = await resendDelivery(await token(), organization.id, delivery.id);
        setTracked((current) => [
          ...current.filter((entry) => entry.id !== queued.id),
          { id: queued.id, delivery: queued, state: stateOf(queued.status) },
        ]);
        notifications.show({
          color: 'blue',
          message: t('failedNotifications.resend.queued', { target: delivery.target }),
        });
      } catch (error) {
        const failure = failureText(t, error, {
          403: t('failedNotifications.errors.forbidden'),
          404: t('failedNotifications.errors.gone'),
          409: t('failedNotifications.errors.notFailed'),
        });
        notifications.show({
          color: 'red',
          title: t('failedNotifications.resend.failed'),
          message: failure.message,
        });
        await queryClient.invalidateQueries({ queryKey: [DELIVERIES_KEY, organization.id] });
      } finally {
        setResending(null);
      }
    };
    return [
      {
        id: 'createdAt',
        header: t('failedNotifications.columns.when'),
        enableSorting: false,
        cell: ({ row }) => (
          <time dateTime={row.original.delivery.createdAt}>
            {timeFormat.format(new Date(row.original.delivery.createdAt))}
          </time>
        ),
      },
      {
        id: 'notification',
        header: t('failedNotifications.columns.notification'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
              {row.original.delivery.notificationName}
            </Text>
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
              {row.original.delivery.subject}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'channel',
        header: t('failedNotifications.columns.channel'),
        enableSorting: false,
        cell: ({ row }) => (
          <Badge variant="outline" tt="none">
            {t(`failedNotifications.channels.${row.original.delivery.channel}`)}
          </Badge>
        ),
      },
      {
        id: 'target',
        header: t('failedNotifications.columns.target'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {row.original.delivery.target}
          </Text>
        ),
      },
      {
        id: 'attempts',
        header: t('failedNotifications.columns.attempts'),
        enableSorting: false,
        cell: ({ row }) => row.original.delivery.attempts,
      },
      {
        id: 'reason',
        header: t('failedNotifications.columns.reason'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text
            size="sm"
            c={row.original.delivery.lastError ? 'red' : 'dimmed'}
            style={{ wordBreak: 'break-word' }}
          >
            {row.original.delivery.lastError ?? t('failedNotifications.noReason')}
          </Text>
        ),
      },
      {
        id: 'status',
        header: () => <VisuallyHidden>{t('failedNotifications.columns.status')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) => {
          const { delivery, tracked: entry } = row.original;
          const state = entry?.state;
          return (
            <Group gap="xs" wrap="nowrap" justify="flex-end" data-testid="delivery-status">
              {state && state !== 'failed' && (
                <Badge color={STATE_COLORS[state]} variant="light" tt="none">
                  {state === 'sent' && delivery.sentAt
                    ? t('failedNotifications.state.sentAt', {
                        time: timeFormat.format(new Date(delivery.sentAt)),
                      })
                    : t(`failedNotifications.state.${state}`, { attempts: delivery.attempts })}
                </Badge>
              )}
              {state === 'failed' && (
                <Badge color="red" variant="light" tt="none">
                  {t('failedNotifications.state.failedAgain')}
                </Badge>
              )}
              {canResend && delivery.status === 'FAILED' && state !== 'pending' && (
                <Button
                  size="compact-sm"
                  variant="light"
                  loading={resending === delivery.id}
                  onClick={() => void resend(delivery)}
                  aria-label={t('failedNotifications.resend.label', { target: delivery.target })}
                >
                  {t('failedNotifications.resend.button')}
                </Button>
              )}
            </Group>
          );
        },
      },
    ];
  }, [t, token, organization.id, queryClient, canResend, resending, timeFormat]);

  return (
    <DataTable<Row>
      label={t('failedNotifications.tableLabel')}
      columns={columns}
      request={request}
      onRequestChange={setRequest}
      searchable={false}
      query={{
        data: failed.data ? { items: rows, total: failed.data.total } : undefined,
        isFetching: failed.isFetching,
        error: failed.error,
        refetch: failed.refetch,
      }}
      rowId={(row) => row.delivery.id}
      empty={
        <Stack gap={4} align="center">
          <Text fw={500}>{t('failedNotifications.empty.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('failedNotifications.empty.hint')}
          </Text>
        </Stack>
      }
      toolbar={
        <Button variant="default" onClick={() => void failed.refetch()} loading={failed.isFetching}>
          {t('failedNotifications.refresh')}
        </Button>
      }
    />
  );
}

const STATE_COLORS: Record<Exclude<Tracked['state'], 'failed'>, string> = {
  pending: 'blue',
  sent: 'green',
  unknown: 'gray',
};
