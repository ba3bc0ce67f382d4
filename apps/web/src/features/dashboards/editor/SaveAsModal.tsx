import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { memo, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type Props = {
  opened: boolean;
  saving: boolean;
  onCancel: () => void;
  onSave: (name: string) => void;
};

/** The first save of a new dashboard asks for its name. Memoized (closed, it has nothing to render again). */
export const SaveAsModal = memo(function SaveAsModal({ opened, saving, onCancel, onSave }: Props) {
  const { t } = useTranslation();
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const { register, handleSubmit, reset, formState } = form;
  useEffect(() => {
    if (opened) reset({ name: '' });
  }, [opened, reset]);
  return (
    <Modal opened={opened} onClose={onCancel} title={t('dashboardEditor.saveAs.title')} centered>
      <form onSubmit={handleSubmit(({ name }) => onSave(name.trim()))} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('dashboardEditor.saveAs.name')}
            data-autofocus
            withAsterisk
            {...register('name', {
              validate: (value) => {
                const trimmed = value.trim();
                if (trimmed === '') return t('dashboardEditor.saveAs.nameRequired');
                if (trimmed.length > 120) return t('dashboardEditor.saveAs.nameTooLong', { max: 120 });
                return true;
              },
            })}
            error={formState.errors.name?.message}
            data-testid="save-name-input"
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving} data-testid="save-name-submit">
              {t('dashboardEditor.saveAs.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
});
