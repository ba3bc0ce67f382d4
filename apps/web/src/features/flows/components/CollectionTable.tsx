import { Button, Group, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { confirmDanger } from '../../../shared/ui/confirm.tsx';
import { DataTable, usePageRequest } from '../../../shared/ui/DataTable.tsx';
import { RowLinkButton } from '../../../shared/ui/RowLinkButton.tsx';
import {
  type Collection,
  collectionKeys,
  createOne,
  type Dashboard,
  deleteOne,
  fetchPage,
  fetchVersion,
  type ListScope,
} from '../../dashboards/api.ts';
import { copyName, type Kind, newDashboardPath, rowActions } from '../logic.ts';
import { flowsFailure } from '../messages.ts';
import { editPath, openPath } from '../paths.ts';
import { AccessBadge } from './AccessBadge.tsx';
import { NewFlowModal } from './NewFlowModal.tsx';
import { ShareDialog } from './ShareDialog.tsx';
import { VersionsDrawer } from './VersionsDrawer.tsx';

const KIND: Record<Collection, Kind> = { dashboards: 'dashboard', flows: 'flow', widgets: 'widget' };
const SCOPES: readonly ListScope[] = ['all', 'mine', 'shared'];

function scopeOf(raw: string | null): ListScope {
  return raw === 'mine' || raw === 'shared' ? raw : 'all';
}

/** Duplicate and delete of a row, each reported in a notification; the lists are refreshed either way. */
function useRowCommands(collection: Collection) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const attempt = async (work: () => Promise<string>, failedTitle: string) => {
      try {
        notifications.show({ color: 'green', message: await work() });
      } catch (error) {
        notifications.show({ color: 'red', title: failedTitle, message: flowsFailure(t, error) });
      } finally {
        await queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
      }
    };
    const duplicate = (row: Dashboard) =>
      attempt(async () => {
        const bearer = await token();
        const current = await fetchVersion(bearer, collection, row.id, row.currentVersion);
        const name = copyName(row.name, (original) => t('flows.duplicate.name', { name: original }));
        await createOne(bearer, collection, {
          name,
          description: row.description,
          document: current.document as Record<string, unknown>,
        });
        return t('flows.duplicate.done', { name });
      }, t('flows.duplicate.failed'));
    const remove = (row: Dashboard) =>
      attempt(async () => {
        await deleteOne(await token(), collection, row.id);
        return t('flows.delete.done', { name: row.name });
      }, t('flows.delete.failed'));
    return { duplicate, remove };
  }, [t, token, collection, queryClient, organization.id]);
}

type RowHandlers = {
  duplicate: (row: Dashboard) => Promise<void>;
  remove: (row: Dashboard) => Promise<void>;
  share: (row: Dashboard) => void;
  versions: (row: Dashboard) => void;
};

/** The table's columns: name (opens the item), owner, access, last change and the actions the access allows. */
function useColumns(kind: Kind, canCreate: boolean, handlers: RowHandlers): ColumnDef<Dashboard>[] {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { duplicate, remove, share, versions } = handlers;
  return useMemo<ColumnDef<Dashboard>[]>(() => {
    const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    return [
      {
        id: 'name',
        accessorKey: 'name',
        header: t('flows.columns.name'),
        cell: ({ row }) =>
          kind === 'widget' ? (
            <Text fw={500} size="sm">
              {row.original.name}
            </Text>
          ) : (
            <RowLinkButton
              onClick={() => void navigate(openPath(kind, row.original.id))}
              label={t('flows.actions.openLabel', { name: row.original.name })}
            >
              {row.original.name}
            </RowLinkButton>
          ),
      },
      {
        id: 'owner',
        header: t('flows.columns.owner'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm">
            {row.original.ownerName ?? (
              <Text span c="dimmed" size="sm">
                {t('flows.noOwner')}
              </Text>
            )}
          </Text>
        ),
      },
      {
        id: 'access',
        header: t('flows.columns.access'),
        enableSorting: false,
        cell: ({ row }) => <AccessBadge access={row.original.access} />,
      },
      {
        id: 'updatedAt',
        accessorKey: 'updatedAt',
        header: t('flows.columns.updated'),
        cell: ({ row }) => <Text size="sm">{dates.format(new Date(row.original.updatedAt))}</Text>,
      },
      {
        id: 'actions',
        header: () => <VisuallyHidden>{t('flows.columns.actions')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) => {
          const item = row.original;
          const allowed = rowActions(kind, item.access, canCreate);
          const action = (key: keyof typeof allowed, onClick: () => void, color?: string) =>
            allowed[key] && (
              <Button
                key={key}
                size="compact-sm"
                variant="subtle"
                color={color}
                onClick={onClick}
                data-testid={`row-${key}`}
                aria-label={t(`flows.actions.${key}Label`, { name: item.name })}
              >
                {t(`flows.actions.${key}`)}
              </Button>
            );
          return (
            <Group gap={2} wrap="nowrap" justify="flex-end">
              {action('open', () => void navigate(openPath(kind, item.id)))}
              {action('edit', () => void navigate(editPath(kind, item.id)))}
              {action('duplicate', () => void duplicate(item))}
              {action('share', () => share(item))}
              {action('versions', () => versions(item))}
              {action(
                'delete',
                () =>
                  confirmDanger({
                    title: t(`flows.delete.title.${kind}`),
                    message: t(`flows.delete.confirm.${kind}`, { name: item.name }),
                    confirmLabel: t('flows.actions.delete'),
                    onConfirm: () => remove(item),
                  }),
                'red',
              )}
            </Group>
          );
        },
      },
    ];
  }, [t, i18n.language, kind, canCreate, navigate, duplicate, remove, share, versions]);
}

/**
 * One collection as a server-paged table (spec 2 /flows, /flows/dashboards, /flows/widgets): name, owner, the
 * caller's access and the last change, with the actions the caller's access allows (spec 4), filtered to all, mine
 * or shared with me (the address keeps the filter as `?scope=`).
 */
export function CollectionTable({ collection }: { collection: Collection }) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const scope = scopeOf(params.get('scope'));
  const kind = KIND[collection];
  const canCreate = ability.can('CREATE', 'dashboards');
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const [sharing, setSharing] = useState<Dashboard | null>(null);
  const [versionsOf, setVersionsOf] = useState<Dashboard | null>(null);
  const [creatingFlow, setCreatingFlow] = useState(false);
  const { duplicate, remove } = useRowCommands(collection);
  const columns = useColumns(kind, canCreate, {
    duplicate,
    remove,
    share: setSharing,
    versions: setVersionsOf,
  });

  const list = useQuery({
    queryKey: collectionKeys.page(organization.id, collection, scope, request),
    queryFn: async ({ signal }) => fetchPage(await token(), collection, scope, request, signal),
    placeholderData: keepPreviousData,
  });

  const changeScope = (next: string) => {
    const updated = new URLSearchParams(params);
    if (next === 'all') updated.delete('scope');
    else updated.set('scope', next);
    setParams(updated, { replace: true });
    setRequest((current) => ({ ...current, page: 0 }));
  };

  const emptyHint = request.search
    ? t('flows.empty.noMatchHint')
    : scope === 'shared'
      ? t('flows.empty.sharedHint')
      : canCreate && kind !== 'widget'
        ? t(`flows.empty.createHint.${kind}`)
        : kind === 'widget'
          ? t('flows.empty.widgetHint')
          : t('flows.empty.askHint');

  return (
    <Stack gap="sm" data-testid="collection-table" data-collection={collection}>
      <DataTable<Dashboard>
        label={t(`flows.tableLabel.${kind}`)}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={list}
        rowId={(row) => row.id}
        empty={
          <Stack gap={4} align="center">
            <Text fw={500}>{request.search ? t('flows.empty.noMatch') : t(`flows.empty.title.${kind}`)}</Text>
            <Text size="sm" c="dimmed">
              {emptyHint}
            </Text>
          </Stack>
        }
        toolbar={
          <>
            <SegmentedControl
              aria-label={t('flows.scope.label')}
              data-testid="flows-scope"
              value={scope}
              onChange={changeScope}
              data={SCOPES.map((value) => ({ value, label: t(`flows.scope.${value}`) }))}
            />
            {canCreate && kind === 'dashboard' && (
              <Button data-testid="new-dashboard" onClick={() => void navigate(newDashboardPath())}>
                {t('flows.create.dashboard')}
              </Button>
            )}
            {canCreate && kind === 'flow' && (
              <Button data-testid="new-flow" onClick={() => setCreatingFlow(true)}>
                {t('flows.create.flow')}
              </Button>
            )}
          </>
        }
      />
      <ShareDialog collection={collection} item={sharing} onClose={() => setSharing(null)} />
      <VersionsDrawer collection={collection} item={versionsOf} onClose={() => setVersionsOf(null)} />
      <NewFlowModal opened={creatingFlow} onClose={() => setCreatingFlow(false)} />
    </Stack>
  );
}
