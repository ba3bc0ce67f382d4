import {
  Alert,
  Button,
  Checkbox,
  Modal,
  NumberInput,
  Group as Row,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { type AlarmRule, createRule, updateRule } from './api.ts';
import { DevicePicker } from './DevicePicker.tsx';
import { PathInput } from './PathInput.tsx';
import { ALARM_RULES_KEY } from './query-keys.ts';
import {
  COMPARISONS,
  CONDITION_KINDS,
  type ConditionKind,
  formToInput,
  MESSAGE_PLACEHOLDERS,
  NEW_RULE,
  type RuleFormValues,
  ruleProblems,
  ruleToForm,
} from './rule-form.ts';
import { isSeverity, SEVERITIES } from './severity.ts';

/** The path types each kind of condition watches. */
const PATH_TYPES: Record<ConditionKind, readonly string[]> = {
  threshold: ['number', 'integer'],
  range: ['number', 'integer'],
  boolean: ['boolean'],
  noData: ['number', 'integer', 'boolean', 'string'],
  offline: [],
};

/** Creates an alarm rule or edits one (CREATE or UPDATE alarms). */
export function RuleFormModal({ rule, onClose }: { rule: AlarmRule | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RuleFormValues>({ defaultValues: NEW_RULE });
  const existing = rule !== null && rule !== 'new' ? rule : null;
  const kind = form.watch('kind');
  const deviceId = form.watch('deviceId');

  useEffect(() => {
    if (rule === null) return;
    setFailure(null);
    form.reset(rule === 'new' ? NEW_RULE : ruleToForm(rule));
  }, [rule, form]);

  const save = useMutation({
    mutationFn: async (values: RuleFormValues) => {
      const input = formToInput(values);
      return existing
        ? updateRule(await token(), organization.id, existing.id, input)
        : createRule(await token(), organization.id, input);
    },
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(existing ? 'alarms.rules.saved' : 'alarms.rules.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [ALARM_RULES_KEY, organization.id] });
      onClose();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) form.setError('name', { message: t('alarms.rules.validation.nameTaken') });
      else if (hasStatus(error, 400)) setFailure(t('alarms.rules.invalid'));
      else if (hasStatus(error, 404)) setFailure(t('alarms.rules.gone'));
      else if (hasStatus(error, 403)) setFailure(t('alarms.rules.forbidden'));
      else setFailure(describeError(t, error));
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const problems = ruleProblems(values);
    const fields = Object.entries(problems) as [keyof RuleFormValues, string][];
    for (const [field, key] of fields) form.setError(field, { message: t(`alarms.rules.validation.${key}`) });
    if (fields.length === 0) save.mutate(values);
  });
  const errors = form.formState.errors;
  const numeric = (name: NumericField) => <NumberField form={form} name={name} />;

  return (
    <Modal
      opened={rule !== null}
      onClose={onClose}
      size="lg"
      title={existing ? t('alarms.rules.editTitle', { name: existing.name }) : t('alarms.rules.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate onSubmit={submit} data-testid="alarm-rule-form">
        <Stack gap="sm">
          <TextInput
            label={t('alarms.rules.fields.name')}
            required
            maxLength={120}
            data-autofocus
            error={errors.name?.message}
            {...form.register('name')}
          />
          <Textarea
            label={t('alarms.rules.fields.description')}
            autosize
            minRows={1}
            maxLength={500}
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="deviceId"
            render={({ field }) => (
              <DevicePicker
                label={t('alarms.rules.fields.device')}
                description={t('alarms.rules.deviceHint')}
                placeholder={t('alarms.rules.everyDevice')}
                value={field.value}
                knownLabel={existing?.deviceLabel}
                onChange={(next) => field.onChange(next)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <Select
                label={t('alarms.rules.fields.kind')}
                data={CONDITION_KINDS.map((value) => ({ value, label: t(`alarms.rules.kind.${value}`) }))}
                value={field.value}
                onChange={(value) => {
                  form.clearErrors();
                  if (value) field.onChange(value);
                }}
                allowDeselect={false}
              />
            )}
          />
          {kind !== 'offline' && (
            <Controller
              control={form.control}
              name="path"
              render={({ field }) => (
                <PathInput
                  value={field.value}
                  onChange={(value) => {
                    form.clearErrors('path');
                    field.onChange(value);
                  }}
                  onBlur={field.onBlur}
                  deviceId={deviceId}
                  types={PATH_TYPES[kind]}
                  error={errors.path?.message}
                />
              )}
            />
          )}
          {kind === 'threshold' && (
            <SimpleGrid cols={2} spacing="sm">
              <Controller
                control={form.control}
                name="operator"
                render={({ field }) => (
                  <Select
                    label={t('alarms.rules.fields.operator')}
                    data={COMPARISONS.map((value) => ({
                      value,
                      label: t(`alarms.rules.operator.${operatorKey(value)}`),
                    }))}
                    value={field.value}
                    onChange={(value) => value && field.onChange(value)}
                    allowDeselect={false}
                  />
                )}
              />
              {numeric('threshold')}
            </SimpleGrid>
          )}
          {kind === 'range' && (
            <>
              <SimpleGrid cols={2} spacing="sm">
                {numeric('low')}
                {numeric('high')}
              </SimpleGrid>
              <Controller
                control={form.control}
                name="inside"
                render={({ field }) => (
                  <SegmentedControl
                    aria-label={t('alarms.rules.fields.inside')}
                    value={field.value ? 'inside' : 'outside'}
                    onChange={(value) => field.onChange(value === 'inside')}
                    data={[
                      { value: 'outside', label: t('alarms.rules.rangeOutside') },
                      { value: 'inside', label: t('alarms.rules.rangeInside') },
                    ]}
                  />
                )}
              />
            </>
          )}
          {kind === 'boolean' && (
            <Controller
              control={form.control}
              name="booleanValue"
              render={({ field }) => (
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="rule-boolean-label">
                    {t('alarms.rules.fields.booleanValue')}
                  </Text>
                  <SegmentedControl
                    aria-labelledby="rule-boolean-label"
                    value={field.value}
                    onChange={(value) => field.onChange(value === 'false' ? 'false' : 'true')}
                    data={[
                      { value: 'true', label: t('alarms.rules.true') },
                      { value: 'false', label: t('alarms.rules.false') },
                    ]}
                  />
                </Stack>
              )}
            />
          )}
          {kind === 'noData' && numeric('seconds')}
          <SimpleGrid cols={2} spacing="sm">
            <Controller
              control={form.control}
              name="severity"
              render={({ field }) => (
                <Select
                  label={t('alarms.rules.fields.severity')}
                  data={SEVERITIES.map((value) => ({ value, label: t(`alarms.severity.${value}`) }))}
                  value={field.value}
                  onChange={(value) => value && isSeverity(value) && field.onChange(value)}
                  allowDeselect={false}
                />
              )}
            />
            {numeric('delaySeconds')}
          </SimpleGrid>
          {(kind === 'threshold' || kind === 'range') && numeric('hysteresis')}
          <Row gap="lg">
            <Checkbox label={t('alarms.rules.fields.ackRequired')} {...form.register('ackRequired')} />
            <Checkbox label={t('alarms.rules.fields.resetRequired')} {...form.register('resetRequired')} />
          </Row>
          <Textarea
            label={t('alarms.rules.fields.message')}
            description={t('alarms.rules.messageHint', { placeholders: MESSAGE_PLACEHOLDERS.join(' ') })}
            autosize
            minRows={2}
            maxLength={500}
            error={errors.message?.message}
            {...form.register('message')}
          />
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Switch
                label={t('alarms.rules.fields.enabled')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          {failure && <Alert color="red">{failure}</Alert>}
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {existing ? t('alarms.rules.save') : t('alarms.rules.create')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}

type NumericField = 'threshold' | 'low' | 'high' | 'seconds' | 'delaySeconds' | 'hysteresis';

/** A number of the rule (kept as typed; checked on submit). Counts of seconds are whole and not negative. */
function NumberField({ form, name }: { form: UseFormReturn<RuleFormValues>; name: NumericField }) {
  const { t } = useTranslation();
  const whole = name === 'seconds' || name === 'delaySeconds';
  const signed = name === 'threshold' || name === 'low' || name === 'high';
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          value={field.value}
          onChange={(value) => {
            form.clearErrors(name);
            field.onChange(value);
          }}
          onBlur={field.onBlur}
          label={t(`alarms.rules.fields.${name}`)}
          error={fieldState.error?.message}
          decimalScale={whole ? 0 : undefined}
          min={signed ? undefined : 0}
          required={name !== 'hysteresis' && name !== 'delaySeconds'}
          data-testid={`rule-${name}`}
        />
      )}
    />
  );
}

/** Translation keys cannot hold '>' comfortably: each comparison has a word. */
function operatorKey(operator: string): string {
  switch (operator) {
    case '>':
      return 'gt';
    case '>=':
      return 'gte';
    case '<':
      return 'lt';
    case '<=':
      return 'lte';
    case '==':
      return 'eq';
    default:
      return 'ne';
  }
}
