import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { actionsColumn, RowAction } from '../../shared/ui/RowActions.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { DevicesTabs } from '../devices/DevicesTabs.tsx';
import { fetchModels, type ModelSummary } from './api.ts';
import { formatDate } from './format.ts';
import { ModelDrawer } from './ModelDrawer.tsx';
import { PathSearch } from './PathSearch.tsx';
import { MODELS_KEY } from './query-keys.ts';
import { useDeleteModel } from './use-delete.ts';

/**
 * /devices/models: the organization's models (and those its parents share with it), paged on the server. A model
 * opens in a drawer (`?model=<id>`, `?model=new` for a new one); a search finds paths across every model.
 */
export default function ModelsPage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [openModelId, openModel] = useSearchParam('model');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const canCreate = ability.can('CREATE', 'models');
  const canDelete = ability.can('DELETE', 'models');
  const remove = useDeleteModel();

  const models = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'list', request],
    queryFn: async ({ signal }) => fetchModels(await token(), organization.id, request, signal),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<ColumnDef<ModelSummary>[]>(
    () => [
      {
        id: 'name',
        header: t('dataModels.models.columns.name'),
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <RowLinkButton
              onClick={() => openModel(row.original.id)}
              label={t('dataModels.models.open', { name: row.original.name })}
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
        id: 'description',
        header: t('dataModels.models.columns.description'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" lineClamp={1}>
            {row.original.description}
          </Text>
        ),
      },
      {
        id: 'version',
        header: t('dataModels.models.columns.version'),
        enableSorting: false,
        cell: ({ row }) => t('dataModels.models.version', { version: row.original.currentVersion }),
      },
      {
        id: 'pathCount',
        header: t('dataModels.models.columns.paths'),
        enableSorting: false,
        cell: ({ row }) => new Intl.NumberFormat(i18n.language).format(row.original.pathCount),
      },
      {
        id: 'updatedAt',
        header: t('dataModels.models.columns.updated'),
        cell: ({ row }) => formatDate(row.original.updatedAt, i18n.language),
      },
      actionsColumn(
        t('dataModels.columnsActions'),
        (model) =>
          canDelete &&
          !model.inherited && (
            <RowAction
              danger
              label={t('dataModels.models.deleteNamed', { name: model.name })}
              onClick={() => remove(model)}
            >
              {t('dataModels.delete')}
            </RowAction>
          ),
      ),
    ],
    [t, i18n.language, openModel, canDelete, remove],
  );

  return (
    <Stack gap="md" data-testid="models-page">
      <DevicesTabs />
      <Stack gap={2}>
        <Title order={1} size="h3">
          {t('dataModels.models.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('dataModels.models.intro')}
        </Text>
      </Stack>
      <DataTable<ModelSummary>
        label={t('dataModels.models.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={models}
        rowId={(model) => model.id}
        toolbar={
          canCreate && (
            <Button onClick={() => openModel('new')} data-testid="create-model">
              {t('dataModels.models.create')}
            </Button>
          )
        }
        empty={
          <Stack gap={4} align="center" data-testid="models-empty">
            <Text fw={500}>
              {request.search ? t('dataModels.models.empty.noMatch') : t('dataModels.models.empty.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {request.search
                ? t('dataModels.models.empty.noMatchHint')
                : canCreate
                  ? t('dataModels.models.empty.createHint')
                  : t('dataModels.models.empty.askHint')}
            </Text>
          </Stack>
        }
      />
      <PathSearch onOpenModel={openModel} />
      <ModelDrawer modelId={openModelId} onClose={() => openModel(null)} onOpen={openModel} />
    </Stack>
  );
}
