import { Badge, Button, Center, Drawer, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { confirmDanger } from '../../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../../shared/ui/LoadFailed.tsx';
import {
  type Collection,
  collectionKeys,
  type Dashboard,
  deleteVersion,
  deriveVersion,
  fetchVersions,
  makeCurrent,
  type VersionSummary,
} from '../../dashboards/api.ts';
import { type Kind, nextVersion, versionActions } from '../logic.ts';
import { flowsFailure } from '../messages.ts';
import { editPath, openPath } from '../paths.ts';

const KIND: Record<Collection, Kind> = { dashboards: 'dashboard', flows: 'flow', widgets: 'widget' };

/**
 * The versions of a dashboard, flow or widget (spec 4), newest first: open one in the viewer, edit from it, derive a
 * new version from it (not current until made so), make it current and delete it (owners; never the current one).
 */
export function VersionsDrawer({
  collection,
  item,
  onClose,
}: {
  collection: Collection;
  item: Dashboard | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={item !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={item ? t('flows.versions.title', { name: item.name }) : ''}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {item && <VersionList collection={collection} item={item} />}
    </Drawer>
  );
}

function VersionList({ collection, item }: { collection: Collection; item: Dashboard }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const versions = useQuery({
    queryKey: collectionKeys.versions(organization.id, collection, item.id),
    queryFn: async ({ signal }) => fetchVersions(await token(), collection, item.id, signal),
  });
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const run: Run = async (key, step, done, failed) => {
    setBusy(key);
    try {
      await step();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      notifications.show({ color: 'red', title: failed, message: flowsFailure(t, error) });
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
    }
  };

  if (versions.isPending) {
    return (
      <Center p="lg">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (versions.isError) {
    return (
      <LoadFailed
        title={t('flows.versions.loadFailed')}
        message={flowsFailure(t, versions.error)}
        onRetry={() => void versions.refetch()}
      />
    );
  }
  const list = [...versions.data].sort((a, b) => b.version - a.version);
  if (list.length === 0) {
    return (
      <Text c="dimmed" size="sm" ta="center" p="lg">
        {t('flows.versions.empty')}
      </Text>
    );
  }
  const next = nextVersion(list);

  return (
    <Stack gap="sm" data-testid="versions-drawer">
      <Text size="sm" c="dimmed">
        {t('flows.versions.intro')}
      </Text>
      {list.map((version) => (
        <VersionRow
          key={version.version}
          version={version}
          collection={collection}
          item={item}
          next={next}
          dates={dates}
          busy={busy}
          run={run}
        />
      ))}
    </Stack>
  );
}

type Run = (key: string, step: () => Promise<unknown>, done: string, failed: string) => Promise<void>;

/** One version: number, current and derived-from badges, date, author, comment, and the actions allowed. */
function VersionRow({
  version,
  collection,
  item,
  next,
  dates,
  busy,
  run,
}: {
  version: VersionSummary;
  collection: Collection;
  item: Dashboard;
  /** The number a derived version gets. */
  next: number;
  dates: Intl.DateTimeFormat;
  /** The step running (its key), if any: the buttons wait for it. */
  busy: string | null;
  run: Run;
}) {
  const { t } = useTranslation();
  const { token } = useOrganizationApi();
  const navigate = useNavigate();
  const kind = KIND[collection];
  const allowed = versionActions(kind, item.access, version.current);
  const v = version.version;
  const label = (key: string) => t(`flows.versions.${key}Label`, { version: v });
  return (
    <Paper withBorder p="sm" data-testid="version-row" data-version={v} data-current={version.current}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text fw={600}>{t('flows.versions.number', { version: v })}</Text>
            {version.current && (
              <Badge color="green" variant="light" tt="none" data-testid="version-current">
                {t('flows.versions.current')}
              </Badge>
            )}
            {version.derivedFrom !== null && (
              <Badge variant="outline" tt="none">
                {t('flows.versions.derivedFrom', { version: version.derivedFrom })}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {dates.format(new Date(version.createdAt))}
          </Text>
        </Group>
        <Text size="sm">
          {t('flows.versions.author', { name: version.createdByName ?? t('flows.versions.unknownAuthor') })}
        </Text>
        {version.comment && (
          <Text size="sm" c="dimmed">
            {version.comment}
          </Text>
        )}
        <Group gap={4}>
          {allowed.open && (
            <Button
              size="compact-sm"
              variant="light"
              aria-label={label('open')}
              onClick={() => void navigate(openPath(kind, item.id, v))}
            >
              {t('flows.versions.open')}
            </Button>
          )}
          {allowed.edit && (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-label={label('edit')}
              onClick={() => void navigate(editPath(kind, item.id, v))}
            >
              {t('flows.versions.edit')}
            </Button>
          )}
          {allowed.derive && (
            <Button
              size="compact-sm"
              variant="subtle"
              data-testid="version-derive"
              aria-label={label('derive')}
              loading={busy === `derive-${v}`}
              disabled={busy !== null}
              onClick={() =>
                void run(
                  `derive-${v}`,
                  async () => deriveVersion(await token(), collection, item.id, v, next),
                  t('flows.versions.derived', { version: next, from: v }),
                  t('flows.versions.deriveFailed'),
                )
              }
            >
              {t('flows.versions.derive')}
            </Button>
          )}
          {allowed.makeCurrent && (
            <Button
              size="compact-sm"
              variant="subtle"
              data-testid="version-make-current"
              aria-label={label('makeCurrent')}
              loading={busy === `current-${v}`}
              disabled={busy !== null}
              onClick={() =>
                void run(
                  `current-${v}`,
                  async () => makeCurrent(await token(), collection, item.id, v),
                  t('flows.versions.madeCurrent', { version: v }),
                  t('flows.versions.makeCurrentFailed'),
                )
              }
            >
              {t('flows.versions.makeCurrent')}
            </Button>
          )}
          {allowed.delete && (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={label('delete')}
              disabled={busy !== null}
              onClick={() =>
                confirmDanger({
                  title: t('flows.versions.deleteTitle'),
                  message: t('flows.versions.deleteConfirm', { version: v, name: item.name }),
                  confirmLabel: t('flows.versions.delete'),
                  onConfirm: () =>
                    run(
                      `delete-${v}`,
                      async () => deleteVersion(await token(), collection, item.id, v),
                      t('flows.versions.deleted', { version: v }),
                      t('flows.versions.deleteFailed'),
                    ),
                })
              }
            >
              {t('flows.versions.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
