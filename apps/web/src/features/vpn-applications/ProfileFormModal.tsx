import { Alert, Button, Modal, Group as Row, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { GATEWAYS_KEY } from '../vpn-devices/query-keys.ts';
import { domainOf } from '../vpn-endpoints/api.ts';
import { type Profile, saveProfile, VPN_APPLICATIONS_KEY, VPN_PROFILES_KEY } from './api.ts';
import {
  DESCRIPTION_MAX,
  NAME_MAX,
  type ProfileFormValues,
  profileFormProblems,
} from './application-form.ts';
import { vpnAppsFailure } from './messages.ts';

const EMPTY: ProfileFormValues = { name: '', description: '', otpRequired: false };

/** Creates an application profile, or edits one (spec 7: both are a POST; the edit names the id). */
export function ProfileFormModal({
  profile,
  onClose,
}: {
  profile: Profile | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ProfileFormValues>({ defaultValues: EMPTY });
  const existing = profile !== null && profile !== 'new' ? profile : null;

  useEffect(() => {
    if (profile === null) return;
    setFailure(null);
    form.reset(
      profile === 'new'
        ? EMPTY
        : { name: profile.name, description: profile.description, otpRequired: profile.otpRequired },
    );
  }, [profile, form]);

  const save = useMutation({
    mutationFn: async (values: ProfileFormValues) =>
      saveProfile(await token(), domainOf(organization), values, existing?.id),
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(existing ? 'vpnApplications.profiles.saved' : 'vpnApplications.profiles.created', {
          name: saved.name,
        }),
      });
      await queryClient.invalidateQueries({ queryKey: [VPN_PROFILES_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [VPN_APPLICATIONS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
      onClose();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) {
        form.setError('name', { message: t('vpnApplications.errors.taken.profile') });
        form.setFocus('name');
      } else setFailure(vpnAppsFailure(t, 'profile', error));
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const problems = profileFormProblems(values);
    if (problems.name) form.setError('name', { message: t(`vpnApplications.validation.${problems.name}`) });
    if (problems.description)
      form.setError('description', { message: t(`vpnApplications.validation.${problems.description}`) });
    if (problems.name) form.setFocus('name');
    if (problems.name || problems.description) return;
    save.mutate(values);
  });

  return (
    <Modal
      opened={profile !== null}
      onClose={onClose}
      title={
        existing
          ? t('vpnApplications.profiles.editTitle', { name: existing.name })
          : t('vpnApplications.profiles.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate data-testid="profile-form" onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label={t('vpnApplications.fields.name')}
            required
            maxLength={NAME_MAX}
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name', { onChange: () => form.clearErrors('name') })}
          />
          <Textarea
            label={t('vpnApplications.fields.description')}
            autosize
            minRows={2}
            maxLength={DESCRIPTION_MAX}
            error={form.formState.errors.description?.message}
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="otpRequired"
            render={({ field }) => (
              <Switch
                label={t('vpnApplications.profiles.fields.otpRequired')}
                description={t('vpnApplications.profiles.otpHint')}
                name={field.name}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {existing ? t('vpnApplications.save') : t('vpnApplications.createShort')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
