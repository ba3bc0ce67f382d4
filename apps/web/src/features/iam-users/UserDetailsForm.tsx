import { Alert, Badge, Button, Divider, Group as Row, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { type User, type UserChanges, updateUser } from './api.ts';
import { looksLikeEmail, normalizeEmail, STATUS_COLORS, userFailure, userStatuses } from './messages.ts';

type Values = {
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  groupPoliciesEnabled: boolean;
};

/** The fields of spec 3 "User" an administrator changes, and the password-change e-mail. */
export function UserDetailsForm({ user, self }: { user: User; self: boolean }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  // An account that also belongs to another organization is its owner's: this organization changes its roles,
  // groups and policies, not the account itself (the server refuses with 403).
  const canUpdate = ability.can('UPDATE', 'users') && user.accountManaged;
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: {
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      enabled: user.enabled,
      groupPoliciesEnabled: user.groupPoliciesEnabled,
    },
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['iam-users', organization.id] });

  const save = useMutation({
    mutationFn: async (changes: UserChanges) => updateUser(await token(), organization.id, user.id, changes),
    onSuccess: async (saved) => {
      notifications.show({ color: 'green', message: t('iamUsers.details.saved', { email: saved.email }) });
      form.reset({
        email: saved.email,
        firstName: saved.firstName,
        lastName: saved.lastName,
        enabled: saved.enabled,
        groupPoliciesEnabled: saved.groupPoliciesEnabled,
      });
      await refresh();
    },
    onError: (error) => {
      if (hasStatus(error, 409) && form.formState.dirtyFields.email) {
        form.setError('email', { message: t('iamUsers.errors.emailTaken') });
      } else setFailure(userFailure(t, 'save', error));
    },
  });

  const sendPasswordMail = useMutation({
    mutationFn: async () =>
      updateUser(await token(), organization.id, user.id, { passwordChangeInvitation: true }),
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t('iamUsers.details.passwordMailSent', { email: saved.email }),
      });
      await refresh();
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('iamUsers.saveFailed'),
        message: userFailure(t, 'save', error),
      }),
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const dirty = form.formState.dirtyFields;
    const changes: UserChanges = {
      ...(dirty.email ? { email: normalizeEmail(values.email) } : {}),
      ...(dirty.firstName ? { firstName: values.firstName.trim() } : {}),
      ...(dirty.lastName ? { lastName: values.lastName.trim() } : {}),
      ...(dirty.enabled ? { enabled: values.enabled } : {}),
      ...(dirty.groupPoliciesEnabled ? { groupPoliciesEnabled: values.groupPoliciesEnabled } : {}),
    };
    if (Object.keys(changes).length > 0) save.mutate(changes);
  });

  return (
    <Stack gap="md">
      <Row gap={4}>
        {userStatuses(user).map((status) => (
          <Badge key={status} color={STATUS_COLORS[status]} variant="light" tt="none">
            {t(`iamUsers.status.${status}`)}
          </Badge>
        ))}
      </Row>
      {!user.accountManaged && (
        <Alert color="blue" data-testid="account-not-managed">
          {t('iamUsers.details.notManaged', { organization: organization.name })}
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        {t('iamUsers.details.memberOf', {
          roles: user.roles.map((role) => role.name).join(', ') || t('iamUsers.none'),
          groups: user.groups.map((group) => group.name).join(', ') || t('iamUsers.none'),
        })}
      </Text>
      <form noValidate onSubmit={submit} data-testid="user-details-form">
        <fieldset disabled={!canUpdate} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="sm">
            <TextInput
              label={t('iamUsers.fields.email')}
              type="email"
              required
              error={form.formState.errors.email?.message}
              {...form.register('email', {
                validate: (value) =>
                  !value.trim()
                    ? t('iamUsers.validation.emailRequired')
                    : looksLikeEmail(value) || t('iamUsers.validation.emailInvalid'),
              })}
            />
            <Row grow>
              <TextInput
                label={t('iamUsers.fields.firstName')}
                maxLength={80}
                {...form.register('firstName')}
              />
              <TextInput
                label={t('iamUsers.fields.lastName')}
                maxLength={80}
                {...form.register('lastName')}
              />
            </Row>
            <Controller
              control={form.control}
              name="enabled"
              render={({ field }) => (
                <Switch
                  label={t('iamUsers.fields.enabled')}
                  description={self ? t('iamUsers.details.selfEnabledHint') : undefined}
                  disabled={self || !canUpdate}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="groupPoliciesEnabled"
              render={({ field }) => (
                <Switch
                  label={t('iamUsers.fields.groupPoliciesEnabled')}
                  description={t('iamUsers.details.groupPoliciesHint')}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                />
              )}
            />
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            {canUpdate && (
              <Row justify="flex-end">
                <Button
                  variant="default"
                  onClick={() => form.reset()}
                  disabled={!form.formState.isDirty || save.isPending}
                >
                  {t('iamUsers.details.reset')}
                </Button>
                <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
                  {t('iamUsers.details.save')}
                </Button>
              </Row>
            )}
          </Stack>
        </fieldset>
      </form>
      {canUpdate && (
        <>
          <Divider />
          <Stack gap="xs" align="flex-start">
            <Text fw={500}>{t('iamUsers.details.passwordTitle')}</Text>
            <Text size="sm" c="dimmed">
              {t('iamUsers.details.passwordHint', { email: user.email })}
            </Text>
            <Button
              variant="light"
              loading={sendPasswordMail.isPending}
              onClick={() => sendPasswordMail.mutate()}
            >
              {t('iamUsers.details.sendPasswordMail')}
            </Button>
          </Stack>
        </>
      )}
    </Stack>
  );
}
