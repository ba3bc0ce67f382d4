import { Alert, Button, Modal, Group as Row, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { domainOf, fetchEndpoints, type Gateway, VPN_ENDPOINTS_KEY } from '../vpn-endpoints/api.ts';
import { type Application, createShortcut, VPN_SHORTCUTS_KEY } from './api.ts';
import {
  applicationsFor,
  detectRemoteClientOs,
  NAME_MAX,
  OS_LABELS,
  REMOTE_CLIENT_OS,
  type RemoteClientOs,
  type ShortcutFormValues,
  shortcutFormProblems,
} from './application-form.ts';
import { vpnAppsFailure } from './messages.ts';

type ShortcutField = 'gateway' | 'endpoint' | 'application' | 'label';

function emptyShortcut(): ShortcutFormValues {
  return {
    gateway: '',
    endpoint: '',
    application: '',
    clientOs: detectRemoteClientOs(navigator.userAgent),
    label: '',
  };
}

/** A new shortcut of the user: an application on an endpoint of a gateway, for one client system, with a label. */
export function ShortcutFormModal({
  opened,
  gateways,
  applications,
  onClose,
}: {
  opened: boolean;
  gateways: readonly Gateway[];
  applications: readonly Application[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const domain = domainOf(organization);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ShortcutFormValues>({ defaultValues: emptyShortcut() });
  const gateway = form.watch('gateway');
  const clientOs = form.watch('clientOs');

  useEffect(() => {
    if (!opened) return;
    setFailure(null);
    form.reset(emptyShortcut());
  }, [opened, form]);

  const endpoints = useQuery({
    queryKey: [VPN_ENDPOINTS_KEY, organization.id, 'of-gateway', gateway],
    queryFn: async ({ signal }) =>
      fetchEndpoints(await token(), domain, { page: 0, pageSize: 1000, gateway }, signal),
    enabled: opened && gateway !== '',
  });
  const offered = useMemo(() => applicationsFor(applications, clientOs), [applications, clientOs]);

  const save = useMutation({
    mutationFn: async (values: ShortcutFormValues) => createShortcut(await token(), domain, values),
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t('vpnApplications.shortcuts.created', { label: saved.label }),
      });
      await queryClient.invalidateQueries({ queryKey: [VPN_SHORTCUTS_KEY, organization.id] });
      onClose();
    },
    onError: (error) => setFailure(vpnAppsFailure(t, 'shortcut', error)),
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const problems = shortcutFormProblems(values);
    const fields = Object.keys(problems) as ShortcutField[];
    for (const field of fields)
      form.setError(field, { message: t(`vpnApplications.validation.${problems[field]}`) });
    if (problems.label) form.setFocus('label');
    if (fields.length > 0) return;
    save.mutate(values);
  });

  const fieldError = (field: ShortcutField) => form.formState.errors[field]?.message;
  const endpointItems = endpoints.data?.items ?? [];

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('vpnApplications.shortcuts.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate data-testid="shortcut-form" onSubmit={submit}>
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="gateway"
            render={({ field }) => (
              <Select
                label={t('vpnEndpoints.fields.gateway')}
                required
                data-autofocus
                data={gateways.map((item) => ({ value: item.name, label: item.name }))}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  form.setValue('endpoint', '');
                  form.clearErrors('gateway');
                }}
                onBlur={field.onBlur}
                allowDeselect={false}
                searchable
                nothingFoundMessage={t('vpnApplications.shortcuts.noGateways')}
                error={fieldError('gateway')}
              />
            )}
          />
          <Controller
            control={form.control}
            name="endpoint"
            render={({ field }) => (
              <Select
                label={t('vpnApplications.shortcuts.fields.endpoint')}
                required
                disabled={gateway === ''}
                data={endpointItems.map((item) => ({
                  value: item.name,
                  label: `${item.name} (${item.address}:${item.port})`,
                }))}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  form.clearErrors('endpoint');
                }}
                onBlur={field.onBlur}
                allowDeselect={false}
                searchable
                nothingFoundMessage={t('vpnApplications.shortcuts.noEndpoints')}
                error={
                  fieldError('endpoint') ??
                  (endpoints.isError ? describeError(t, endpoints.error) : undefined) ??
                  (endpoints.isSuccess && endpointItems.length === 0
                    ? t('vpnApplications.shortcuts.noEndpoints')
                    : undefined)
                }
              />
            )}
          />
          <Controller
            control={form.control}
            name="clientOs"
            render={({ field }) => (
              <Select
                label={t('vpnApplications.shortcuts.fields.clientOs')}
                required
                data={REMOTE_CLIENT_OS.map((os) => ({ value: os, label: OS_LABELS[os] }))}
                value={field.value}
                onChange={(value) => {
                  if (!value) return;
                  field.onChange(value as RemoteClientOs);
                  const still = applicationsFor(applications, value as RemoteClientOs).some(
                    (item) => item.name === form.getValues('application'),
                  );
                  if (!still) form.setValue('application', '');
                }}
                allowDeselect={false}
              />
            )}
          />
          <Controller
            control={form.control}
            name="application"
            render={({ field }) => (
              <Select
                label={t('vpnApplications.shortcuts.fields.application')}
                required
                data={offered.map((item) => ({ value: item.name, label: item.name }))}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  form.clearErrors('application');
                  const endpoint = form.getValues('endpoint');
                  if (value && form.getValues('label').trim() === '')
                    form.setValue('label', endpoint ? `${value} ${endpoint}` : value);
                }}
                onBlur={field.onBlur}
                allowDeselect={false}
                searchable
                nothingFoundMessage={t('vpnApplications.shortcuts.noApplications')}
                error={
                  fieldError('application') ??
                  (offered.length === 0 ? t('vpnApplications.shortcuts.noApplications') : undefined)
                }
              />
            )}
          />
          <TextInput
            label={t('vpnApplications.shortcuts.fields.label')}
            required
            maxLength={NAME_MAX}
            error={fieldError('label')}
            {...form.register('label', { onChange: () => form.clearErrors('label') })}
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
              {t('vpnApplications.shortcuts.save')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
