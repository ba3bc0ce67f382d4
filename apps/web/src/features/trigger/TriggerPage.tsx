import { Alert, Badge, Button, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { SeverityBadge } from '../alarms/SeverityBadge.tsx';
import { fetchRules, RULES_KEY } from '../notifications/api.ts';
import { failureText } from '../notifications/failure.ts';
import { localPage } from '../notifications/local-page.ts';
import {
  deleteTrigger,
  fetchDeviceOptions,
  fetchTriggers,
  runTrigger,
  TRIGGERS_KEY,
  type Trigger,
  updateTrigger,
} from './api.ts';
import { runOutcome } from './run-outcome.ts';
import { TriggerModal } from './TriggerModal.tsx';
import { comparisonText, runState } from './trigger-form.ts';

type Editing = { trigger: Trigger | null } | undefined;
type Names = { devices: Map<string, string>; rules: Map<string, string> };

/** Spec 2 /trigger: the organization's trigger rules, "when <condition> then <action>", with their last runs. */
export default function TriggerPage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [request, setRequest] = usePageRequest({ pageSize: 25 });
  const [editing, setEditing] = useState<Editing>();
  const [running, setRunning] = useState<string | null>(null);
  const canChange = ability.can('UPDATE', 'organizations');

  const triggers = useQuery({
    queryKey: [TRIGGERS_KEY, organization.id],
    queryFn: async ({ signal }) => fetchTriggers(await token(), organization.id, signal),
  });
  const devices = useQuery({
    queryKey: [TRIGGERS_KEY, organization.id, 'device-options'],
    queryFn: async ({ signal }) => fetchDeviceOptions(await token(), organization.id, signal),
    enabled: ability.can('READ', 'devices'),
    staleTime: 60_000,
  });
  const rules = useQuery({
    queryKey: [RULES_KEY, organization.id],
    queryFn: async ({ signal }) => fetchRules(await token(), organization.id, signal),
    enabled: ability.can('READ', 'notifications'),
    staleTime: 30_000,
  });
  const names = useMemo<Names>(
    () => ({
      devices: new Map((devices.data ?? []).map((device) => [device.id, device.label])),
      rules: new Map((rules.data?.items ?? []).map((rule) => [rule.id, rule.name])),
    }),
    [devices.data, rules.data],
  );
  const page = useMemo(
    () => localPage(triggers.data?.items, request, (trigger) => [trigger.name]),
    [triggers.data, request],
  );
  const failing = (triggers.data?.items ?? []).filter((trigger) => runState(trigger) === 'failing');

  const timeFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
    [i18n.language],
  );
  const numberFormat = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);

  const columns = useMemo<ColumnDef<Trigger>[]>(() => {
    const refresh = () => queryClient.invalidateQueries({ queryKey: [TRIGGERS_KEY, organization.id] });
    const failed = (title: string, error: unknown) => {
      const failure = failureText(t, error, {
        400: t('triggers.errors.invalid'),
        403: t('triggers.errors.forbidden'),
        404: t('triggers.errors.gone'),
        409: t('triggers.errors.refused'),
      });
      notifications.show({
        color: 'red',
        title,
        message: failure.detail ? `${failure.message} ${failure.detail}` : failure.message,
      });
    };
    const setEnabled = async (trigger: Trigger, enabled: boolean) => {
      try {
        await updateTrigger(await token(), organization.id, trigger.id, { enabled });
        notifications.show({
          color: 'green',
          message: t(enabled ? 'triggers.enabledDone' : 'triggers.disabledDone', { name: trigger.name }),
        });
      } catch (error) {
        failed(t('triggers.saveFailed'), error);
      } finally {
        await refresh();
      }
    };
    const run = async (trigger: Trigger) => {
      setRunning(trigger.id);
      try {
        const after = await runTrigger(await token(), organization.id, trigger.id);
        const outcome = runOutcome(trigger, after);
        notifications.show({
          color: outcome.ok ? 'green' : 'red',
          title: t(outcome.ok ? 'triggers.run.doneTitle' : 'triggers.run.failedTitle', {
            name: trigger.name,
          }),
          message: outcome.ok ? t('triggers.run.done') : t('triggers.run.failed', { error: outcome.error }),
          autoClose: outcome.ok ? 4000 : false,
        });
      } catch (error) {
        failed(t('triggers.run.failedTitle', { name: trigger.name }), error);
      } finally {
        setRunning(null);
        await refresh();
      }
    };
    const remove = async (trigger: Trigger) => {
      try {
        await deleteTrigger(await token(), organization.id, trigger.id);
        notifications.show({ color: 'green', message: t('triggers.delete.done', { name: trigger.name }) });
      } catch (error) {
        failed(t('triggers.delete.failed'), error);
      } finally {
        await refresh();
      }
    };
    return [
      {
        id: 'name',
        header: t('triggers.columns.name'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
            {row.original.name}
          </Text>
        ),
      },
      {
        id: 'enabled',
        header: t('triggers.columns.enabled'),
        enableSorting: false,
        cell: ({ row }) =>
          canChange ? (
            <Switch
              checked={row.original.enabled}
              onChange={(event) => void setEnabled(row.original, event.currentTarget.checked)}
              aria-label={t('triggers.enabledLabel', { name: row.original.name })}
            />
          ) : (
            <Badge variant="light" color={row.original.enabled ? 'green' : 'gray'} tt="none">
              {t(row.original.enabled ? 'triggers.on' : 'triggers.off')}
            </Badge>
          ),
      },
      {
        id: 'rule',
        header: t('triggers.columns.rule'),
        enableSorting: false,
        cell: ({ row }) => (
          <Stack gap={2}>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                {t('triggers.when')}{' '}
              </Text>
              {conditionSummary(t, row.original, names)}
            </Text>
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                {t('triggers.then')}{' '}
              </Text>
              {actionSummary(t, row.original, names)}
            </Text>
            {row.original.action.kind === 'alarm' && (
              <SeverityBadge severity={row.original.action.severity} />
            )}
          </Stack>
        ),
      },
      {
        id: 'runs',
        header: t('triggers.columns.runs'),
        enableSorting: false,
        cell: ({ row }) => {
          const trigger = row.original;
          return (
            <Stack gap={2} data-testid="trigger-runs">
              <Text size="sm">
                {t('triggers.runCount', {
                  count: trigger.runCount,
                  formatted: numberFormat.format(trigger.runCount),
                })}
              </Text>
              <Text size="xs" c="dimmed">
                {trigger.lastRunAt ? (
                  <>
                    {t('triggers.lastRun')}{' '}
                    <time dateTime={trigger.lastRunAt}>{timeFormat.format(new Date(trigger.lastRunAt))}</time>
                  </>
                ) : (
                  t('triggers.neverRan')
                )}
              </Text>
            </Stack>
          );
        },
      },
      {
        id: 'lastError',
        header: t('triggers.columns.lastError'),
        enableSorting: false,
        cell: ({ row }) => {
          const trigger = row.original;
          if (!trigger.lastError)
            return (
              <Text size="sm" c="dimmed">
                {t('triggers.noError')}
              </Text>
            );
          return (
            <Alert color="red" variant="light" p={6} data-testid="trigger-last-error">
              <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
                {trigger.lastError}
              </Text>
              {trigger.lastErrorAt && (
                <Text size="xs" c="dimmed">
                  <time dateTime={trigger.lastErrorAt}>
                    {timeFormat.format(new Date(trigger.lastErrorAt))}
                  </time>
                </Text>
              )}
            </Alert>
          );
        },
      },
      actionsColumn(t('triggers.columns.actions'), (trigger) => (
        <>
          {canChange && (
            <Tooltip label={t('triggers.run.hint')}>
              <Button
                size="compact-sm"
                variant="light"
                loading={running === trigger.id}
                onClick={() => void run(trigger)}
                aria-label={t('triggers.run.label', { name: trigger.name })}
              >
                {t('triggers.run.short')}
              </Button>
            </Tooltip>
          )}
          <RowAction
            label={t(canChange ? 'triggers.editLabel' : 'triggers.viewLabel', { name: trigger.name })}
            onClick={() => setEditing({ trigger })}
          >
            {t(canChange ? 'triggers.edit' : 'triggers.view')}
          </RowAction>
          {canChange && (
            <RowAction
              danger
              label={t('triggers.delete.label', { name: trigger.name })}
              onClick={() =>
                confirmDanger({
                  title: t('triggers.delete.title'),
                  message: t('triggers.delete.confirm', { name: trigger.name }),
                  confirmLabel: t('triggers.delete.action'),
                  onConfirm: () => remove(trigger),
                })
              }
            >
              {t('triggers.delete.short')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, token, organization.id, queryClient, canChange, names, running, timeFormat, numberFormat]);

  return (
    <Stack gap="md" p="md" data-testid="trigger-page">
      <Title order={1} size="h2">
        {t('triggers.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('triggers.intro')}
      </Text>
      {failing.length > 0 && (
        <Alert
          color="red"
          title={t('triggers.failingTitle', { count: failing.length })}
          data-testid="failing-triggers"
        >
          {failing.map((trigger) => trigger.name).join(', ')}
        </Alert>
      )}
      <DataTable<Trigger>
        label={t('triggers.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={{
          data: page,
          isFetching: triggers.isFetching,
          error: triggers.error,
          refetch: triggers.refetch,
        }}
        rowId={(trigger) => trigger.id}
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>{request.search ? t('triggers.empty.noMatch') : t('triggers.empty.title')}</Text>
            {!request.search && (
              <Text size="sm" c="dimmed">
                {canChange ? t('triggers.empty.createHint') : t('triggers.empty.askHint')}
              </Text>
            )}
          </Stack>
        }
        toolbar={
          canChange && (
            <Button onClick={() => setEditing({ trigger: null })} data-testid="create-trigger">
              {t('triggers.create')}
            </Button>
          )
        }
      />
      <TriggerModal
        opened={editing !== undefined}
        trigger={editing?.trigger ?? null}
        readOnly={!canChange}
        onClose={() => setEditing(undefined)}
      />
    </Stack>
  );
}

function conditionSummary(t: TFunction, trigger: Trigger, names: Names): string {
  const { condition } = trigger;
  if (condition.kind === 'data') {
    const device = condition.deviceId
      ? (names.devices.get(condition.deviceId) ??
        t('triggers.unknownOption', { id: condition.deviceId.slice(0, 8) }))
      : t('triggers.anyDevice');
    return t('triggers.summary.data', {
      device,
      comparison: comparisonText(condition.path, condition.operator, condition.value),
    });
  }
  const severities =
    condition.severities.length === 0
      ? t('triggers.summary.everySeverity')
      : condition.severities.map((severity) => t(`notificationRules.severities.${severity}`)).join(', ');
  const rules =
    condition.ruleIds.length === 0
      ? t('triggers.summary.everyRule')
      : t('triggers.summary.rules', { count: condition.ruleIds.length });
  return t('triggers.summary.alarm', { event: t(`triggers.events.${condition.event}`), severities, rules });
}

function actionSummary(t: TFunction, trigger: Trigger, names: Names): string {
  const { action } = trigger;
  switch (action.kind) {
    case 'notify':
      return t('triggers.summary.notify', {
        name:
          names.rules.get(action.notificationId) ??
          t('triggers.unknownOption', { id: action.notificationId.slice(0, 8) }),
      });
    case 'webhook':
      return t('triggers.summary.webhook', { url: action.url });
    case 'write':
      return t('triggers.summary.write', {
        comparison: `${action.path} = ${typeof action.value === 'string' ? JSON.stringify(action.value) : String(action.value)}`,
        device:
          names.devices.get(action.deviceId) ??
          t('triggers.unknownOption', { id: action.deviceId.slice(0, 8) }),
      });
    case 'alarm':
      return t('triggers.summary.raise', { message: action.message });
  }
}
