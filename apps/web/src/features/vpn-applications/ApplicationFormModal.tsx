import {
  Alert,
  Button,
  Checkbox,
  Modal,
  Group as Row,
  Select,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { domainOf } from '../vpn-endpoints/api.ts';
import {
  type Application,
  type Profile,
  saveApplication,
  VPN_APPLICATIONS_KEY,
  VPN_PROFILES_KEY,
} from './api.ts';
import {
  APP_PROTOCOLS,
  type ApplicationField,
  type ApplicationFormValues,
  type AppProtocol,
  applicationFormProblems,
  applicationFormValues,
  CLIENT_OS,
  type ClientOs,
  DESCRIPTION_MAX,
  isWebProtocol,
  NAME_MAX,
  OS_LABELS,
  PATH_MAX,
  portAfterProtocolChange,
} from './application-form.ts';
import { vpnAppsFailure } from './messages.ts';

/** Creates an application (POST) or edits one (PUT): what to open on an endpoint, and for which client systems. */
export function ApplicationFormModal({
  application,
  profiles,
  onClose,
}: {
  application: Application | 'new' | null;
  profiles: readonly Profile[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ApplicationFormValues>({ defaultValues: applicationFormValues() });
  const existing = application !== null && application !== 'new' ? application : null;
  const protocol = form.watch('protocol');

  useEffect(() => {
    if (application === null) return;
    setFailure(null);
    form.reset(applicationFormValues(application === 'new' ? undefined : application));
  }, [application, form]);

  const save = useMutation({
    mutationFn: async (values: ApplicationFormValues) =>
      saveApplication(await token(), domainOf(organization), values, existing?.id),
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(existing ? 'vpnApplications.saved' : 'vpnApplications.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [VPN_APPLICATIONS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [VPN_PROFILES_KEY, organization.id] });
      onClose();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) {
        form.setError('name', { message: t('vpnApplications.errors.taken.application') });
        form.setFocus('name');
      } else setFailure(vpnAppsFailure(t, 'application', error));
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const problems = applicationFormProblems(values);
    const fields = Object.keys(problems) as ApplicationField[];
    for (const field of fields)
      form.setError(field, { message: t(`vpnApplications.validation.${problems[field]}`) });
    const first = fields[0];
    if (first) {
      form.setFocus(first);
      return;
    }
    save.mutate(values);
  });

  const fieldError = (field: ApplicationField) => form.formState.errors[field]?.message;

  return (
    <Modal
      opened={application !== null}
      onClose={onClose}
      size="lg"
      title={
        existing ? t('vpnApplications.editTitle', { name: existing.name }) : t('vpnApplications.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate data-testid="application-form" onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label={t('vpnApplications.fields.name')}
            required
            maxLength={NAME_MAX}
            data-autofocus
            error={fieldError('name')}
            {...form.register('name', { onChange: () => form.clearErrors('name') })}
          />
          <Controller
            control={form.control}
            name="profileId"
            render={({ field }) => (
              <Select
                label={t('vpnApplications.fields.profile')}
                placeholder={t('vpnApplications.noProfile')}
                description={t('vpnApplications.hints.profile')}
                data={profiles.map((profile) => ({ value: profile.id, label: profile.name }))}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                clearable
                clearButtonProps={{ 'aria-label': t('vpnApplications.clearProfile') }}
                searchable
                nothingFoundMessage={t('vpnApplications.noProfileMatch')}
              />
            )}
          />
          <Row grow align="flex-start">
            <Controller
              control={form.control}
              name="protocol"
              render={({ field }) => (
                <Select
                  label={t('vpnApplications.fields.protocol')}
                  required
                  data={APP_PROTOCOLS.map((value) => ({ value, label: value }))}
                  value={field.value}
                  onChange={(value) => {
                    if (!value) return;
                    const next = value as AppProtocol;
                    form.setValue('port', portAfterProtocolChange(field.value, next, form.getValues('port')));
                    if (isWebProtocol(next) && form.getValues('path').trim() === '')
                      form.setValue('path', '/');
                    field.onChange(next);
                  }}
                  allowDeselect={false}
                />
              )}
            />
            <TextInput
              label={t('vpnApplications.fields.port')}
              required
              inputMode="numeric"
              maxLength={5}
              error={fieldError('port')}
              {...form.register('port', { onChange: () => form.clearErrors('port') })}
            />
          </Row>
          {isWebProtocol(protocol) && (
            <TextInput
              label={t('vpnApplications.fields.path')}
              description={t('vpnApplications.hints.path')}
              maxLength={PATH_MAX}
              error={fieldError('path')}
              {...form.register('path', { onChange: () => form.clearErrors('path') })}
            />
          )}
          <Controller
            control={form.control}
            name="clientOs"
            render={({ field }) => (
              <Checkbox.Group
                label={t('vpnApplications.fields.clientOs')}
                description={t('vpnApplications.hints.clientOs')}
                value={field.value}
                onChange={(value) => field.onChange(CLIENT_OS.filter((os) => value.includes(os)))}
              >
                <Row gap="md" mt={6}>
                  {CLIENT_OS.map((os: ClientOs) => (
                    <Checkbox key={os} value={os} label={OS_LABELS[os]} />
                  ))}
                </Row>
              </Checkbox.Group>
            )}
          />
          <Textarea
            label={t('vpnApplications.fields.description')}
            autosize
            minRows={2}
            maxLength={DESCRIPTION_MAX}
            error={fieldError('description')}
            {...form.register('description')}
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
