import {
  Badge,
  Button,
  Code,
  CopyButton,
  Drawer,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { fetchDeviceConfiguration, fetchPreset, type Preset, setPresetVisibility } from './api.ts';
import { formatDate } from './format.ts';
import { loadFailure, saveFailure } from './messages.ts';
import { PRESETS_KEY } from './query-keys.ts';
import { useDeletePreset } from './use-delete.ts';
import { useFeatureFlag } from './use-flag.ts';

type Props = { presetId: string | null; onClose: () => void };

/** A preset in a drawer: its mappings, the configuration its devices get (JSON), sharing and deletion. */
export function PresetDrawer({ presetId, onClose }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const preset = useQuery({
    queryKey: [PRESETS_KEY, organization.id, 'preset', presetId],
    queryFn: async ({ signal }) => fetchPreset(await token(), organization.id, presetId ?? '', signal),
    enabled: presetId !== null,
    staleTime: 0,
  });
  return (
    <Drawer
      opened={presetId !== null}
      onClose={onClose}
      position="right"
      size="min(100%, 900px)"
      title={t('dataModels.presets.title', { name: preset.data?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {presetId !== null && preset.isPending && (
        <Group gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Group>
      )}
      {preset.isError && (
        <LoadFailed
          title={t('dataModels.presets.loadFailed')}
          message={loadFailure(t, 'preset', preset.error)}
          onRetry={() => void preset.refetch()}
        />
      )}
      {preset.data && presetId !== null && <PresetDetails preset={preset.data} onClose={onClose} />}
    </Drawer>
  );
}

function PresetDetails({ preset, onClose }: { preset: Preset; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { ability } = useOrganizationApi();
  const formulas = useFeatureFlag('formulaMapping');
  const canUpdate = ability.can('UPDATE', 'models') && !preset.inherited;
  const canDelete = ability.can('DELETE', 'models') && !preset.inherited;
  const remove = useDeletePreset(onClose);
  const showFormulas = formulas || preset.mappings.some((mapping) => mapping.formula);
  return (
    <Stack gap="md" data-testid="preset-details">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Badge variant="light">
              {t('dataModels.presets.modelVersion', {
                model: preset.modelName,
                version: preset.modelVersion,
              })}
            </Badge>
            {preset.inherited && (
              <Badge color="grape" variant="light">
                {t('dataModels.badges.inherited')}
              </Badge>
            )}
            <Text size="sm" c="dimmed" data-testid="preset-usage">
              {t('dataModels.presets.usedBy', { count: preset.deviceCount })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('dataModels.presets.createdAt', { date: formatDate(preset.createdAt, i18n.language) })}
          </Text>
        </Stack>
        <Group gap="sm">
          <PresetSharing preset={preset} disabled={!canUpdate} />
          {canDelete && (
            <Button color="red" variant="light" onClick={() => remove(preset)} data-testid="delete-preset">
              {t('dataModels.delete')}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs defaultValue="mappings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="mappings">
            {t('dataModels.presets.mappingsTab', { count: preset.mappings.length })}
          </Tabs.Tab>
          <Tabs.Tab value="configuration">{t('dataModels.presets.configurationTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="mappings" pt="md">
          {preset.mappings.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('dataModels.presets.noMappings')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480} maxHeight="60vh">
              <Table stickyHeader striped aria-label={t('dataModels.presets.mappingsLabel')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('dataModels.mappings.tag')}</Table.Th>
                    <Table.Th>{t('dataModels.mappings.path')}</Table.Th>
                    {showFormulas && <Table.Th>{t('dataModels.mappings.formula')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preset.mappings.map((mapping) => (
                    <Table.Tr key={mapping.tag}>
                      <Table.Td ff="monospace">{mapping.tag}</Table.Td>
                      <Table.Td ff="monospace">{mapping.path}</Table.Td>
                      {showFormulas && <Table.Td ff="monospace">{mapping.formula ?? ''}</Table.Td>}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="configuration" pt="md">
          <DeviceConfigurationView presetId={preset.id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** `GET /presets/{id}/deviceConfiguration` as formatted JSON, with a copy button. */
function DeviceConfigurationView({ presetId }: { presetId: string }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const configuration = useQuery({
    queryKey: [PRESETS_KEY, organization.id, 'configuration', presetId],
    queryFn: async ({ signal }) => fetchDeviceConfiguration(await token(), organization.id, presetId, signal),
  });
  if (configuration.isPending)
    return (
      <Group gap="sm" aria-busy="true">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Group>
    );
  if (configuration.isError)
    return (
      <LoadFailed
        title={t('dataModels.presets.configurationFailed')}
        message={loadFailure(t, 'preset', configuration.error)}
        onRetry={() => void configuration.refetch()}
      />
    );
  const json = JSON.stringify(configuration.data, null, 2);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('dataModels.presets.configurationIntro')}
        </Text>
        <CopyButton value={json}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy}>
              {copied ? t('dataModels.presets.copied') : t('dataModels.presets.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block data-testid="device-configuration" style={{ maxHeight: '60vh', overflow: 'auto' }}>
        {json}
      </Code>
    </Stack>
  );
}

/** PUT /mappings/{id}/subOrgsEnabledToView: sub-organizations may use the preset (read-only). */
function PresetSharing({ preset, disabled }: { preset: Preset; disabled: boolean }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: async (enabled: boolean) =>
      setPresetVisibility(await token(), organization.id, preset.id, enabled),
    onSuccess: async (saved) => {
      queryClient.setQueryData([PRESETS_KEY, organization.id, 'preset', saved.id], saved);
      notifications.show({
        color: 'green',
        message: saved.subOrgsEnabledToView
          ? t('dataModels.sharing.sharedPreset', { name: saved.name })
          : t('dataModels.sharing.unsharedPreset', { name: saved.name }),
      });
      await queryClient.invalidateQueries({ queryKey: [PRESETS_KEY, organization.id, 'list'] });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: t('dataModels.sharing.failed'),
        message: saveFailure(t, 'preset', error),
      }),
  });
  return (
    <Switch
      label={t('dataModels.sharing.label')}
      checked={
        change.isPending ? (change.variables ?? preset.subOrgsEnabledToView) : preset.subOrgsEnabledToView
      }
      disabled={disabled || change.isPending}
      onChange={(event) => change.mutate(event.currentTarget.checked)}
      data-testid="preset-sharing"
    />
  );
}
