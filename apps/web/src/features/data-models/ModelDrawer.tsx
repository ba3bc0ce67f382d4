import {
  Accordion,
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Stack,
  Switch,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchModel, fetchModelVersions, type Model, setModelVisibility } from './api.ts';
import { formatDate } from './format.ts';
import { ModelForm } from './ModelForm.tsx';
import { loadFailure, saveFailure } from './messages.ts';
import { PathsView } from './PathsView.tsx';
import { MODELS_KEY } from './query-keys.ts';
import { useDeleteModel } from './use-delete.ts';
import { useFeatureFlag } from './use-flag.ts';

type Props = {
  /** A model id, 'new' for a new model, or null when closed. */
  modelId: string | null;
  onClose: () => void;
  /** Opens another model (the one just created). */
  onOpen: (id: string) => void;
};

/** A model in a drawer: its paths (editable with UPDATE models), its versions, sharing and deletion. */
export function ModelDrawer({ modelId, onClose, onOpen }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const structs = useFeatureFlag('structs');
  const isNew = modelId === 'new';
  const model = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'model', modelId],
    queryFn: async ({ signal }) => fetchModel(await token(), organization.id, modelId ?? '', signal),
    enabled: modelId !== null && !isNew,
    staleTime: 0,
  });

  return (
    <Drawer
      opened={modelId !== null}
      onClose={onClose}
      position="right"
      size="min(100%, 1180px)"
      title={
        isNew
          ? t('dataModels.editor.newTitle')
          : t('dataModels.editor.title', { name: model.data?.name ?? '' })
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {isNew && <ModelForm model={null} structs={structs} onSaved={(saved) => onOpen(saved.id)} />}
      {!isNew && model.isPending && modelId !== null && (
        <Group gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Group>
      )}
      {!isNew && model.isError && (
        <LoadFailed
          title={t('dataModels.models.loadFailed')}
          message={loadFailure(t, 'model', model.error)}
          onRetry={() => void model.refetch()}
        />
      )}
      {!isNew && model.data && <ModelDetails model={model.data} structs={structs} onClose={onClose} />}
    </Drawer>
  );
}

function ModelDetails({ model, structs, onClose }: { model: Model; structs: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { ability } = useOrganizationApi();
  const canUpdate = ability.can('UPDATE', 'models') && !model.inherited;
  const canDelete = ability.can('DELETE', 'models') && !model.inherited;
  const remove = useDeleteModel(onClose);

  return (
    <Stack gap="md" data-testid="model-details">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Badge variant="light" data-testid="model-version">
              {t('dataModels.models.version', { version: model.currentVersion })}
            </Badge>
            {model.inherited && (
              <Badge color="grape" variant="light">
                {t('dataModels.badges.inherited')}
              </Badge>
            )}
            <Text size="sm" c="dimmed" data-testid="model-usage">
              {t('dataModels.models.usedBy', { count: model.presetCount })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('dataModels.models.updated', { date: formatDate(model.updatedAt, i18n.language) })}
          </Text>
        </Stack>
        <Group gap="sm">
          <VisibilitySwitch model={model} disabled={!canUpdate} />
          {canDelete && (
            <Button color="red" variant="light" onClick={() => remove(model)} data-testid="delete-model">
              {t('dataModels.delete')}
            </Button>
          )}
        </Group>
      </Group>
      {model.inherited && (
        <Alert color="gray" variant="light">
          {t('dataModels.models.inheritedNote')}
        </Alert>
      )}
      <Tabs defaultValue="paths" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="paths">{t('dataModels.models.pathsTab', { count: model.paths.length })}</Tabs.Tab>
          <Tabs.Tab value="versions">{t('dataModels.models.versionsTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="paths" pt="md">
          {canUpdate ? (
            <ModelForm
              key={`${model.id}-${model.currentVersion}-${model.updatedAt}`}
              model={model}
              structs={structs}
              onSaved={() => undefined}
            />
          ) : (
            <Stack gap="sm">
              {model.description && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {model.description}
                </Text>
              )}
              <PathsView paths={model.paths} structs={structs} label={t('dataModels.models.pathsOf')} />
            </Stack>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="versions" pt="md">
          <ModelVersions model={model} structs={structs} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** Spec 3 subOrgsEnabledToView: shares the model with the sub-organizations (read-only there). */
function VisibilitySwitch({ model, disabled }: { model: Model; disabled: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: async (enabled: boolean) =>
      setModelVisibility(await token(), organization.id, model.name, enabled),
    onSuccess: async (saved) => {
      queryClient.setQueryData([MODELS_KEY, organization.id, 'model', saved.id], saved);
      notifications.show({
        color: 'green',
        message: saved.subOrgsEnabledToView
          ? t('dataModels.sharing.sharedModel', { name: saved.name })
          : t('dataModels.sharing.unsharedModel', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id, 'list'] });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('dataModels.sharing.failed'),
        message: saveFailure(t, 'model', error),
      }),
  });
  return (
    <Switch
      label={t('dataModels.sharing.label')}
      checked={
        change.isPending ? (change.variables ?? model.subOrgsEnabledToView) : model.subOrgsEnabledToView
      }
      disabled={disabled || change.isPending}
      onChange={(event) => change.mutate(event.currentTarget.checked)}
      data-testid="model-sharing"
    />
  );
}

function ModelVersions({ model, structs }: { model: Model; structs: boolean }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const versions = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'versions', model.id, model.currentVersion],
    queryFn: async ({ signal }) => fetchModelVersions(await token(), organization.id, model.id, signal),
  });
  if (versions.isPending)
    return (
      <Group gap="sm" aria-busy="true">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Group>
    );
  if (versions.isError)
    return (
      <LoadFailed
        title={t('dataModels.models.versionsFailed')}
        message={loadFailure(t, 'model', versions.error)}
        onRetry={() => void versions.refetch()}
      />
    );
  return (
    <Accordion
      variant="separated"
      multiple
      defaultValue={[String(model.currentVersion)]}
      data-testid="model-versions"
    >
      {versions.data.map((version) => (
        <Accordion.Item key={version.version} value={String(version.version)}>
          <Accordion.Control>
            <Group gap="xs">
              <Text fw={500}>{t('dataModels.models.version', { version: version.version })}</Text>
              {version.current && (
                <Badge size="sm" color="teal" variant="light">
                  {t('dataModels.models.current')}
                </Badge>
              )}
              <Text size="sm" c="dimmed">
                {t('dataModels.paths.count', { count: version.paths.length })}
                {' · '}
                {formatDate(version.createdAt, i18n.language)}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <PathsView
              paths={version.paths}
              structs={structs}
              label={t('dataModels.models.pathsOfVersion', { version: version.version })}
            />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
