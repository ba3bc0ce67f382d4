import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { collectionKeys } from '../../dashboards/api.ts';
import { createFlow } from '../api.ts';
import { NAME_MAX } from '../logic.ts';
import { flowsFailure } from '../messages.ts';
import { editPath } from '../paths.ts';

/** "New flow": a name, then the flow (empty, version 1) opens in the flow editor. */
export function NewFlowModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('flows.create.flowTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened && <NewFlowForm onClose={onClose} />}
    </Modal>
  );
}

function NewFlowForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const create = useMutation({
    mutationFn: async (name: string) => createFlow(await token(), name),
    onSuccess: async (flow) => {
      await queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
      onClose();
      await navigate(editPath('flow', flow.id));
    },
    onError: (error) => setFailure(flowsFailure(t, error)),
  });
  return (
    <form
      noValidate
      data-testid="new-flow-form"
      onSubmit={form.handleSubmit(({ name }) => {
        setFailure(null);
        create.mutate(name.trim());
      })}
    >
      <Stack gap="sm">
        <TextInput
          label={t('flows.fields.name')}
          required
          data-autofocus
          maxLength={NAME_MAX}
          error={form.formState.errors.name?.message}
          {...form.register('name', {
            validate: (value) => value.trim().length > 0 || t('flows.validation.nameRequired'),
          })}
        />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {t('flows.create.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
