import {
  Anchor,
  Button,
  Checkbox,
  Divider,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { isHttpError } from '../../shared/http/errors.ts';
import {
  createRule,
  fetchAlarmRuleOptions,
  fetchGroupOptions,
  fetchUserOptions,
  type NotificationRule,
  RULES_KEY,
  updateRule,
} from './api.ts';
import { FailureAlert } from './FailureAlert.tsx';
import { type FailureText, failureText, isWebhookRefusal, refusedWebhookHost } from './failure.ts';
import { userLabel, withChosen } from './options.ts';
import {
  emptyRuleValues,
  LANGUAGE_CODES,
  NOTIFIED_EVENTS,
  RULE_LIMITS,
  type RuleFormValues,
  type RuleProblem,
  ruleProblems,
  ruleToValues,
  valuesToInput,
} from './rule-form.ts';
import { SeverityCheckboxes } from './SeverityCheckboxes.tsx';

type Props = { opened: boolean; rule: NotificationRule | null; readOnly: boolean; onClose: () => void };

/** Create or edit a notification rule; read-only for someone who may only read rules. */
export function NotificationRuleModal({ opened, rule, readOnly, onClose }: Props) {
  const { t } = useTranslation();
  const title = rule
    ? t(readOnly ? 'notificationRules.form.viewTitle' : 'notificationRules.form.editTitle', {
        name: rule.name,
      })
    : t('notificationRules.form.createTitle');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <RuleForm key={rule?.id ?? 'new'} rule={rule} readOnly={readOnly} onClose={onClose} />}
    </Modal>
  );
}

function RuleForm({ rule, readOnly, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<FailureText | null>(null);
  const [problems, setProblems] = useState<RuleProblem[]>([]);
  const form = useForm<RuleFormValues>({ defaultValues: rule ? ruleToValues(rule) : emptyRuleValues() });
  const canReadUsers = ability.can('READ', 'users');
  const canReadGroups = ability.can('READ', 'usergroups');
  const canReadAlarmRules = ability.can('READ', 'devices');

  const users = useQuery({
    queryKey: [RULES_KEY, organization.id, 'user-options'],
    queryFn: async ({ signal }) => fetchUserOptions(await token(), organization.id, signal),
    enabled: canReadUsers,
    staleTime: 60_000,
  });
  const groups = useQuery({
    queryKey: [RULES_KEY, organization.id, 'group-options'],
    queryFn: async ({ signal }) => fetchGroupOptions(await token(), organization.id, signal),
    enabled: canReadGroups,
    staleTime: 60_000,
  });
  const alarmRules = useQuery({
    queryKey: [RULES_KEY, organization.id, 'alarm-rule-options'],
    queryFn: async ({ signal }) => fetchAlarmRuleOptions(await token(), organization.id, signal),
    enabled: canReadAlarmRules,
    staleTime: 60_000,
  });

  const save = useMutation({
    mutationFn: async (values: RuleFormValues) => {
      const input = valuesToInput(values);
      return rule
        ? updateRule(await token(), organization.id, rule.id, input)
        : createRule(await token(), organization.id, input);
    },
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(rule ? 'notificationRules.form.updated' : 'notificationRules.form.created', {
          name: saved.name,
        }),
      });
      await queryClient.invalidateQueries({ queryKey: [RULES_KEY, organization.id] });
      onClose();
    },
    onError: (error) => setFailure(saveFailure(t, error, form.getValues('webhooks'))),
  });

  const problemOf = (field: RuleProblem['field']) => problems.find((problem) => problem.field === field);
  const problemText = (field: RuleProblem['field']) => {
    const problem = problemOf(field);
    return problem ? describeProblem(t, problem) : undefined;
  };

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const found = ruleProblems(values);
    setProblems(found);
    if (found.length > 0) return;
    save.mutate(values);
  });

  const chosen = form.watch();
  const missingLabel = (id: string) => t('notificationRules.form.unknownOption', { id: id.slice(0, 8) });

  return (
    <form noValidate onSubmit={submit} data-testid="notification-form">
      <Fieldset variant="unstyled" disabled={readOnly}>
        <Stack gap="sm">
          <TextInput
            label={t('notificationRules.form.name')}
            required
            maxLength={RULE_LIMITS.name}
            data-autofocus
            error={problemText('name')}
            {...form.register('name')}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="language"
              render={({ field }) => (
                <Select
                  label={t('notificationRules.form.language')}
                  description={t('notificationRules.form.languageHint')}
                  data={[
                    { value: '', label: t('notificationRules.form.languageDefault') },
                    ...LANGUAGE_CODES.map((code) => ({
                      value: code,
                      label: t(`notificationRules.languages.${code}`),
                    })),
                  ]}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? '')}
                  allowDeselect={false}
                />
              )}
            />
            <Controller
              control={form.control}
              name="enabled"
              render={({ field }) => (
                <Switch
                  mt="xl"
                  label={t('notificationRules.form.enabled')}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
          </Group>

          <Divider label={t('notificationRules.form.sourceSection')} labelPosition="left" />
          <Controller
            control={form.control}
            name="alarmEvents"
            render={({ field }) => (
              <Checkbox.Group
                label={t('notificationRules.form.events')}
                value={field.value}
                onChange={field.onChange}
                error={problemText('alarmEvents')}
              >
                <Group gap="md" mt={4}>
                  {NOTIFIED_EVENTS.map((event) => (
                    <Checkbox key={event} value={event} label={t(`notificationRules.events.${event}`)} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={form.control}
            name="severities"
            render={({ field }) => (
              <SeverityCheckboxes
                label={t('notificationRules.form.severities')}
                description={t('notificationRules.form.severitiesHint')}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Controller
            control={form.control}
            name="alarmRuleIds"
            render={({ field }) => (
              <MultiSelect
                label={t('notificationRules.form.alarmRules')}
                description={
                  canReadAlarmRules
                    ? t('notificationRules.form.alarmRulesHint')
                    : t('notificationRules.form.alarmRulesHidden')
                }
                placeholder={
                  alarmRules.isFetching ? t('common.loading') : t('notificationRules.form.everyAlarmRule')
                }
                data={withChosen(
                  (alarmRules.data ?? []).map((option) => ({ value: option.id, label: option.name })),
                  field.value,
                  missingLabel,
                )}
                value={field.value}
                onChange={field.onChange}
                searchable
                clearable
                disabled={readOnly || !canReadAlarmRules}
                maxValues={RULE_LIMITS.alarmRules}
                error={alarmRules.isError ? t('notificationRules.form.optionsFailed') : undefined}
              />
            )}
          />

          <Divider label={t('notificationRules.form.recipientsSection')} labelPosition="left" />
          <Controller
            control={form.control}
            name="userIds"
            render={({ field }) => (
              <MultiSelect
                label={t('notificationRules.form.users')}
                description={
                  canReadUsers
                    ? t('notificationRules.form.usersHint')
                    : t('notificationRules.form.usersHidden')
                }
                placeholder={users.isFetching ? t('common.loading') : t('notificationRules.form.pickUsers')}
                data={withChosen(
                  (users.data ?? []).map((user) => ({ value: user.id, label: userLabel(user) })),
                  field.value,
                  missingLabel,
                )}
                value={field.value}
                onChange={field.onChange}
                searchable
                disabled={readOnly || !canReadUsers}
                maxValues={RULE_LIMITS.users}
                error={users.isError ? t('notificationRules.form.optionsFailed') : undefined}
              />
            )}
          />
          <Controller
            control={form.control}
            name="groupIds"
            render={({ field }) => (
              <MultiSelect
                label={t('notificationRules.form.groups')}
                description={
                  canReadGroups
                    ? t('notificationRules.form.groupsHint')
                    : t('notificationRules.form.groupsHidden')
                }
                placeholder={groups.isFetching ? t('common.loading') : t('notificationRules.form.pickGroups')}
                data={withChosen(
                  (groups.data ?? []).map((group) => ({ value: group.id, label: group.name })),
                  field.value,
                  missingLabel,
                )}
                value={field.value}
                onChange={field.onChange}
                searchable
                disabled={readOnly || !canReadGroups}
                maxValues={RULE_LIMITS.groups}
                error={groups.isError ? t('notificationRules.form.optionsFailed') : undefined}
              />
            )}
          />
          <Controller
            control={form.control}
            name="emails"
            render={({ field }) => (
              <TagsInput
                label={t('notificationRules.form.emails')}
                description={t('notificationRules.form.emailsHint')}
                placeholder={t('notificationRules.form.emailsPlaceholder')}
                value={field.value}
                onChange={field.onChange}
                splitChars={[',', ';', ' ']}
                clearable
                maxTags={RULE_LIMITS.emails}
                error={problemText('emails')}
                data-testid="emails-input"
              />
            )}
          />
          <Controller
            control={form.control}
            name="webhooks"
            render={({ field }) => (
              <TagsInput
                label={t('notificationRules.form.webhooks')}
                description={
                  <>
                    {t('notificationRules.form.webhooksHint')}{' '}
                    {ability.can('READ', 'organizations') && (
                      <Anchor component={Link} to="/admin/notifications" size="xs">
                        {t('notificationRules.form.channelSettings')}
                      </Anchor>
                    )}
                  </>
                }
                placeholder={t('notificationRules.form.webhooksPlaceholder')}
                value={field.value}
                onChange={field.onChange}
                splitChars={[' ']}
                clearable
                maxTags={RULE_LIMITS.webhooks}
                error={problemText('webhooks')}
                data-testid="webhooks-input"
              />
            )}
          />
          {problemOf('recipients') && (
            <Text size="sm" c="red" role="alert">
              {problemText('recipients')}
            </Text>
          )}
          {chosen.alarmEvents.length > 0 && (
            <Text size="xs" c="dimmed">
              {t('notificationRules.form.summary', {
                events: chosen.alarmEvents.map((event) => t(`notificationRules.events.${event}`)).join(', '),
              })}
            </Text>
          )}
        </Stack>
      </Fieldset>
      <Stack gap="sm" mt="md">
        <FailureAlert failure={failure} testId="notification-failure" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {readOnly ? t('common.close') : t('common.cancel')}
          </Button>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              {rule ? t('notificationRules.form.save') : t('notificationRules.form.create')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function describeProblem(t: TFunction, problem: RuleProblem): string {
  switch (problem.field) {
    case 'name':
      return problem.kind === 'required'
        ? t('notificationRules.validation.nameRequired')
        : t('notificationRules.validation.nameTooLong', { max: RULE_LIMITS.name });
    case 'alarmEvents':
      return t('notificationRules.validation.eventsRequired');
    case 'recipients':
      return t('notificationRules.validation.recipientsRequired');
    case 'emails':
      return problem.kind === 'tooMany'
        ? t('notificationRules.validation.tooManyEmails', { max: RULE_LIMITS.emails })
        : t('notificationRules.validation.emailInvalid', { values: problem.values.join(', ') });
    case 'webhooks':
      if (problem.kind === 'tooMany')
        return t('notificationRules.validation.tooManyWebhooks', { max: RULE_LIMITS.webhooks });
      return t(`notificationRules.validation.webhook.${problem.kind}`, { values: problem.values.join(', ') });
  }
}

function saveFailure(t: TFunction, error: unknown, webhooks: string[]): FailureText {
  if (isWebhookRefusal(error)) {
    const host = refusedWebhookHost(isHttpError(error) ? error.serverMessage : undefined, webhooks);
    return {
      message: host
        ? t('notificationRules.errors.webhookRefusedHost', { host })
        : t('notificationRules.errors.webhookRefused'),
      detail: isHttpError(error) ? error.serverMessage : undefined,
    };
  }
  return failureText(t, error, {
    400: t('notificationRules.errors.invalid'),
    403: t('notificationRules.errors.forbidden'),
    404: t('notificationRules.errors.gone'),
    409: t('notificationRules.errors.nameTaken'),
  });
}
