import {
  Alert,
  Button,
  Modal,
  MultiSelect,
  Group as Row,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { currentLocale } from '../../shared/i18n/i18n.ts';
import { SUPPORTED_LOCALES } from '../../shared/i18n/locales.ts';
import { fetchGroupOptions, fetchRoleOptions, type InviteInput, inviteUser } from './api.ts';
import { looksLikeEmail, normalizeEmail, userFailure } from './messages.ts';

type Props = { opened: boolean; onClose: () => void };

type Values = {
  email: string;
  firstName: string;
  lastName: string;
  locale: NonNullable<InviteInput['locale']>;
  roleIds: string[];
  groupIds: string[];
};

/** "Invite user": an e-mail (required), names, the invitation's language, and roles and groups of this organization. */
export function InviteUserModal({ opened, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('iamUsers.invite.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <InviteForm onClose={onClose} />}
    </Modal>
  );
}

function InviteForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const canPickRoles = ability.can('READ', 'roles');
  const canPickGroups = ability.can('READ', 'usergroups');
  const roles = useQuery({
    queryKey: ['iam-users', organization.id, 'role-options'],
    queryFn: async ({ signal }) => fetchRoleOptions(await token(), organization.id, signal),
    enabled: canPickRoles,
    staleTime: 60_000,
  });
  const groups = useQuery({
    queryKey: ['iam-users', organization.id, 'group-options'],
    queryFn: async ({ signal }) => fetchGroupOptions(await token(), organization.id, signal),
    enabled: canPickGroups,
    staleTime: 60_000,
  });
  const form = useForm<Values>({
    defaultValues: {
      email: '',
      firstName: '',
      lastName: '',
      locale: currentLocale(),
      roleIds: [],
      groupIds: [],
    },
  });

  const invite = useMutation({
    mutationFn: async (values: Values) =>
      inviteUser(await token(), organization.id, {
        email: normalizeEmail(values.email),
        ...(values.firstName.trim() ? { firstName: values.firstName.trim() } : {}),
        ...(values.lastName.trim() ? { lastName: values.lastName.trim() } : {}),
        locale: values.locale,
        roleIds: values.roleIds,
        groupIds: values.groupIds,
      }),
    onSuccess: async (outcome) => {
      notifications.show({
        color: 'green',
        message:
          outcome.kind === 'invited'
            ? t('iamUsers.invite.pending', { email: outcome.invitation.email })
            : t(outcome.user.invitationPending ? 'iamUsers.invite.sent' : 'iamUsers.invite.added', {
                email: outcome.user.email,
              }),
      });
      await queryClient.invalidateQueries({ queryKey: ['iam-users', organization.id] });
      await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
      onClose();
    },
    onError: (error) => setFailure(userFailure(t, 'invite', error)),
  });

  const optionsOf = (rows: { id: string; name: string }[] | undefined) =>
    (rows ?? []).map((row) => ({ value: row.id, label: row.name }));

  return (
    <form
      noValidate
      data-testid="invite-form"
      onSubmit={form.handleSubmit((values) => {
        setFailure(null);
        invite.mutate(values);
      })}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('iamUsers.invite.hint', { organization: organization.name })}
        </Text>
        <TextInput
          label={t('iamUsers.fields.email')}
          type="email"
          required
          autoComplete="off"
          data-autofocus
          error={form.formState.errors.email?.message}
          {...form.register('email', {
            validate: (value) =>
              !value.trim()
                ? t('iamUsers.validation.emailRequired')
                : looksLikeEmail(value) || t('iamUsers.validation.emailInvalid'),
          })}
        />
        <Row grow>
          <TextInput label={t('iamUsers.fields.firstName')} maxLength={80} {...form.register('firstName')} />
          <TextInput label={t('iamUsers.fields.lastName')} maxLength={80} {...form.register('lastName')} />
        </Row>
        <Controller
          control={form.control}
          name="locale"
          render={({ field }) => (
            <Select
              label={t('iamUsers.fields.locale')}
              description={t('iamUsers.invite.localeHint')}
              data={SUPPORTED_LOCALES.map((locale) => ({
                value: locale,
                label: t(`language.names.${locale}`),
              }))}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              allowDeselect={false}
            />
          )}
        />
        {canPickRoles && (
          <Controller
            control={form.control}
            name="roleIds"
            render={({ field }) => (
              <MultiSelect
                label={t('iamUsers.fields.roles')}
                placeholder={roles.isPending ? t('common.loading') : t('iamUsers.invite.pickRoles')}
                data={optionsOf(roles.data)}
                value={field.value}
                onChange={field.onChange}
                searchable
                error={roles.isError ? t('iamUsers.invite.optionsFailed') : undefined}
              />
            )}
          />
        )}
        {canPickGroups && (
          <Controller
            control={form.control}
            name="groupIds"
            render={({ field }) => (
              <MultiSelect
                label={t('iamUsers.fields.groups')}
                placeholder={groups.isPending ? t('common.loading') : t('iamUsers.invite.pickGroups')}
                data={optionsOf(groups.data)}
                value={field.value}
                onChange={field.onChange}
                searchable
                error={groups.isError ? t('iamUsers.invite.optionsFailed') : undefined}
              />
            )}
          />
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Row justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={invite.isPending}>
            {t('iamUsers.invite.submit')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
