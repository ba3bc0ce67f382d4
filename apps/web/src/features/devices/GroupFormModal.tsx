import { Alert, Button, Modal, Group as Row, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { createDeviceGroup, type DeviceGroup, type GroupInput, updateDeviceGroup } from './api.ts';
import { deviceFailure } from './messages.ts';
import { DEVICE_GROUPS_KEY, DEVICES_KEY } from './query-keys.ts';

/** Creates a device group, or renames one (and changes its description). */
export function GroupFormModal({
  group,
  onClose,
}: {
  group: DeviceGroup | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<GroupInput>({ defaultValues: { name: '', description: '' } });
  const existing = group !== null && group !== 'new' ? group : null;

  useEffect(() => {
    if (group === null) return;
    setFailure(null);
    form.reset(
      group === 'new' ? { name: '', description: '' } : { name: group.name, description: group.description },
    );
  }, [group, form]);

  const save = useMutation({
    mutationFn: async (input: GroupInput) =>
      existing
        ? updateDeviceGroup(await token(), organization.id, existing.id, input)
        : createDeviceGroup(await token(), organization.id, input),
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(existing ? 'devices.groups.saved' : 'devices.groups.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [DEVICE_GROUPS_KEY, organization.id] });
      await queryClient.invalidateQueries({ queryKey: [DEVICES_KEY, organization.id] });
      onClose();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) form.setError('name', { message: t('devices.errors.groupNameTaken') });
      else setFailure(deviceFailure(t, 'group', error));
    },
  });

  return (
    <Modal
      opened={group !== null}
      onClose={onClose}
      title={
        existing ? t('devices.groups.renameTitle', { name: existing.name }) : t('devices.groups.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        data-testid="device-group-form"
        onSubmit={form.handleSubmit((values) =>
          save.mutate({ name: values.name.trim(), description: values.description.trim() }),
        )}
      >
        <Stack gap="sm">
          <TextInput
            label={t('devices.groups.fields.name')}
            required
            maxLength={120}
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name', {
              validate: (value) => value.trim() !== '' || t('devices.groups.nameRequired'),
            })}
          />
          <Textarea
            label={t('devices.groups.fields.description')}
            autosize
            minRows={2}
            maxLength={2000}
            {...form.register('description')}
          />
          {failure && <Alert color="red">{failure}</Alert>}
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {existing ? t('devices.groups.save') : t('devices.groups.createShort')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
