import {
  Button,
  Drawer,
  Loader,
  Group as Row,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isNotFound } from '../../shared/http/errors.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { ACTION_PERMISSION, ALARM_ACTIONS, type AlarmAction, appliesTo } from './actions.ts';
import { type AlarmDetail, type AlarmEvent, actOnAlarms, fetchAlarm } from './api.ts';
import { formatTime, formatValue } from './format.ts';
import { ALARMS_KEY } from './query-keys.ts';
import { SeverityBadge } from './SeverityBadge.tsx';
import { AlarmStatusBadge, RequirementText } from './StateBadges.tsx';
import { SEVERITY_COLOR } from './severity.ts';

type Props = { alarmId: string | null; onClose: () => void };

/** One alarm: every field, the operator's steps that still apply, and its full history. */
export function AlarmDrawer({ alarmId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const alarm = useQuery({
    queryKey: [ALARMS_KEY, organization.id, 'alarm', alarmId],
    queryFn: async ({ signal }) => fetchAlarm(await token(), organization.id, alarmId ?? '', signal),
    enabled: alarmId !== null,
    retry: (count, error) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
  });

  return (
    <Drawer
      opened={alarmId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={alarm.data?.name ?? t('alarms.drawer.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {alarm.isPending && alarmId !== null && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {alarm.isError && (
        <LoadFailed
          title={t('alarms.drawer.loadFailed')}
          message={isNotFound(alarm.error) ? t('alarms.drawer.gone') : describeError(t, alarm.error)}
          onRetry={() => void alarm.refetch()}
        />
      )}
      {alarm.data && <AlarmDetails alarm={alarm.data} />}
    </Drawer>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

function AlarmDetails({ alarm }: { alarm: AlarmDetail }) {
  const { t, i18n } = useTranslation();
  const time = (iso: string | null) => (iso ? formatTime(iso, i18n.language) : '—');
  const by = (user: string | null) => user ?? t('alarms.history.system');
  return (
    <Stack gap="md" data-testid="alarm-drawer" data-alarm-id={alarm.id}>
      <Row gap="xs">
        <SeverityBadge severity={alarm.severity} />
        <AlarmStatusBadge status={alarm.status} />
        <Text size="sm" c={alarm.open ? 'orange' : 'dimmed'} fw={500} data-testid="alarm-open-state">
          {alarm.open ? t('alarms.drawer.open') : t('alarms.drawer.closed')}
        </Text>
      </Row>
      <Text size="sm" data-testid="alarm-message">
        {alarm.message}
      </Text>
      <AlarmSteps alarm={alarm} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label={t('alarms.columns.device')}>
          <Text size="sm">{alarm.deviceLabel ?? t('alarms.noDevice')}</Text>
        </Field>
        <Field label={t('alarms.drawer.path')}>
          <Text size="sm" ff="monospace">
            {alarm.path ?? '—'}
          </Text>
        </Field>
        <Field label={t('alarms.columns.value')}>
          <Text size="sm">{alarm.value === null ? '—' : formatValue(alarm.value, i18n.language)}</Text>
        </Field>
        <Field label={t('alarms.drawer.source')}>
          <Text size="sm">
            {alarm.triggerId ? t('alarms.drawer.fromTrigger') : t('alarms.drawer.fromRule')}
          </Text>
        </Field>
        <Field label={t('alarms.columns.raisedAt')}>
          <Text size="sm">{time(alarm.raisedAt)}</Text>
        </Field>
        <Field label={t('alarms.drawer.conditionClearedAt')}>
          <Text size="sm">{time(alarm.conditionClearedAt)}</Text>
        </Field>
        <Field label={t('alarms.columns.ack')}>
          <Stack gap={2}>
            <RequirementText kind="ack" value={alarm.ack} />
            {alarm.ackAt && (
              <Text size="xs" c="dimmed">
                {t('alarms.drawer.byAt', { user: by(alarm.ackBy), time: time(alarm.ackAt) })}
              </Text>
            )}
          </Stack>
        </Field>
        <Field label={t('alarms.columns.reset')}>
          <Stack gap={2}>
            <RequirementText kind="reset" value={alarm.reset} />
            {alarm.resetAt && (
              <Text size="xs" c="dimmed">
                {t('alarms.drawer.byAt', { user: by(alarm.resetBy), time: time(alarm.resetAt) })}
              </Text>
            )}
          </Stack>
        </Field>
        <Field label={t('alarms.columns.closedAt')}>
          <Text size="sm">
            {alarm.clearedAt
              ? t('alarms.drawer.byAt', { user: by(alarm.clearedBy), time: time(alarm.clearedAt) })
              : t('alarms.stillOpen')}
          </Text>
        </Field>
        <Field label={t('alarms.drawer.updatedAt')}>
          <Text size="sm">{time(alarm.updatedAt)}</Text>
        </Field>
      </SimpleGrid>
      <Title order={3} size="h5">
        {t('alarms.history.title')}
      </Title>
      <AlarmHistory events={alarm.history} />
    </Stack>
  );
}

const EVENT_COLOR: Record<AlarmEvent['kind'], string> = {
  RAISED: SEVERITY_COLOR.CRITICAL,
  ACKNOWLEDGED: 'blue',
  RESET: 'violet',
  CONDITION_CLEARED: 'teal',
  CLEARED: 'gray',
  CLOSED: 'gray',
};

/** The alarm's history, oldest first: what happened, when, who did it (or the system) and the value then. */
function AlarmHistory({ events }: { events: readonly AlarmEvent[] }) {
  const { t, i18n } = useTranslation();
  if (events.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('alarms.history.empty')}
      </Text>
    );
  const sorted = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.id - b.id);
  return (
    <Timeline active={sorted.length - 1} bulletSize={14} lineWidth={2} data-testid="alarm-history">
      {sorted.map((event) => (
        <Timeline.Item
          key={event.id}
          color={EVENT_COLOR[event.kind]}
          title={t(`alarms.history.kind.${event.kind}`)}
          data-kind={event.kind}
        >
          <Text size="xs" c="dimmed">
            {formatTime(event.at, i18n.language)} · {event.by ?? t('alarms.history.system')}
          </Text>
          {event.value !== null && (
            <Text size="xs">
              {t('alarms.history.value', { value: formatValue(event.value, i18n.language) })}
            </Text>
          )}
          {event.detail && (
            <Text size="xs" c="dimmed">
              {event.detail}
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** The steps an operator may take on this alarm now (each with its permission and only while it applies). */
function AlarmSteps({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: async (action: AlarmAction) =>
      actOnAlarms(await token(), organization.id, action, [alarm.id]),
    onSuccess: (result, action) =>
      notifications.show({
        color: result.affected > 0 ? 'green' : 'yellow',
        message:
          result.affected > 0 ? t(`alarms.actions.doneOne.${action}`) : t('alarms.actions.nothingChanged'),
      }),
    onError: (error, action) =>
      notifications.show({
        color: 'red',
        title: t(`alarms.actions.failed.${action}`),
        message: describeError(t, error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ALARMS_KEY, organization.id] }),
  });
  const steps = ALARM_ACTIONS.filter(
    (action) => ability.can(ACTION_PERMISSION[action], 'alarms') && appliesTo(action, alarm),
  );
  if (steps.length === 0) return null;
  const start = (action: AlarmAction) => {
    if (action !== 'clear') return run.mutate(action);
    confirmDanger({
      title: t('alarms.actions.confirm.clear.titleOne'),
      message: t('alarms.actions.confirm.clear.one', { name: alarm.name }),
      confirmLabel: t('alarms.actions.clear'),
      onConfirm: () => run.mutateAsync(action).catch(() => undefined),
    });
  };
  return (
    <Row gap="xs" data-testid="alarm-steps">
      {steps.map((action) => (
        <Button
          key={action}
          size="xs"
          variant={action === 'clear' ? 'light' : 'filled'}
          color={action === 'clear' ? 'red' : undefined}
          loading={run.isPending && run.variables === action}
          onClick={() => start(action)}
        >
          {t(`alarms.actions.${action}`)}
        </Button>
      ))}
    </Row>
  );
}
