import { Alert, Button, Modal, Group as Row, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';
import { GATEWAYS_KEY } from '../vpn-devices/query-keys.ts';
import { createEndpoint, domainOf, type Gateway, VPN_ENDPOINTS_KEY, VPN_GATEWAY_OPTIONS_KEY } from './api.ts';
import {
  addressRefusal,
  DESCRIPTION_MAX,
  ENDPOINT_PROTOCOLS,
  type EndpointField,
  type EndpointFormValues,
  type EndpointProtocol,
  emptyEndpointForm,
  endpointFormProblems,
  NAME_MAX,
  portAfterProtocolChange,
} from './endpoint-form.ts';
import { endpointFailure } from './messages.ts';

/** "New endpoint": a machine in a gateway's LAN (IPv4 address, protocol and port). */
export function EndpointFormModal({
  opened,
  gateways,
  initialGateway,
  onClose,
}: {
  opened: boolean;
  gateways: readonly Gateway[];
  initialGateway: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EndpointFormValues>({ defaultValues: emptyEndpointForm() });
  const gatewayName = form.watch('gateway');
  const lan = gateways.find((gateway) => gateway.name === gatewayName)?.lanNetwork ?? null;

  const onlyGateway = gateways.length === 1 ? (gateways[0]?.name ?? '') : '';

  useEffect(() => {
    if (!opened) return;
    setFailure(null);
    form.reset(emptyEndpointForm(initialGateway || onlyGateway));
  }, [opened, initialGateway, onlyGateway, form]);

  const save = useMutation({
    mutationFn: async (values: EndpointFormValues) =>
      createEndpoint(await token(), domainOf(organization), values),
    onSuccess: async (created) => {
      notifications.show({ color: 'green', message: t('vpnEndpoints.created', { name: created.name }) });
      await queryClient.invalidateQueries({ queryKey: [VPN_ENDPOINTS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [VPN_GATEWAY_OPTIONS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [GATEWAYS_KEY, organization.id] });
      onClose();
    },
    onError: (error) => {
      const refusal = hasStatus(error, 400)
        ? addressRefusal(isHttpError(error) ? error.serverMessage : undefined)
        : undefined;
      if (refusal) {
        form.setError('address', { message: t(`vpnEndpoints.refusal.${refusal.key}`, refusal.values) });
        form.setFocus('address');
      } else if (hasStatus(error, 409)) {
        form.setError('name', { message: t('vpnEndpoints.errors.taken') });
        form.setFocus('name');
      } else setFailure(endpointFailure(t, error));
    },
  });

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    const problems = endpointFormProblems(values);
    const fields = Object.keys(problems) as EndpointField[];
    for (const field of fields)
      form.setError(field, { message: t(`vpnEndpoints.validation.${problems[field]}`) });
    const first = fields[0];
    if (first) {
      if (first !== 'gateway') form.setFocus(first);
      return;
    }
    save.mutate(values);
  });

  const fieldError = (field: EndpointField) => form.formState.errors[field]?.message;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('vpnEndpoints.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate data-testid="endpoint-form" onSubmit={submit}>
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="gateway"
            render={({ field }) => (
              <Select
                label={t('vpnEndpoints.fields.gateway')}
                required
                data-autofocus
                data={gateways.map((gateway) => ({ value: gateway.name, label: gateway.name }))}
                value={field.value || null}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  form.clearErrors(['gateway', 'address']);
                }}
                onBlur={field.onBlur}
                allowDeselect={false}
                searchable
                nothingFoundMessage={t('vpnEndpoints.noGatewayMatch')}
                error={fieldError('gateway')}
              />
            )}
          />
          <TextInput
            label={t('vpnEndpoints.fields.name')}
            required
            maxLength={NAME_MAX}
            error={fieldError('name')}
            {...form.register('name', { onChange: () => form.clearErrors('name') })}
          />
          <TextInput
            label={t('vpnEndpoints.fields.address')}
            required
            maxLength={15}
            inputMode="decimal"
            autoComplete="off"
            description={lan ? t('vpnEndpoints.hints.addressLan', { lan }) : t('vpnEndpoints.hints.address')}
            error={fieldError('address')}
            {...form.register('address', { onChange: () => form.clearErrors('address') })}
          />
          <Row grow align="flex-start">
            <Controller
              control={form.control}
              name="protocol"
              render={({ field }) => (
                <Select
                  label={t('vpnEndpoints.fields.protocol')}
                  required
                  data={ENDPOINT_PROTOCOLS.map((protocol) => ({ value: protocol, label: protocol }))}
                  value={field.value}
                  onChange={(value) => {
                    if (!value) return;
                    const next = value as EndpointProtocol;
                    form.setValue('port', portAfterProtocolChange(field.value, next, form.getValues('port')));
                    field.onChange(next);
                  }}
                  allowDeselect={false}
                />
              )}
            />
            <TextInput
              label={t('vpnEndpoints.fields.port')}
              required
              inputMode="numeric"
              maxLength={5}
              description={t('vpnEndpoints.hints.port')}
              error={fieldError('port')}
              {...form.register('port', { onChange: () => form.clearErrors('port') })}
            />
          </Row>
          <Textarea
            label={t('vpnEndpoints.fields.description')}
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
              {t('vpnEndpoints.createShort')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
