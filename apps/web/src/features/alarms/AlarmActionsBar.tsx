import { Button, Menu, Paper, Group as Row, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import {
  ACTION_PERMISSION,
  type ActionableAlarm,
  ALARM_ACTIONS,
  type AlarmAction,
  applicableCounts,
  applicableIds,
  chunks,
} from './actions.ts';
import type { AlarmFilter } from './alarm-query.ts';
import { actOnAlarms, actOnMatching } from './api.ts';
import { ALARMS_KEY } from './query-keys.ts';

type Run =
  | { action: AlarmAction; scope: 'chosen'; ids: string[] }
  | { action: AlarmAction; scope: 'matching' };

/**
 * Acknowledge, reset or clear the chosen alarms, or every open alarm matching the list's filter, each after a
 * confirmation. A button shows only with its permission (ACK, RESET, CLEAR on alarms) and is enabled only when the
 * selection holds alarms it applies to.
 */
export function AlarmActionsBar({
  chosen,
  filter,
  matching,
  onDone,
}: {
  chosen: readonly ActionableAlarm[];
  filter: AlarmFilter;
  /** How many alarms the list shows with this filter (0 disables the "all matching" steps). */
  matching: number;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const allowed = ALARM_ACTIONS.filter((action) => ability.can(ACTION_PERMISSION[action], 'alarms'));
  const counts = applicableCounts(chosen);
  const number = new Intl.NumberFormat(i18n.language);

  const run = useMutation({
    mutationFn: async (step: Run) => {
      const bearerToken = await token();
      if (step.scope === 'matching')
        return (await actOnMatching(bearerToken, organization.id, `${step.action}All`, filter)).affected;
      let affected = 0;
      for (const ids of chunks(step.ids))
        affected += (await actOnAlarms(bearerToken, organization.id, step.action, ids)).affected;
      return affected;
    },
    onSuccess: (affected, step) => {
      notifications.show({
        color: 'green',
        message: t(`alarms.actions.done.${step.action}`, { count: affected }),
      });
      onDone();
    },
    onError: (error, step) =>
      notifications.show({
        color: 'red',
        title: t(`alarms.actions.failed.${step.action}`),
        message: describeError(t, error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ALARMS_KEY, organization.id] }),
  });

  if (allowed.length === 0) return null;

  const confirmChosen = (action: AlarmAction) => {
    const ids = applicableIds(action, chosen);
    confirmDanger({
      title: t(`alarms.actions.confirm.${action}.title`, { count: ids.length }),
      message: t(`alarms.actions.confirm.${action}.chosen`, {
        count: ids.length,
        selected: number.format(chosen.length),
      }),
      confirmLabel: t(`alarms.actions.${action}`),
      color: action === 'clear' ? 'red' : 'orange',
      onConfirm: () => run.mutateAsync({ action, scope: 'chosen', ids }).catch(() => undefined),
    });
  };
  const confirmMatching = (action: AlarmAction) =>
    confirmDanger({
      title: t(`alarms.actions.confirm.${action}.titleAll`),
      message: t(`alarms.actions.confirm.${action}.matching`, { count: matching }),
      confirmLabel: t(`alarms.actions.${action}All`),
      color: action === 'clear' ? 'red' : 'orange',
      onConfirm: () => run.mutateAsync({ action, scope: 'matching' }).catch(() => undefined),
    });

  return (
    <Paper withBorder p="xs" data-testid="alarm-actions">
      <Row justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500} aria-live="polite">
          {chosen.length > 0
            ? t('alarms.actions.selected', { count: chosen.length })
            : t('alarms.actions.noneSelected')}
        </Text>
        <Row gap="xs">
          {allowed.map((action) => (
            <Button
              key={action}
              size="xs"
              variant="light"
              color={action === 'clear' ? 'red' : undefined}
              disabled={counts[action] === 0}
              loading={run.isPending && run.variables?.action === action && run.variables.scope === 'chosen'}
              onClick={() => confirmChosen(action)}
              data-testid={`alarm-action-${action}`}
            >
              {t(`alarms.actions.${action}`)}
              {counts[action] > 0 && ` (${number.format(counts[action])})`}
            </Button>
          ))}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="xs"
                variant="default"
                disabled={matching === 0}
                loading={run.isPending && run.variables?.scope === 'matching'}
                data-testid="alarm-actions-matching"
              >
                {t('alarms.actions.allMatching')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {allowed.map((action) => (
                <Menu.Item
                  key={action}
                  color={action === 'clear' ? 'red' : undefined}
                  onClick={() => confirmMatching(action)}
                >
                  {t(`alarms.actions.${action}All`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {chosen.length > 0 && (
            <Button size="xs" variant="subtle" onClick={onDone}>
              {t('alarms.actions.deselect')}
            </Button>
          )}
        </Row>
      </Row>
    </Paper>
  );
}
