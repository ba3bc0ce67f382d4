import { Badge, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { SeverityBadge } from '../alarms/SeverityBadge.tsx';
import { deleteRule, fetchRules, type NotificationRule, RULES_KEY, updateRule } from './api.ts';
import { failureText } from './failure.ts';
import { localPage } from './local-page.ts';
import { NotificationRuleModal } from './NotificationRuleModal.tsx';
import { recipientCounts, ruleToValues, valuesToInput } from './rule-form.ts';

type Editing = { rule: NotificationRule | null } | undefined;

/** Spec 2 /notifications: the organization's notification rules — which alarm events reach whom. */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [request, setRequest] = usePageRequest({ pageSize: 25 });
  const [editing, setEditing] = useState<Editing>();
  const canCreate = ability.can('CREATE', 'notifications');
  const canUpdate = ability.can('UPDATE', 'notifications');
  const canDelete = ability.can('DELETE', 'notifications');

  const rules = useQuery({
    queryKey: [RULES_KEY, organization.id],
    queryFn: async ({ signal }) => fetchRules(await token(), organization.id, signal),
  });
  const page = useMemo(
    () => localPage(rules.data?.items, request, (rule) => [rule.name]),
    [rules.data, request],
  );

  const columns = useMemo<ColumnDef<NotificationRule>[]>(() => {
    const refresh = () => queryClient.invalidateQueries({ queryKey: [RULES_KEY, organization.id] });
    const setEnabled = async (rule: NotificationRule, enabled: boolean) => {
      try {
        await updateRule(await token(), organization.id, rule.id, {
          ...valuesToInput(ruleToValues(rule)),
          enabled,
        });
        notifications.show({
          color: 'green',
          message: t(enabled ? 'notificationRules.enabledDone' : 'notificationRules.disabledDone', {
            name: rule.name,
          }),
        });
      } catch (error) {
        const failure = failureText(t, error, {
          403: t('notificationRules.errors.forbidden'),
          404: t('notificationRules.errors.gone'),
        });
        notifications.show({
          color: 'red',
          title: t('notificationRules.saveFailed'),
          message: failure.detail ? `${failure.message} ${failure.detail}` : failure.message,
        });
      } finally {
        await refresh();
      }
    };
    const remove = async (rule: NotificationRule) => {
      try {
        await deleteRule(await token(), organization.id, rule.id);
        notifications.show({
          color: 'green',
          message: t('notificationRules.delete.done', { name: rule.name }),
        });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: t('notificationRules.delete.failed'),
          message: failureText(t, error, {
            403: t('notificationRules.errors.forbidden'),
            404: t('notificationRules.errors.gone'),
          }).message,
        });
      } finally {
        await refresh();
      }
    };
    return [
      {
        id: 'name',
        header: t('notificationRules.columns.name'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
            {row.original.name}
          </Text>
        ),
      },
      {
        id: 'enabled',
        header: t('notificationRules.columns.enabled'),
        enableSorting: false,
        cell: ({ row }) =>
          canUpdate ? (
            <Switch
              checked={row.original.enabled}
              onChange={(event) => void setEnabled(row.original, event.currentTarget.checked)}
              aria-label={t('notificationRules.enabledLabel', { name: row.original.name })}
            />
          ) : (
            <Badge variant="light" color={row.original.enabled ? 'green' : 'gray'} tt="none">
              {t(row.original.enabled ? 'notificationRules.on' : 'notificationRules.off')}
            </Badge>
          ),
      },
      {
        id: 'source',
        header: t('notificationRules.columns.source'),
        enableSorting: false,
        cell: ({ row }) => <SourceSummary rule={row.original} />,
      },
      {
        id: 'recipients',
        header: t('notificationRules.columns.recipients'),
        enableSorting: false,
        cell: ({ row }) => <RecipientSummary rule={row.original} />,
      },
      actionsColumn(t('notificationRules.columns.actions'), (rule) => (
        <>
          <RowAction
            label={t(canUpdate ? 'notificationRules.editLabel' : 'notificationRules.viewLabel', {
              name: rule.name,
            })}
            onClick={() => setEditing({ rule })}
          >
            {t(canUpdate ? 'notificationRules.edit' : 'notificationRules.view')}
          </RowAction>
          {canDelete && (
            <RowAction
              danger
              label={t('notificationRules.delete.label', { name: rule.name })}
              onClick={() =>
                confirmDanger({
                  title: t('notificationRules.delete.title'),
                  message: t('notificationRules.delete.confirm', { name: rule.name }),
                  confirmLabel: t('notificationRules.delete.action'),
                  onConfirm: () => remove(rule),
                })
              }
            >
              {t('notificationRules.delete.short')}
            </RowAction>
          )}
        </>
      )),
    ];
  }, [t, token, organization.id, queryClient, canUpdate, canDelete]);

  return (
    <Stack gap="md" p="md" data-testid="notifications-page">
      <Title order={1} size="h2">
        {t('notificationRules.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('notificationRules.intro')}
      </Text>
      <DataTable<NotificationRule>
        label={t('notificationRules.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={{ data: page, isFetching: rules.isFetching, error: rules.error, refetch: rules.refetch }}
        rowId={(rule) => rule.id}
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>
              {request.search ? t('notificationRules.empty.noMatch') : t('notificationRules.empty.title')}
            </Text>
            {!request.search && (
              <Text size="sm" c="dimmed">
                {canCreate ? t('notificationRules.empty.createHint') : t('notificationRules.empty.askHint')}
              </Text>
            )}
          </Stack>
        }
        toolbar={
          canCreate && (
            <Button onClick={() => setEditing({ rule: null })} data-testid="create-notification">
              {t('notificationRules.create')}
            </Button>
          )
        }
      />
      <NotificationRuleModal
        opened={editing !== undefined}
        rule={editing?.rule ?? null}
        readOnly={editing?.rule ? !canUpdate : !canCreate}
        onClose={() => setEditing(undefined)}
      />
    </Stack>
  );
}

function SourceSummary({ rule }: { rule: NotificationRule }) {
  const { t } = useTranslation();
  const { alarmEvents, severities, alarmRuleIds } = rule.source;
  return (
    <Stack gap={4}>
      <Group gap={4}>
        {alarmEvents.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('notificationRules.noEvents')}
          </Text>
        ) : (
          alarmEvents.map((event) => (
            <Badge key={event} variant="outline" tt="none" size="sm">
              {t(`notificationRules.events.${event}`)}
            </Badge>
          ))
        )}
      </Group>
      <Group gap={4}>
        {severities.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('notificationRules.everySeverity')}
          </Text>
        ) : (
          severities.map((severity) => <SeverityBadge key={severity} severity={severity} />)
        )}
        <Text size="xs" c="dimmed">
          {alarmRuleIds.length === 0
            ? t('notificationRules.everyAlarmRule')
            : t('notificationRules.alarmRuleCount', { count: alarmRuleIds.length })}
        </Text>
      </Group>
    </Stack>
  );
}

function RecipientSummary({ rule }: { rule: NotificationRule }) {
  const { t } = useTranslation();
  const counts = recipientCounts(rule.recipients);
  const parts = (['users', 'groups', 'emails', 'webhooks'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => t(`notificationRules.counts.${kind}`, { count: counts[kind] }));
  return (
    <Text size="sm" data-testid="recipient-counts">
      {parts.length === 0 ? t('notificationRules.noRecipients') : parts.join(' · ')}
    </Text>
  );
}
