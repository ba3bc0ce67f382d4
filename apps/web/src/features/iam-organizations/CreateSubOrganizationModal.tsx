import { Checkbox, Modal, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createSubOrganization } from './api.ts';
import { ModalFooter } from './ModalFooter.tsx';
import { commonFailure } from './messages.ts';
import { NameInput, nameRules } from './NameInput.tsx';
import type { ScopedAccess } from './scoped-access.ts';

type Values = { name: string; iotEnabled: boolean; vpnEnabled: boolean; addDefaultRoles: boolean };

type Props = { opened: boolean; onClose: () => void; access: ScopedAccess; onCreated: () => void };

/** A new sub-organization of the selected one; IoT and VPN start as the parent has them. */
export function CreateSubOrganizationModal({ opened, onClose, access, onCreated }: Props) {
  const { t } = useTranslation();
  const { organization } = access;
  const [failure, setFailure] = useState<string>();
  const defaults: Values = {
    name: '',
    iotEnabled: organization.iotEnabled,
    vpnEnabled: organization.vpnEnabled,
    addDefaultRoles: true,
  };
  const form = useForm<Values>({ defaultValues: defaults });
  const { reset } = form;

  useEffect(() => {
    if (opened) {
      reset({
        name: '',
        iotEnabled: organization.iotEnabled,
        vpnEnabled: organization.vpnEnabled,
        addDefaultRoles: true,
      });
      setFailure(undefined);
    }
  }, [opened, reset, organization.iotEnabled, organization.vpnEnabled]);

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const created = await createSubOrganization(
        await access.token(),
        organization.id,
        { name: values.name.trim(), iotEnabled: values.iotEnabled, vpnEnabled: values.vpnEnabled },
        values.addDefaultRoles,
      );
      notifications.show({
        color: 'green',
        message: t('iamOrganizations.create.done', { name: created.name, parent: organization.name }),
      });
      onCreated();
      onClose();
    } catch (error) {
      setFailure(commonFailure(t, error));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('iamOrganizations.create.title', { parent: organization.name })}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <NameInput
            label={t('iamOrganizations.create.name')}
            error={form.formState.errors.name?.message}
            {...form.register('name', nameRules(t))}
          />
          <Controller
            control={form.control}
            name="iotEnabled"
            render={({ field }) => (
              <Switch
                label={t('iamOrganizations.general.iotEnabled')}
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
                label={t('iamOrganizations.general.vpnEnabled')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="addDefaultRoles"
            render={({ field }) => (
              <Checkbox
                label={t('iamOrganizations.create.defaultRoles')}
                description={t('iamOrganizations.create.defaultRolesHint')}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Text size="xs" c="dimmed">
            {t('iamOrganizations.create.inheritHint')}
          </Text>
          <ModalFooter
            failure={failure}
            onCancel={onClose}
            submitLabel={t('iamOrganizations.create.submit')}
            loading={form.formState.isSubmitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
