import {
  Badge,
  Button,
  Center,
  Drawer,
  Loader,
  Group as Row,
  Stack,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type AlarmRule, deleteRule, fetchRules, updateRule } from './api.ts';
import { ALARM_RULES_KEY } from './query-keys.ts';
import { RuleFormModal } from './RuleFormModal.tsx';
import { describeCondition } from './rule-form.ts';
import { SeverityBadge } from './SeverityBadge.tsx';

/**
 * The organization's alarm rules: listed (READ devices), created (CREATE alarms), edited and switched on or off
 * (UPDATE alarms), deleted (DELETE alarms, after a confirmation).
 */
export function RulesDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AlarmRule | 'new' | null>(null);
  const canCreate = ability.can('CREATE', 'alarms');
  const canUpdate = ability.can('UPDATE', 'alarms');
  const canDelete = ability.can('DELETE', 'alarms');
  const number = new Intl.NumberFormat(i18n.language);

  const rules = useQuery({
    queryKey: [ALARM_RULES_KEY, organization.id, 'list'],
    queryFn: async ({ signal }) => fetchRules(await token(), organization.id, signal),
    enabled: opened,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [ALARM_RULES_KEY, organization.id] });

  const toggle = useMutation({
    mutationFn: async (rule: AlarmRule) =>
      updateRule(await token(), organization.id, rule.id, { enabled: !rule.enabled }),
    onSuccess: (saved) =>
      notifications.show({
        color: 'green',
        message: t(saved.enabled ? 'alarms.rules.enabledNow' : 'alarms.rules.disabledNow', {
          name: saved.name,
        }),
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('alarms.rules.saveFailed'),
        message: describeError(t, error),
      }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (rule: AlarmRule) => deleteRule(await token(), organization.id, rule.id),
    onSuccess: (_, rule) =>
      notifications.show({ color: 'green', message: t('alarms.rules.deleted', { name: rule.name }) }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('alarms.rules.deleteFailed'),
        message: describeError(t, error),
      }),
    onSettled: refresh,
  });

  const words = {
    outside: (low: string, high: string) => t('alarms.rules.describe.outside', { low, high }),
    inside: (low: string, high: string) => t('alarms.rules.describe.inside', { low, high }),
    noData: (seconds: string) => t('alarms.rules.describe.noData', { seconds }),
    offline: t('alarms.rules.describe.offline'),
    number: (value: number) => number.format(value),
  };

  return (
    <>
      <Drawer
        opened={opened}
        onClose={onClose}
        position="right"
        size="xl"
        title={t('alarms.rules.title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm" data-testid="alarm-rules">
          <Row justify="space-between">
            <Text size="sm" c="dimmed">
              {t('alarms.rules.intro')}
            </Text>
            {canCreate && (
              <Button size="xs" onClick={() => setEditing('new')}>
                {t('alarms.rules.new')}
              </Button>
            )}
          </Row>
          {rules.isPending && (
            <Center p="md">
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          )}
          {rules.isError && (
            <LoadFailed
              title={t('alarms.rules.loadFailed')}
              message={describeError(t, rules.error)}
              onRetry={() => void rules.refetch()}
            />
          )}
          {rules.data && rules.data.items.length === 0 && (
            <Stack gap={4} align="center" p="lg" data-testid="rules-empty">
              <Text fw={500}>{t('alarms.rules.empty')}</Text>
              <Text size="sm" c="dimmed">
                {canCreate ? t('alarms.rules.emptyHint') : t('alarms.rules.emptyHintReadOnly')}
              </Text>
            </Stack>
          )}
          {rules.data && rules.data.items.length > 0 && (
            <Table.ScrollContainer minWidth={640}>
              <Table aria-label={t('alarms.rules.tableLabel')} highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('alarms.rules.fields.name')}</Table.Th>
                    <Table.Th>{t('alarms.rules.fields.device')}</Table.Th>
                    <Table.Th>{t('alarms.rules.fields.condition')}</Table.Th>
                    <Table.Th>{t('alarms.rules.fields.severity')}</Table.Th>
                    <Table.Th>{t('alarms.rules.fields.enabled')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('alarms.rules.actionsColumn')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rules.data.items.map((rule) => (
                    <Table.Tr key={rule.id} data-rule={rule.name}>
                      <Table.Td>
                        <Stack gap={0}>
                          <Text size="sm" fw={500}>
                            {rule.name}
                          </Text>
                          <Row gap={4}>
                            {rule.ackRequired && (
                              <Badge size="xs" variant="outline" tt="none">
                                {t('alarms.rules.ackBadge')}
                              </Badge>
                            )}
                            {rule.resetRequired && (
                              <Badge size="xs" variant="outline" tt="none">
                                {t('alarms.rules.resetBadge')}
                              </Badge>
                            )}
                          </Row>
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={rule.deviceId ? undefined : 'dimmed'}>
                          {rule.deviceId
                            ? (rule.deviceLabel ?? rule.deviceId)
                            : t('alarms.rules.everyDevice')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {describeCondition(rule.condition, words)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <SeverityBadge severity={rule.severity} />
                      </Table.Td>
                      <Table.Td>
                        <Switch
                          checked={rule.enabled}
                          disabled={!canUpdate || (toggle.isPending && toggle.variables?.id === rule.id)}
                          onChange={() => toggle.mutate(rule)}
                          aria-label={t('alarms.rules.toggle', { name: rule.name })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Row gap={4} wrap="nowrap" justify="flex-end">
                          {canUpdate && (
                            <Button
                              size="xs"
                              variant="subtle"
                              onClick={() => setEditing(rule)}
                              aria-label={t('alarms.rules.editNamed', { name: rule.name })}
                            >
                              {t('alarms.rules.edit')}
                            </Button>
                          )}
                          {canDelete && (
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              aria-label={t('alarms.rules.deleteNamed', { name: rule.name })}
                              loading={remove.isPending && remove.variables?.id === rule.id}
                              onClick={() =>
                                confirmDanger({
                                  title: t('alarms.rules.deleteTitle', { name: rule.name }),
                                  message: t('alarms.rules.deleteConfirm', { name: rule.name }),
                                  confirmLabel: t('alarms.rules.delete'),
                                  onConfirm: () => remove.mutateAsync(rule).catch(() => undefined),
                                })
                              }
                            >
                              {t('alarms.rules.delete')}
                            </Button>
                          )}
                        </Row>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Drawer>
      <RuleFormModal rule={editing} onClose={() => setEditing(null)} />
    </>
  );
}
