import { type DashboardDocument, emptyDocument, readDocument } from '@edgeport/dashboard-schema';
import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useMatch, useParams, useSearchParams } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import { LoadFailed } from '../../../shared/ui/LoadFailed.tsx';
import { type Dashboard, fetchDashboard, fetchVersion } from './api.ts';
import { DashboardEditor } from './DashboardEditor.tsx';
import { EDITOR_QUERY_KEY } from './query-keys.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A positive whole version number from the address, else undefined (the current version). */
export function versionParam(raw: string | null): number | undefined {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return undefined;
  const version = Number(raw);
  return version >= 1 ? version : undefined;
}

/**
 * Spec 2 `/dashboards/{projectId}/edit` (optional `version`: edit from that version) and `/dashboards/{projectId}/new`
 * (a new dashboard; the id is a placeholder until the first save). Owners and editors ('r/w') edit; readers are sent
 * to the viewer.
 */
export default function EditorPage() {
  const { projectId = '' } = useParams();
  const isNew = useMatch('/dashboards/:projectId/new') !== null;
  const [params] = useSearchParams();
  const version = versionParam(params.get('version'));
  if (isNew) return <NewDashboard key={projectId} placeholderId={projectId} />;
  return <ExistingDashboard key={`${projectId}:${version ?? 'current'}`} id={projectId} version={version} />;
}

function NewDashboard({ placeholderId }: { placeholderId: string }) {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  if (!ability.can('CREATE', 'dashboards')) {
    return (
      <Alert
        color="orange"
        title={t('dashboardEditor.access.cannotCreate')}
        data-testid="editor-cannot-create"
      >
        <Anchor component={Link} to="/flows/dashboards">
          {t('dashboardEditor.access.toList')}
        </Anchor>
      </Alert>
    );
  }
  return (
    <DashboardEditor session={{ kind: 'new', placeholderId }} initialDocument={emptyDocument('dashboard')} />
  );
}

function ExistingDashboard({ id, version }: { id: string; version: number | undefined }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const valid = UUID.test(id);
  const dashboard = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, id, 'dashboard'],
    queryFn: async ({ signal }) => fetchDashboard(await token(), id, signal),
    enabled: valid,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const canEdit = dashboard.data !== undefined && dashboard.data.access !== 'r';
  // The version being edited is decided once: a later save (here or elsewhere) does not swap the editor's document.
  const pinned = useRef(version);
  if (pinned.current === undefined && dashboard.data) pinned.current = dashboard.data.currentVersion;
  const wanted = pinned.current;
  const loaded = useQuery({
    queryKey: [EDITOR_QUERY_KEY, organization.id, id, 'version', wanted],
    queryFn: async ({ signal }) => {
      const found = await fetchVersion(await token(), id, wanted ?? 1, signal);
      const read = readDocument('dashboard', found.document);
      return { version: found.version, read };
    },
    enabled: canEdit && wanted !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  if (!valid || hasStatus(dashboard.error, 404) || hasStatus(loaded.error, 404)) {
    return (
      <Alert color="orange" title={t('dashboardEditor.access.notFound')} data-testid="editor-not-found">
        <Anchor component={Link} to="/flows/dashboards">
          {t('dashboardEditor.access.toList')}
        </Anchor>
      </Alert>
    );
  }
  const failed = dashboard.isError ? dashboard : loaded.isError ? loaded : undefined;
  if (failed) {
    return (
      <LoadFailed
        title={t('dashboardEditor.loadFailed')}
        message={describeError(t, failed.error)}
        onRetry={() => void failed.refetch()}
        testId="editor-load-failed"
      />
    );
  }
  if (dashboard.data && !canEdit) return <ReadOnly dashboard={dashboard.data} />;
  if (!dashboard.data || !loaded.data) {
    return (
      <Group gap="sm" aria-busy="true" data-testid="editor-loading">
        <Loader size="sm" />
        <Text c="dimmed">{t('common.loading')}</Text>
      </Group>
    );
  }
  if (!loaded.data.read.ok) {
    return (
      <Alert color="red" title={t('dashboardEditor.unreadable')} data-testid="editor-unreadable">
        <Stack gap={2}>
          {loaded.data.read.errors.map((error) => (
            <Text size="xs" ff="monospace" key={error}>
              {error}
            </Text>
          ))}
        </Stack>
      </Alert>
    );
  }
  return (
    <DashboardEditor
      session={{ kind: 'existing', dashboard: dashboard.data, version: loaded.data.version }}
      initialDocument={loaded.data.read.document as DashboardDocument}
    />
  );
}

/** A reader opened the editor: the server would refuse every save, so say so and offer the viewer. */
function ReadOnly({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" title={t('dashboardEditor.access.readOnly')} data-testid="editor-read-only">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('dashboardEditor.access.readOnlyHint', { name: dashboard.name })}</Text>
        <Button
          size="xs"
          component={Link}
          to={`/dashboards/${dashboard.id}`}
          data-testid="editor-open-viewer"
        >
          {t('dashboardEditor.access.openViewer')}
        </Button>
      </Stack>
    </Alert>
  );
}
