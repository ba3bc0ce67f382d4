import { Alert, Button, Modal, Group as Row, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { createGroup, type Group, type GroupInput, updateGroup } from './api.ts';
import { groupFailure } from './messages.ts';

type Props = {
  /** The group to edit, 'new' to create one, null when closed. */
  group: Group | 'new' | null;
  onClose: () => void;
  onSaved?: (group: Group) => void;
};

export function GroupFormModal({ group, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={group !== null}
      onClose={onClose}
      title={group === 'new' ? t('iamGroups.form.newTitle') : t('iamGroups.form.editTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {group !== null && (
        <GroupForm
          key={group === 'new' ? 'new' : group.id}
          group={group === 'new' ? null : group}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

function GroupForm({
  group,
  onClose,
  onSaved,
}: {
  group: Group | null;
  onClose: () => void;
  onSaved?: (group: Group) => void;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<GroupInput>({
    defaultValues: { name: group?.name ?? '', description: group?.description ?? '' },
  });
  const save = useMutation({
    mutationFn: async (values: GroupInput) => {
      const input = { name: values.name.trim(), description: values.description };
      return group
        ? updateGroup(await token(), organization.id, group.id, input)
        : createGroup(await token(), organization.id, input);
    },
    onSuccess: async (saved) => {
      notifications.show({
        color: 'green',
        message: t(group ? 'iamGroups.form.saved' : 'iamGroups.form.created', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: ['iam-groups', organization.id] });
      onSaved?.(saved);
      onClose();
    },
    onError: (error) => {
      if (hasStatus(error, 409)) form.setError('name', { message: t('iamGroups.errors.nameTaken') });
      else setFailure(groupFailure(t, 'save', error));
    },
  });

  return (
    <form
      noValidate
      data-testid="group-form"
      onSubmit={form.handleSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
    >
      <Stack gap="sm">
        <TextInput
          label={t('iamGroups.form.name')}
          required
          maxLength={120}
          data-autofocus
          error={form.formState.errors.name?.message}
          {...form.register('name', {
            validate: (name) => name.trim() !== '' || t('iamGroups.form.nameRequired'),
          })}
        />
        <Textarea
          label={t('iamGroups.form.description')}
          autosize
          minRows={2}
          maxLength={1000}
          {...form.register('description')}
        />
        {failure && (
          <Alert color="red" title={t('iamGroups.form.failed')}>
            {failure}
          </Alert>
        )}
        <Row justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {group ? t('iamGroups.form.save') : t('iamGroups.form.create')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
