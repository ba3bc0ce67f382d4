import { Modal, NumberInput, Select, Stack, Switch, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createPolicy, type SecurityPolicy, updatePolicy } from './api.ts';
import { ModalFooter } from './ModalFooter.tsx';
import { saveFailure } from './messages.ts';
import { NameInput, nameRules } from './NameInput.tsx';
import {
  emptyPolicyForm,
  invalidRanges,
  MAX_SESSION_MINUTES,
  type PolicyFormValues,
  policyFormOf,
  policyInputOf,
} from './policy-form.ts';
import type { ScopedAccess } from './scoped-access.ts';
import { subtreeIds } from './tree.ts';

type Props = {
  opened: boolean;
  /** The group to edit; a new one when absent. */
  policy: SecurityPolicy | undefined;
  policies: SecurityPolicy[];
  access: ScopedAccess;
  onClose: () => void;
  onSaved: () => void;
};

/** Creates or edits a security policy group: name, nesting and its rules. */
export function PolicyEditorModal({ opened, policy, policies, access, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<PolicyFormValues>({ defaultValues: emptyPolicyForm() });
  const { reset } = form;

  useEffect(() => {
    if (opened) {
      reset(policy ? policyFormOf(policy) : emptyPolicyForm());
      setFailure(undefined);
    }
  }, [opened, policy, reset]);

  // A group cannot be nested in itself or in a group nested inside it.
  const excluded = policy ? subtreeIds(policies, policy.id) : new Set<string>();
  const parentOptions = policies
    .filter((candidate) => !excluded.has(candidate.id))
    .map((candidate) => ({ value: candidate.id, label: candidate.name }));

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    const input = policyInputOf(values);
    try {
      const token = await access.token();
      const saved = policy
        ? await updatePolicy(token, access.organization.id, policy.id, input)
        : await createPolicy(token, access.organization.id, input);
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.policies.saved', { name: saved.name }),
      });
      onSaved();
      onClose();
    } catch (error) {
      setFailure(saveFailure(t, error));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        policy
          ? t('iamOrganizations.policies.editTitle', { name: policy.name })
          : t('iamOrganizations.policies.newTitle')
      }
      size="lg"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <NameInput
            label={t('iamOrganizations.policies.fields.name')}
            error={form.formState.errors.name?.message}
            {...form.register('name', nameRules(t))}
          />
          <Textarea
            label={t('iamOrganizations.policies.fields.description')}
            autosize
            minRows={2}
            maxLength={2000}
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="parentId"
            render={({ field }) => (
              <Select
                label={t('iamOrganizations.policies.fields.parent')}
                placeholder={t('iamOrganizations.policies.fields.noParent')}
                data={parentOptions}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                clearable
                searchable
                nothingFoundMessage={t('iamOrganizations.policies.fields.noMatch')}
              />
            )}
          />
          <Textarea
            label={t('iamOrganizations.policies.fields.ranges')}
            description={t('iamOrganizations.policies.fields.rangesHint')}
            autosize
            minRows={3}
            placeholder={'10.0.0.0/8\n2001:db8::/32'}
            error={form.formState.errors.allowedIpRanges?.message}
            {...form.register('allowedIpRanges', {
              validate: (value) => {
                const bad = invalidRanges(value);
                return bad.length === 0
                  ? true
                  : t('iamOrganizations.validation.ranges', { ranges: bad.join(', ') });
              },
            })}
          />
          <Controller
            control={form.control}
            name="requireTotp"
            render={({ field }) => (
              <Switch
                label={t('iamOrganizations.policies.fields.totp')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="maxSessionMinutes"
            rules={{
              validate: (value) =>
                Number.isInteger(Number(value)) && Number(value) >= 0 && Number(value) <= MAX_SESSION_MINUTES
                  ? true
                  : t('iamOrganizations.validation.session', { max: MAX_SESSION_MINUTES }),
            }}
            render={({ field, fieldState }) => (
              <NumberInput
                label={t('iamOrganizations.policies.fields.session')}
                description={t('iamOrganizations.policies.fields.sessionHint')}
                min={0}
                max={MAX_SESSION_MINUTES}
                allowDecimal={false}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : Number(value) || 0)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <ModalFooter
            failure={failure}
            onCancel={onClose}
            submitLabel={t('iamOrganizations.policies.save')}
            loading={form.formState.isSubmitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
