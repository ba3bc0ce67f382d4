import type { FlowDocument, FlowEntry } from '@edgeport/dashboard-schema';
import { Alert, Anchor, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { FlowProblem, Waiting } from '../components/FlowProblem.tsx';
import {
  childrenOf,
  entryOf,
  rootEntries,
  SLOT_PARAM_PREFIX,
  slotDevicesOf,
  trailTo,
  versionParam,
} from '../logic.ts';
import { editPath, entryPath } from '../paths.ts';
import { useFlow } from '../use-flow.ts';
import { FlowCards } from './FlowCards.tsx';

const DashboardView = lazy(() =>
  import('../../dashboards/viewer/DashboardView.tsx').then((module) => ({ default: module.DashboardView })),
);
const FlowEditor = lazy(() => import('../editor/FlowEditor.tsx'));
const NO_SLOTS: Readonly<Record<string, string>> = {};

/**
 * Spec 2 /flow/{flowId}/{dashboardFlowId?} (optional `version`): the flow as a card app. Without an entry it shows
 * the flow's first level; an entry shows its children as cards and what it opens — a dashboard (with the entry's
 * device slots, each overridable by an `ecc_device_{slot}` parameter) or a nested flow's cards. With `edit=1` the
 * same address is the flow editor (editors and owners).
 */
export default function FlowViewerPage() {
  const { flowId = '', dashboardFlowId } = useParams();
  const [params] = useSearchParams();
  const version = versionParam(params);
  if (params.get('edit') === '1') {
    return (
      <Suspense fallback={<Waiting />}>
        <FlowEditor key={`${flowId}-${version ?? 'current'}`} flowId={flowId} version={version} />
      </Suspense>
    );
  }
  return <FlowView flowId={flowId} entryId={dashboardFlowId} version={version} />;
}

function FlowView({ flowId, entryId, version }: { flowId: string; entryId?: string; version?: number }) {
  const { t } = useTranslation();
  const loaded = useFlow(flowId, version);
  if (loaded.state !== 'ready') return <FlowProblem loaded={loaded} />;
  const { flow, document } = loaded;
  const entry = entryId === undefined ? undefined : entryOf(document, entryId);
  const trail = entry ? trailTo(document, entry.id) : [];
  const canEdit = flow.access !== 'r';

  return (
    <Stack gap="md" data-testid="flow-viewer" data-flow-id={flow.id} data-entry-id={entry?.id ?? ''}>
      <Breadcrumbs
        aria-label={t('flows.viewer.breadcrumbs')}
        data-testid="flow-breadcrumbs"
        separatorMargin={6}
      >
        <Anchor component={Link} to="/flows">
          {t('menu.entries.flows')}
        </Anchor>
        <Anchor component={Link} to={entryPath(flow.id, undefined, version)}>
          {flow.name}
        </Anchor>
        {trail.map((step) => (
          <Anchor
            key={step.id}
            component={Link}
            to={entryPath(flow.id, step.id, version)}
            aria-current={step.id === entry?.id ? 'page' : undefined}
          >
            {step.alias}
          </Anchor>
        ))}
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h3">
            {entry ? entry.alias : flow.name}
          </Title>
          {version !== undefined && version !== flow.currentVersion && (
            <Text size="sm" c="orange" data-testid="flow-version-note">
              {t('flows.viewer.versionNote', { version, current: flow.currentVersion })}
            </Text>
          )}
        </Stack>
        {canEdit && (
          <Button
            variant="default"
            component={Link}
            to={editPath('flow', flow.id, version)}
            data-testid="flow-edit"
          >
            {t('flows.viewer.edit')}
          </Button>
        )}
      </Group>
      {entryId !== undefined && !entry ? (
        <Alert color="orange" title={t('flows.viewer.entryMissing')} data-testid="flow-entry-missing">
          <Anchor component={Link} to={entryPath(flow.id, undefined, version)}>
            {t('flows.viewer.backToStart', { name: flow.name })}
          </Anchor>
        </Alert>
      ) : entry ? (
        <EntryContent flowId={flow.id} document={document} entry={entry} version={version} />
      ) : (
        <FirstLevel flowId={flow.id} document={document} version={version} canEdit={canEdit} />
      )}
    </Stack>
  );
}

function FirstLevel({
  flowId,
  document,
  version,
  canEdit,
}: {
  flowId: string;
  document: FlowDocument;
  version?: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const roots = rootEntries(document);
  if (roots.length === 0) {
    return (
      <Stack gap={4} align="center" p="xl" data-testid="flow-empty">
        <Text fw={500}>{t('flows.viewer.empty')}</Text>
        <Text size="sm" c="dimmed">
          {canEdit ? t('flows.viewer.emptyEditHint') : t('flows.viewer.emptyAskHint')}
        </Text>
      </Stack>
    );
  }
  return (
    <FlowCards
      entries={roots}
      label={t('flows.viewer.cardsLabel')}
      hrefOf={(entry) => entryPath(flowId, entry.id, version)}
      childCount={(entry) => childrenOf(document, entry.id).length}
    />
  );
}

function EntryContent({
  flowId,
  document,
  entry,
  version,
}: {
  flowId: string;
  document: FlowDocument;
  entry: FlowEntry;
  version?: number;
}) {
  const { t } = useTranslation();
  const children = childrenOf(document, entry.id);
  return (
    <Stack gap="lg">
      {children.length > 0 && (
        <FlowCards
          entries={children}
          label={t('flows.viewer.childrenLabel', { alias: entry.alias })}
          hrefOf={(child) => entryPath(flowId, child.id, version)}
          childCount={(child) => childrenOf(document, child.id).length}
        />
      )}
      {entry.target.kind === 'dashboard' ? (
        <EntryDashboard
          dashboardId={entry.target.dashboardId}
          version={entry.target.version}
          slots={entry.target.slots ?? NO_SLOTS}
        />
      ) : (
        <NestedFlow flowId={entry.target.flowId} />
      )}
    </Stack>
  );
}

/** A dashboard entry: the dashboard viewer with the entry's devices, each slot overridable in the address. */
function EntryDashboard({
  dashboardId,
  version,
  slots,
}: {
  dashboardId: string;
  version?: number;
  slots: Readonly<Record<string, string>>;
}) {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `query` stands for the parameters.
  const slotDevices = useMemo(() => ({ ...slots, ...slotDevicesOf(params) }), [slots, query]);
  const onSlotChange = useCallback(
    (slot: string, deviceId: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (deviceId) next.set(`${SLOT_PARAM_PREFIX}${slot}`, deviceId);
          else next.delete(`${SLOT_PARAM_PREFIX}${slot}`);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return (
    <div data-testid="flow-dashboard" data-dashboard-id={dashboardId}>
      <Suspense fallback={<Waiting />}>
        <DashboardView
          dashboardId={dashboardId}
          version={version}
          slotDevices={slotDevices}
          onSlotChange={onSlotChange}
          titleOrder={2}
        />
      </Suspense>
    </div>
  );
}

/** A nested-flow entry: that flow's first level as cards; a card opens the entry in the nested flow. */
function NestedFlow({ flowId }: { flowId: string }) {
  const { t } = useTranslation();
  const loaded = useFlow(flowId);
  if (loaded.state !== 'ready') return <FlowProblem loaded={loaded} />;
  const roots = rootEntries(loaded.document);
  return (
    <Stack gap="sm" data-testid="flow-nested" data-flow-id={flowId}>
      <Group justify="space-between">
        <Title order={2} size="h4">
          {loaded.flow.name}
        </Title>
        <Anchor component={Link} to={entryPath(flowId, undefined)}>
          {t('flows.viewer.openFlow', { name: loaded.flow.name })}
        </Anchor>
      </Group>
      {roots.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="flow-empty">
          {t('flows.viewer.empty')}
        </Text>
      ) : (
        <FlowCards
          entries={roots}
          label={t('flows.viewer.cardsOf', { name: loaded.flow.name })}
          hrefOf={(entry) => entryPath(flowId, entry.id)}
          childCount={(entry) => childrenOf(loaded.document, entry.id).length}
        />
      )}
    </Stack>
  );
}
