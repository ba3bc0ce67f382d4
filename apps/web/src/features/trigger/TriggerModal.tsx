import {
  Autocomplete,
  Button,
  Checkbox,
  Divider,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { Controller, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { isHttpError } from '../../shared/http/errors.ts';
import { SEVERITIES } from '../alarms/severity.ts';
import { fetchAlarmRuleOptions, fetchRules, RULES_KEY } from '../notifications/api.ts';
import { FailureAlert } from '../notifications/FailureAlert.tsx';
import { type FailureText, failureText, isWebhookRefusal } from '../notifications/failure.ts';
import { withChosen } from '../notifications/options.ts';
import { SeverityCheckboxes } from '../notifications/SeverityCheckboxes.tsx';
import {
  createTrigger,
  type DeviceOption,
  fetchDeviceOptions,
  fetchPathOptions,
  type PathOption,
  TRIGGERS_KEY,
  type Trigger,
  updateTrigger,
} from './api.ts';
import {
  ACTION_KINDS,
  COMPARISONS,
  CONDITION_KINDS,
  emptyTriggerValues,
  TRIGGER_EVENTS,
  TRIGGER_LIMITS,
  type TriggerField,
  type TriggerFormValues,
  type TriggerProblem,
  triggerProblems,
  triggerToValues,
  type ValueType,
  valuesToInput,
} from './trigger-form.ts';

type Props = { opened: boolean; trigger: Trigger | null; readOnly: boolean; onClose: () => void };

/** Create or edit a trigger rule: "when <condition> then <action>". */
export function TriggerModal({ opened, trigger, readOnly, onClose }: Props) {
  const { t } = useTranslation();
  const title = trigger
    ? t(readOnly ? 'triggers.form.viewTitle' : 'triggers.form.editTitle', { name: trigger.name })
    : t('triggers.form.createTitle');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && (
        <TriggerForm key={trigger?.id ?? 'new'} trigger={trigger} readOnly={readOnly} onClose={onClose} />
      )}
    </Modal>
  );
}

/** The pickers' data, shared by the condition and the action. */
function usePickers() {
  const { organization, ability, token } = useOrganizationApi();
  const canReadDevices = ability.can('READ', 'devices');
  const devices = useQuery({
    queryKey: [TRIGGERS_KEY, organization.id, 'device-options'],
    queryFn: async ({ signal }) => fetchDeviceOptions(await token(), organization.id, signal),
    enabled: canReadDevices,
    staleTime: 60_000,
  });
  const alarmRules = useQuery({
    queryKey: [RULES_KEY, organization.id, 'alarm-rule-options'],
    queryFn: async ({ signal }) => fetchAlarmRuleOptions(await token(), organization.id, signal),
    enabled: canReadDevices,
    staleTime: 60_000,
  });
  const rules = useQuery({
    queryKey: [RULES_KEY, organization.id],
    queryFn: async ({ signal }) => fetchRules(await token(), organization.id, signal),
    enabled: ability.can('READ', 'notifications'),
    staleTime: 30_000,
  });
  return { devices, alarmRules, rules, canReadDevices, canReadRules: ability.can('READ', 'notifications') };
}

type Pickers = ReturnType<typeof usePickers>;

function TriggerForm({ trigger, readOnly, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<FailureText | null>(null);
  const [problems, setProblems] = useState<TriggerProblem[]>([]);
  const form = useForm<TriggerFormValues>({
    defaultValues: trigger ? triggerToValues(trigger) : emptyTriggerValues(),
  });
  const pickers = usePickers();
  const conditionKind = useWatch({ control: form.control, name: 'conditionKind' });
  const actionKind = useWatch({ control: form.control, name: 'actionKind' });

  const save = useMutation({
    mutationFn: async (values: TriggerFormValues) => {
      const input = valuesToInput(values);
      return trigger
        ? updateTrigger(await token(), organization.id, trigger.id, input)
        : createTrigger(await token(), organization.id, input);
    },
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(trigger ? 'triggers.form.updated' : 'triggers.form.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [TRIGGERS_KEY, organization.id] });
      onClose();
    },
    onError: (error) => setFailure(saveFailure(t, error)),
  });

  const problem = (field: TriggerField) => {
    const found = problems.find((candidate) => candidate.field === field);
    return found ? t(`triggers.validation.${found.kind}`, { max: maxOf(field) }) : undefined;
  };

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const found = triggerProblems(values);
    setProblems(found);
    if (found.length === 0) save.mutate(values);
  });

  return (
    <form noValidate onSubmit={submit} data-testid="trigger-form">
      <Fieldset variant="unstyled" disabled={readOnly}>
        <Stack gap="sm">
          <TextInput
            label={t('triggers.form.name')}
            required
            maxLength={TRIGGER_LIMITS.name}
            data-autofocus
            error={problem('name')}
            {...form.register('name')}
          />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="cooldownSeconds"
              render={({ field }) => (
                <NumberInput
                  label={t('triggers.form.cooldown')}
                  description={t('triggers.form.cooldownHint')}
                  min={0}
                  max={TRIGGER_LIMITS.cooldownSeconds}
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                  error={problem('cooldownSeconds')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="enabled"
              render={({ field }) => (
                <Switch
                  mt="xl"
                  label={t('triggers.form.enabled')}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
          </Group>

          <Divider label={t('triggers.form.when')} labelPosition="left" />
          <Controller
            control={form.control}
            name="conditionKind"
            render={({ field }) => (
              <SegmentedControl
                aria-label={t('triggers.form.conditionKind')}
                data={CONDITION_KINDS.map((kind) => ({
                  value: kind,
                  label: t(`triggers.conditionKinds.${kind}`),
                }))}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                disabled={readOnly}
              />
            )}
          />
          {conditionKind === 'data' ? (
            <DataCondition form={form} pickers={pickers} problem={problem} readOnly={readOnly} />
          ) : (
            <AlarmCondition form={form} pickers={pickers} readOnly={readOnly} />
          )}

          <Divider label={t('triggers.form.then')} labelPosition="left" />
          <Controller
            control={form.control}
            name="actionKind"
            render={({ field }) => (
              <SegmentedControl
                aria-label={t('triggers.form.actionKind')}
                data={ACTION_KINDS.map((kind) => ({ value: kind, label: t(`triggers.actionKinds.${kind}`) }))}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                disabled={readOnly}
              />
            )}
          />
          {actionKind === 'notify' && (
            <Controller
              control={form.control}
              name="notify.notificationId"
              render={({ field }) => (
                <Select
                  label={t('triggers.form.notification')}
                  description={
                    pickers.canReadRules
                      ? t('triggers.form.notificationHint')
                      : t('triggers.form.notificationHidden')
                  }
                  placeholder={
                    pickers.rules.isFetching ? t('common.loading') : t('triggers.form.pickNotification')
                  }
                  data={withChosen(
                    (pickers.rules.data?.items ?? []).map((rule) => ({ value: rule.id, label: rule.name })),
                    field.value ? [field.value] : [],
                    (id) => t('triggers.unknownOption', { id: id.slice(0, 8) }),
                  )}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  searchable
                  required
                  disabled={readOnly || !pickers.canReadRules}
                  error={problem('notify.notificationId')}
                  nothingFoundMessage={t('triggers.form.noNotifications')}
                />
              )}
            />
          )}
          {actionKind === 'webhook' && (
            <TextInput
              label={t('triggers.form.webhookUrl')}
              description={t('triggers.form.webhookHint')}
              placeholder="https://example.com/hooks/edgeport"
              required
              error={problem('webhook.url')}
              {...form.register('webhook.url')}
            />
          )}
          {actionKind === 'write' && (
            <WriteAction form={form} pickers={pickers} problem={problem} readOnly={readOnly} />
          )}
          {actionKind === 'alarm' && <RaiseAlarmAction form={form} problem={problem} />}
        </Stack>
      </Fieldset>
      <Stack gap="sm" mt="md">
        <FailureAlert failure={failure} testId="trigger-failure" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {readOnly ? t('common.close') : t('common.cancel')}
          </Button>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              {trigger ? t('triggers.form.save') : t('triggers.form.create')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

type SectionProps = {
  form: UseFormReturn<TriggerFormValues>;
  pickers: Pickers;
  problem: (field: TriggerField) => string | undefined;
  readOnly: boolean;
};

function deviceData(devices: DeviceOption[] | undefined, chosen: string, t: TFunction) {
  return withChosen(
    (devices ?? []).map((device) => ({ value: device.id, label: device.label })),
    chosen ? [chosen] : [],
    (id) => t('triggers.unknownOption', { id: id.slice(0, 8) }),
  );
}

/** Path suggestions for the chosen device (or the first devices when none is chosen), with their types. */
function usePathOptions(deviceId: string, devices: DeviceOption[] | undefined): PathOption[] {
  const { organization, ability, token } = useOrganizationApi();
  const ids = deviceId ? [deviceId] : (devices ?? []).slice(0, 50).map((device) => device.id);
  const paths = useQuery({
    queryKey: [TRIGGERS_KEY, organization.id, 'path-options', ids],
    queryFn: async ({ signal }) => fetchPathOptions(await token(), organization.id, ids, signal),
    enabled: ids.length > 0 && ability.can('READ', 'models') && ability.can('READ', 'devices'),
    staleTime: 60_000,
    retry: false,
  });
  return paths.data ?? [];
}

function typeOfPath(paths: PathOption[], path: string): ValueType | undefined {
  const found = paths.find((option) => option.path === path);
  if (!found) return undefined;
  return found.type === 'integer' ? 'number' : found.type;
}

/** A value's path, suggested from the device's model: picking a known path sets the value's type to the path's. */
function PathField({
  form,
  prefix,
  paths,
  placeholder,
  problem,
}: {
  form: UseFormReturn<TriggerFormValues>;
  prefix: 'data' | 'write';
  paths: PathOption[];
  placeholder: string;
  problem: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={form.control}
      name={`${prefix}.path`}
      render={({ field }) => (
        <Autocomplete
          label={t('triggers.form.path')}
          placeholder={placeholder}
          required
          data={[...new Set(paths.map((option) => option.path))]}
          value={field.value}
          onChange={(value) => {
            field.onChange(value);
            const type = typeOfPath(paths, value);
            if (type) form.setValue(`${prefix}.valueType`, type);
          }}
          error={problem}
        />
      )}
    />
  );
}

function DataCondition({ form, pickers, problem, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const deviceId = useWatch({ control: form.control, name: 'data.deviceId' });
  const valueType = useWatch({ control: form.control, name: 'data.valueType' });
  const paths = usePathOptions(deviceId, pickers.devices.data);
  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="data.deviceId"
        render={({ field }) => (
          <Select
            label={t('triggers.form.device')}
            description={t('triggers.form.deviceHint')}
            placeholder={pickers.devices.isFetching ? t('common.loading') : t('triggers.form.everyDevice')}
            data={deviceData(pickers.devices.data, field.value, t)}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            searchable
            clearable
            disabled={readOnly || !pickers.canReadDevices}
          />
        )}
      />
      <Group grow align="flex-start">
        <PathField
          form={form}
          prefix="data"
          paths={paths}
          placeholder="/motor/speed"
          problem={problem('data.path')}
        />
        <Controller
          control={form.control}
          name="data.operator"
          render={({ field }) => (
            <Select
              label={t('triggers.form.operator')}
              data={COMPARISONS.map((operator) => ({
                value: operator,
                label: t(`triggers.operators.${operatorKey(operator)}`),
              }))}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              allowDeselect={false}
            />
          )}
        />
      </Group>
      <ValueFields form={form} prefix="data" valueType={valueType} problem={problem('data.value')} />
    </Stack>
  );
}

function AlarmCondition({ form, pickers, readOnly }: Omit<SectionProps, 'problem'>) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="alarm.event"
        render={({ field }) => (
          <Select
            label={t('triggers.form.event')}
            data={TRIGGER_EVENTS.map((event) => ({ value: event, label: t(`triggers.events.${event}`) }))}
            value={field.value}
            onChange={(value) => value && field.onChange(value)}
            allowDeselect={false}
          />
        )}
      />
      <Controller
        control={form.control}
        name="alarm.severities"
        render={({ field }) => (
          <SeverityCheckboxes
            label={t('triggers.form.severities')}
            description={t('triggers.form.severitiesHint')}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
      <Controller
        control={form.control}
        name="alarm.ruleIds"
        render={({ field }) => (
          <MultiSelect
            label={t('triggers.form.alarmRules')}
            description={t('triggers.form.alarmRulesHint')}
            placeholder={
              pickers.alarmRules.isFetching ? t('common.loading') : t('triggers.form.everyAlarmRule')
            }
            data={withChosen(
              (pickers.alarmRules.data ?? []).map((rule) => ({ value: rule.id, label: rule.name })),
              field.value,
              (id) => t('triggers.unknownOption', { id: id.slice(0, 8) }),
            )}
            value={field.value}
            onChange={field.onChange}
            searchable
            clearable
            maxValues={TRIGGER_LIMITS.ruleIds}
            disabled={readOnly || !pickers.canReadDevices}
          />
        )}
      />
    </Stack>
  );
}

function WriteAction({ form, pickers, problem, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const deviceId = useWatch({ control: form.control, name: 'write.deviceId' });
  const valueType = useWatch({ control: form.control, name: 'write.valueType' });
  const paths = usePathOptions(deviceId, deviceId ? pickers.devices.data : []);
  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="write.deviceId"
        render={({ field }) => (
          <Select
            label={t('triggers.form.writeDevice')}
            placeholder={pickers.devices.isFetching ? t('common.loading') : t('triggers.form.pickDevice')}
            data={deviceData(pickers.devices.data, field.value, t)}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            searchable
            required
            disabled={readOnly || !pickers.canReadDevices}
            error={problem('write.deviceId')}
          />
        )}
      />
      <PathField
        form={form}
        prefix="write"
        paths={paths}
        placeholder="/motor/target"
        problem={problem('write.path')}
      />
      <ValueFields form={form} prefix="write" valueType={valueType} problem={problem('write.value')} />
    </Stack>
  );
}

function ValueFields({
  form,
  prefix,
  valueType,
  problem,
}: {
  form: UseFormReturn<TriggerFormValues>;
  prefix: 'data' | 'write';
  valueType: ValueType;
  problem: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start">
      <Controller
        control={form.control}
        name={`${prefix}.valueType`}
        render={({ field }) => (
          <Select
            label={t('triggers.form.valueType')}
            data={(['number', 'boolean', 'string'] as const).map((type) => ({
              value: type,
              label: t(`triggers.valueTypes.${type}`),
            }))}
            value={field.value}
            onChange={(value) => {
              if (!value) return;
              field.onChange(value);
              if (value === 'boolean') form.setValue(`${prefix}.value`, 'true');
            }}
            allowDeselect={false}
          />
        )}
      />
      {valueType === 'boolean' ? (
        <Controller
          control={form.control}
          name={`${prefix}.value`}
          render={({ field }) => (
            <Select
              label={t('triggers.form.value')}
              data={[
                { value: 'true', label: t('triggers.valueTrue') },
                { value: 'false', label: t('triggers.valueFalse') },
              ]}
              value={field.value === 'false' ? 'false' : 'true'}
              onChange={(value) => field.onChange(value ?? 'true')}
              allowDeselect={false}
              error={problem}
            />
          )}
        />
      ) : (
        <TextInput
          label={t('triggers.form.value')}
          inputMode={valueType === 'number' ? 'decimal' : 'text'}
          required={valueType === 'number'}
          error={problem}
          {...form.register(`${prefix}.value`)}
        />
      )}
    </Group>
  );
}

function RaiseAlarmAction({ form, problem }: Pick<SectionProps, 'form' | 'problem'>) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Controller
        control={form.control}
        name="raise.severity"
        render={({ field }) => (
          <Select
            label={t('triggers.form.severity')}
            data={SEVERITIES.map((severity) => ({
              value: severity,
              label: t(`notificationRules.severities.${severity}`),
            }))}
            value={field.value}
            onChange={(value) => value && field.onChange(value)}
            allowDeselect={false}
          />
        )}
      />
      <Textarea
        label={t('triggers.form.message')}
        required
        autosize
        minRows={2}
        maxLength={TRIGGER_LIMITS.message}
        error={problem('raise.message')}
        {...form.register('raise.message')}
      />
      <Group>
        <Controller
          control={form.control}
          name="raise.ackRequired"
          render={({ field }) => (
            <Checkbox
              label={t('triggers.form.ackRequired')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
            />
          )}
        />
        <Controller
          control={form.control}
          name="raise.resetRequired"
          render={({ field }) => (
            <Checkbox
              label={t('triggers.form.resetRequired')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
            />
          )}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('triggers.form.raiseHint')}
      </Text>
    </Stack>
  );
}

/** Translation keys cannot hold '>' well across tools: each operator has a name. */
export function operatorKey(operator: (typeof COMPARISONS)[number]): string {
  return { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte', '==': 'eq', '!=': 'ne' }[operator];
}

function maxOf(field: TriggerField): number | undefined {
  if (field === 'name') return TRIGGER_LIMITS.name;
  if (field === 'raise.message') return TRIGGER_LIMITS.message;
  if (field === 'cooldownSeconds') return TRIGGER_LIMITS.cooldownSeconds;
  if (field === 'webhook.url') return 2000;
  return undefined;
}

function saveFailure(t: TFunction, error: unknown): FailureText {
  if (isWebhookRefusal(error))
    return {
      message: t('triggers.errors.webhookRefused'),
      detail: isHttpError(error) ? error.serverMessage : undefined,
    };
  return failureText(t, error, {
    400: t('triggers.errors.invalid'),
    403: t('triggers.errors.forbidden'),
    404: t('triggers.errors.gone'),
    409: t('triggers.errors.nameTaken'),
  });
}
