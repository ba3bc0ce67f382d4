import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { deleteModel, deletePreset, fetchModel, fetchPreset } from './api.ts';
import { deleteFailure } from './messages.ts';
import { MODELS_KEY, PRESETS_KEY } from './query-keys.ts';

/**
 * Deleting a model or preset after a confirmation. A refusal because presets (or devices) still use it (409) says
 * how many, counted afresh, in the user's words.
 */
export function useDeleteModel(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  return (model: { id: string; name: string }) =>
    confirmDanger({
      title: t('dataModels.models.deleteTitle'),
      message: t('dataModels.models.deleteConfirm', { name: model.name }),
      confirmLabel: t('dataModels.delete'),
      onConfirm: async () => {
        try {
          await deleteModel(await token(), organization.id, model.id);
          notifications.show({
            color: 'green',
            message: t('dataModels.models.deleted', { name: model.name }),
          });
          onDeleted?.();
        } catch (error) {
          let inUse: number | undefined;
          if (hasStatus(error, 409)) {
            inUse = await fetchModel(await token(), organization.id, model.id).then(
              (fresh) => fresh.presetCount,
              () => undefined,
            );
          }
          notifications.show({
            color: 'red',
            title: t('dataModels.models.deleteFailed', { name: model.name }),
            message: deleteFailure(t, 'model', error, inUse),
            autoClose: 10_000,
          });
        } finally {
          await queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id] });
        }
      },
    });
}

export function useDeletePreset(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  return (preset: { id: string; name: string }) =>
    confirmDanger({
      title: t('dataModels.presets.deleteTitle'),
      message: t('dataModels.presets.deleteConfirm', { name: preset.name }),
      confirmLabel: t('dataModels.delete'),
      onConfirm: async () => {
        try {
          await deletePreset(await token(), organization.id, preset.id);
          notifications.show({
            color: 'green',
            message: t('dataModels.presets.deleted', { name: preset.name }),
          });
          onDeleted?.();
        } catch (error) {
          let inUse: number | undefined;
          if (hasStatus(error, 409)) {
            inUse = await fetchPreset(await token(), organization.id, preset.id).then(
              (fresh) => fresh.deviceCount,
              () => undefined,
            );
          }
          notifications.show({
            color: 'red',
            title: t('dataModels.presets.deleteFailed', { name: preset.name }),
            message: deleteFailure(t, 'preset', error, inUse),
            autoClose: 10_000,
          });
        } finally {
          await queryClient.invalidateQueries({ queryKey: [PRESETS_KEY, organization.id] });
          // A preset's model counts its presets.
          await queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id] });
        }
      },
    });
}
