import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { DevicesTabs } from '../devices/DevicesTabs.tsx';
import { fetchPresets, type PresetSummary } from './api.ts';
import { formatDate } from './format.ts';
import { PresetCreateDrawer, type StartedJob } from './PresetCreateDrawer.tsx';
import { PresetDrawer } from './PresetDrawer.tsx';
import { PresetJobs } from './PresetJobs.tsx';
import { PRESETS_KEY } from './query-keys.ts';
import { useDeletePreset } from './use-delete.ts';

/**
 * /devices/presets: presets bind the data tags a device publishes to the paths of a model version. A preset opens
 * in a drawer (`?preset=<id>`); a new one is made in another drawer, at once or in the background with progress.
 */
export default function PresetsPage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [openPresetId, openPreset] = useSearchParam('preset');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const [creating, setCreating] = useState(false);
  const [jobs, setJobs] = useState<StartedJob[]>([]);
  const canCreate = ability.can('CREATE', 'models');
  const canDelete = ability.can('DELETE', 'models');
  const remove = useDeletePreset();

  const presets = useQuery({
    queryKey: [PRESETS_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchPresets(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<ColumnDef<PresetSummary>[]>(() => {
    const count = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
    return [
      {
        id: 'name',
        header: t('dataModels.presets.columns.name'),
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <RowLinkButton
              onClick={() => openPreset(row.original.id)}
              label={t('dataModels.presets.open', { name: row.original.name })}
            >
              {row.original.name}
            </RowLinkButton>
            {row.original.subOrgsEnabledToView && (
              <Badge size="xs" variant="light" color="blue">
                {t('dataModels.badges.shared')}
              </Badge>
            )}
            {row.original.inherited && (
              <Badge size="xs" variant="light" color="grape">
                {t('dataModels.badges.inherited')}
              </Badge>
            )}
          </Group>
        ),
      },
      {
        id: 'model',
        header: t('dataModels.presets.columns.model'),
        enableSorting: false,
        cell: ({ row }) =>
          t('dataModels.presets.modelVersion', {
            model: row.original.modelName,
            version: row.original.modelVersion,
          }),
      },
      {
        id: 'mappingCount',
        header: t('dataModels.presets.columns.mappings'),
        enableSorting: false,
        cell: ({ row }) => count(row.original.mappingCount),
      },
      {
        id: 'deviceCount',
        header: t('dataModels.presets.columns.devices'),
        enableSorting: false,
        cell: ({ row }) => count(row.original.deviceCount),
      },
      {
        id: 'createdAt',
        header: t('dataModels.presets.columns.created'),
        cell: ({ row }) => formatDate(row.original.createdAt, i18n.language),
      },
      actionsColumn(
        t('dataModels.columnsActions'),
        (preset) =>
          canDelete &&
          !preset.inherited && (
            <RowAction
              danger
              label={t('dataModels.presets.deleteNamed', { name: preset.name })}
              onClick={() => remove(preset)}
            >
              {t('dataModels.delete')}
            </RowAction>
          ),
      ),
    ];
  }, [t, i18n.language, openPreset, canDelete, remove]);

  return (
    <Stack gap="md" data-testid="presets-page">
      <DevicesTabs />
      <Stack gap={2}>
        <Title order={1} size="h3">
          {t('dataModels.presets.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('dataModels.presets.intro')}
        </Text>
      </Stack>
      <PresetJobs
        jobs={jobs}
        onDismiss={(id) => setJobs((current) => current.filter((job) => job.id !== id))}
        onOpenPreset={openPreset}
      />
      <DataTable<PresetSummary>
        label={t('dataModels.presets.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={presets}
        rowId={(preset) => preset.id}
        toolbar={
          canCreate && (
            <Button onClick={() => setCreating(true)} data-testid="create-preset">
              {t('dataModels.presets.createButton')}
            </Button>
          )
        }
        empty={
          <Stack gap={4} align="center" data-testid="presets-empty">
            <Text fw={500}>
              {request.search ? t('dataModels.presets.empty.noMatch') : t('dataModels.presets.empty.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {request.search
                ? t('dataModels.presets.empty.noMatchHint')
                : canCreate
                  ? t('dataModels.presets.empty.createHint')
                  : t('dataModels.presets.empty.askHint')}
            </Text>
          </Stack>
        }
      />
      <PresetCreateDrawer
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          openPreset(id);
        }}
        onJobStarted={(job) => {
          setCreating(false);
          setJobs((current) => [job, ...current]);
        }}
      />
      <PresetDrawer presetId={openPresetId} onClose={() => openPreset(null)} />
    </Stack>
  );
}
