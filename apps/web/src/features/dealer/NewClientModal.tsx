import { Alert, Button, Modal, Group as Row, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { currentPortal } from '../../app/portal.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { type Client, type ClientInput, createClient } from './api.ts';
import { useRefreshDealer } from './LicenseActions.tsx';
import { dealerFailure } from './messages.ts';

type Props = { opened: boolean; onClose: () => void; onCreated: (client: Client) => void };

/** "New client": a client organization below the dealer, with IoT and VPN as the dealer has them unless changed. */
export function NewClientModal({ opened, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [failure, setFailure] = useState<string | null>(null);
  const defaults: ClientInput = {
    name: '',
    iotEnabled: organization.iotEnabled,
    vpnEnabled: organization.vpnEnabled,
  };
  const form = useForm<ClientInput>({ defaultValues: defaults });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (!opened) return;
    setFailure(null);
    form.reset(defaults);
  }, [opened]);

  const create = useMutation({
    mutationFn: async (input: ClientInput) => createClient(await token(), organization.id, input),
    onSuccess: async (client) => {
      notifications.show({
        color: 'green',
        message: t('dealer.clients.form.created', { name: client.name }),
      });
      await refresh();
      // The user's organization list (the selector, entering the client) now has one more.
      void currentPortal()
        .organizations.organizations({ reload: true })
        .catch(() => undefined);
      onCreated(client);
    },
    onError: (error) => setFailure(dealerFailure(t, 'client', error)),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('dealer.clients.form.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        data-testid="new-client-form"
        onSubmit={form.handleSubmit((values) => create.mutate({ ...values, name: values.name.trim() }))}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('dealer.clients.form.hint', { dealer: organization.name })}
          </Text>
          <TextInput
            label={t('dealer.clients.form.name')}
            required
            maxLength={120}
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name', {
              validate: (value) => value.trim() !== '' || t('dealer.clients.form.nameRequired'),
            })}
          />
          <Controller
            control={form.control}
            name="iotEnabled"
            render={({ field }) => (
              <Switch
                label={t('organization.iot')}
                description={t('dealer.clients.form.iotHint')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="vpnEnabled"
            render={({ field }) => (
              <Switch
                label={t('organization.vpn')}
                description={t('dealer.clients.form.vpnHint')}
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
            <Button type="submit" loading={create.isPending}>
              {t('dealer.clients.form.submit')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
