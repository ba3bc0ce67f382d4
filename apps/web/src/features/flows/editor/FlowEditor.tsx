import '@xyflow/react/dist/style.css';
import { type FlowDocument, type FlowEntry, readDocument } from '@edgeport/dashboard-schema';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  MarkerType,
  type NodeChange,
  ReactFlow,
} from '@xyflow/react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { showEditorMessage } from '../../../shared/ui/editor-messages.ts';
import { useLeaveGuard } from '../../../shared/ui/use-leave-guard.ts';
import { collectionKeys, createVersion, type Dashboard, fetchAll } from '../../dashboards/api.ts';
import { FlowProblem } from '../components/FlowProblem.tsx';
import {
  entryOf,
  moveEntry,
  newEntryId,
  placeFor,
  removeEntries,
  replaceEntry,
  setParent,
  subtreeOf,
} from '../logic.ts';
import { flowsFailure } from '../messages.ts';
import { entryPath } from '../paths.ts';
import { useFlow } from '../use-flow.ts';
import { type EntryDraft, EntryForm } from './EntryForm.tsx';
import { EntryNode, type EntryNodeType } from './EntryNode.tsx';

const NODE_TYPES = { entry: EntryNode };
const DELETE_KEYS = ['Delete', 'Backspace'];

/**
 * The flow editor, the flow viewer's edit mode (`/flow/{id}?edit=1`, optional `version` to edit from that version):
 * the entries as nodes, parent → child as edges. Add an entry (a dashboard or a flow, alias, icon, colour, optional
 * devices for the dashboard's slots), connect two entries to set the parent (a cycle is refused), drag to arrange,
 * delete with the Delete key or the buttons. Save posts a new version that becomes the current one.
 */
export default function FlowEditor({ flowId, version }: { flowId: string; version?: number }) {
  const { t } = useTranslation();
  const loaded = useFlow(flowId, version);
  if (loaded.state !== 'ready') return <FlowProblem loaded={loaded} listLink={false} />;
  if (loaded.flow.access === 'r') {
    return (
      <Alert color="orange" title={t('flows.editor.readOnly')} data-testid="flow-read-only">
        <Anchor component={Link} to={entryPath(flowId, undefined)}>
          {t('flows.editor.backToViewer')}
        </Anchor>
      </Alert>
    );
  }
  return (
    <EditorBody
      flowId={flowId}
      name={loaded.flow.name}
      baseVersion={loaded.version}
      initial={loaded.document}
    />
  );
}

function toNodes(
  document: FlowDocument,
  previous: readonly EntryNodeType[],
  names: ReadonlyMap<string, string>,
): EntryNodeType[] {
  const before = new Map(previous.map((node) => [node.id, node]));
  return document.entries.map((entry) => {
    const old = before.get(entry.id);
    const targetId = entry.target.kind === 'dashboard' ? entry.target.dashboardId : entry.target.flowId;
    return {
      ...(old ?? {}),
      id: entry.id,
      type: 'entry',
      position: entry.position,
      data: { entry, targetName: names.get(targetId) },
      ariaLabel: entry.alias,
    };
  });
}

function toEdges(document: FlowDocument, previous: readonly Edge[]): Edge[] {
  const selected = new Set(previous.filter((edge) => edge.selected).map((edge) => edge.id));
  const ids = new Set(document.entries.map((entry) => entry.id));
  return document.entries
    .filter((entry) => entry.parentId !== undefined && ids.has(entry.parentId))
    .map((entry) => {
      const id = `${entry.parentId}->${entry.id}`;
      return {
        id,
        source: entry.parentId as string,
        target: entry.id,
        selected: selected.has(id),
        markerEnd: { type: MarkerType.ArrowClosed },
      };
    });
}

/**
 * What entries may open: the organization's dashboards and the other flows (a flow does not open itself), and the
 * names of all of them by id for the nodes.
 */
function useTargets(flowId: string) {
  const { organization, token } = useOrganizationApi();
  const dashboards = useQuery({
    queryKey: collectionKeys.picker(organization.id, 'dashboards'),
    queryFn: async ({ signal }) => fetchAll(await token(), 'dashboards', signal),
  });
  const flows = useQuery({
    queryKey: collectionKeys.picker(organization.id, 'flows'),
    queryFn: async ({ signal }) => fetchAll(await token(), 'flows', signal),
  });
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const item of [...(dashboards.data ?? []), ...(flows.data ?? [])]) map.set(item.id, item.name);
    return map;
  }, [dashboards.data, flows.data]);
  const otherFlows = useMemo<Dashboard[]>(
    () => (flows.data ?? []).filter((flow) => flow.id !== flowId),
    [flows.data, flowId],
  );
  return { dashboards: dashboards.data ?? [], otherFlows, names };
}

function EditorBody({
  flowId,
  name,
  baseVersion,
  initial,
}: {
  flowId: string;
  name: string;
  baseVersion: number;
  initial: FlowDocument;
}) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const scheme = useComputedColorScheme('light');
  const [document, setDocument] = useState(initial);
  const [dirty, setDirty] = useState(false);
  const [comment, setComment] = useState('');
  const [form, setForm] = useState<{ mode: 'add' } | { mode: 'edit'; id: string } | null>(null);
  const leaving = useRef(false);
  useLeaveGuard(dirty, leaving, {
    modalId: 'flow-editor-leave',
    texts: 'flows.editor.leave',
    testId: 'flow-leave',
  });

  const { dashboards, otherFlows, names } = useTargets(flowId);

  const [nodes, setNodes] = useState<EntryNodeType[]>(() => toNodes(initial, [], names));
  const [edges, setEdges] = useState<Edge[]>(() => toEdges(initial, []));
  const namedNodes = useMemo(
    () =>
      nodes.map((node) => {
        const target = node.data.entry.target;
        const targetName = names.get(target.kind === 'dashboard' ? target.dashboardId : target.flowId);
        return targetName === node.data.targetName ? node : { ...node, data: { ...node.data, targetName } };
      }),
    [nodes, names],
  );

  /** Every change of the document goes through here: the canvas follows it and the editor is dirty. */
  const commit = useCallback(
    (next: FlowDocument) => {
      setDocument(next);
      setNodes((previous) => toNodes(next, previous, names));
      setEdges((previous) => toEdges(next, previous));
      setDirty(true);
    },
    [names],
  );

  const refuseCycle = useCallback(
    () =>
      showEditorMessage({
        color: 'orange',
        title: t('flows.editor.cycleTitle'),
        message: t('flows.editor.cycle'),
      }),
    [t],
  );

  const onNodesChange = useCallback((changes: NodeChange<EntryNodeType>[]) => {
    setNodes((previous) => applyNodeChanges(changes, previous));
    const moved = changes.filter(
      (change): change is Extract<NodeChange<EntryNodeType>, { type: 'position' }> =>
        change.type === 'position' && change.dragging === false && change.position !== undefined,
    );
    if (moved.length > 0) {
      setDocument((current) =>
        moved.reduce(
          (next, change) => (change.position ? moveEntry(next, change.id, change.position) : next),
          current,
        ),
      );
      setDirty(true);
    }
  }, []);
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => setEdges((previous) => applyEdgeChanges(changes, previous)),
    [],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const outcome = setParent(document, connection.target, connection.source);
      if (outcome.ok) commit(outcome.document);
      else if (outcome.reason === 'cycle') refuseCycle();
    },
    [document, commit, refuseCycle],
  );

  const deleteElements = useCallback(
    (entryIds: readonly string[], edgeIds: readonly string[]) => {
      let next = document;
      const removed = new Set(entryIds);
      // An edge cut on its own makes its child a first-level entry; edges of a deleted entry go with it (its
      // children move up to its parent).
      for (const edgeId of edgeIds) {
        const edge = edges.find((candidate) => candidate.id === edgeId);
        if (edge && !removed.has(edge.target) && !removed.has(edge.source)) {
          const outcome = setParent(next, edge.target, undefined);
          if (outcome.ok) next = outcome.document;
        }
      }
      if (removed.size > 0) next = removeEntries(next, removed);
      if (next !== document) commit(next);
    },
    [document, edges, commit],
  );

  const selectedEntries = nodes.filter((node) => node.selected).map((node) => node.id);
  const selectedEdges = edges.filter((edge) => edge.selected).map((edge) => edge.id);

  const editing = form?.mode === 'edit' ? entryOf(document, form.id) : undefined;
  const parentChoices = useMemo(() => {
    const excluded = editing ? subtreeOf(document, editing.id) : new Set<string>();
    return document.entries.filter((entry) => !excluded.has(entry.id));
  }, [document, editing]);

  const applyDraft = (draft: EntryDraft): string | null => {
    if (editing) {
      const outcome = replaceEntry(document, { ...draft, id: editing.id, position: editing.position });
      if (!outcome.ok) return outcome.reason === 'cycle' ? t('flows.editor.cycle') : t('flows.editor.gone');
      commit(outcome.document);
    } else {
      const entry: FlowEntry = {
        ...draft,
        id: newEntryId(document.entries),
        position: placeFor(document, draft.parentId),
      };
      commit({ ...document, entries: [...document.entries, entry] });
    }
    setForm(null);
    return null;
  };

  const save = useMutation({
    mutationFn: async () => {
      const checked = readDocument('flow', document);
      if (!checked.ok) throw new Error(checked.errors.join('; '));
      return createVersion(await token(), 'flows', flowId, checked.document, comment.trim() || undefined);
    },
    onSuccess: async (saved) => {
      showEditorMessage({
        color: 'green',
        message: t('flows.editor.saved', { name, version: saved.version }),
      });
      await queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
      leaving.current = true;
      setDirty(false);
      await navigate(entryPath(flowId, undefined));
    },
    onError: (error) =>
      showEditorMessage({
        color: 'red',
        title: t('flows.editor.saveFailed'),
        message: flowsFailure(t, error),
      }),
  });

  return (
    <Stack gap="sm" data-testid="flow-editor" data-dirty={dirty}>
      <EditorHeader
        name={name}
        baseVersion={baseVersion}
        flowId={flowId}
        comment={comment}
        onComment={setComment}
        onAdd={() => setForm({ mode: 'add' })}
        canDeleteSelected={selectedEntries.length > 0 || selectedEdges.length > 0}
        onDeleteSelected={() => deleteElements(selectedEntries, selectedEdges)}
        saving={save.isPending}
        onSave={() => save.mutate()}
      />
      <Group align="stretch" gap="sm" wrap="nowrap">
        <Box
          flex={1}
          h="calc(100dvh - 220px)"
          mih={360}
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
          data-testid="flow-canvas"
        >
          <ReactFlow<EntryNodeType, Edge>
            nodes={namedNodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onDelete={({ nodes: gone, edges: cut }) =>
              deleteElements(
                gone.map((node) => node.id),
                cut.map((edge) => edge.id),
              )
            }
            onNodeDoubleClick={(_event, node) => setForm({ mode: 'edit', id: node.id })}
            deleteKeyCode={DELETE_KEYS}
            colorMode={scheme}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls />
          </ReactFlow>
        </Box>
        <Paper withBorder p="sm" w={260} visibleFrom="sm">
          <EntryList
            entries={document.entries}
            onEdit={(id) => setForm({ mode: 'edit', id })}
            onDelete={(id) => deleteElements([id], [])}
          />
        </Paper>
      </Group>
      {document.entries.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="flow-editor-empty">
          {t('flows.editor.emptyHint')}
        </Text>
      )}
      <EntryForm
        opened={form !== null}
        entry={editing}
        dashboards={dashboards}
        flows={otherFlows}
        parents={parentChoices}
        onSubmit={applyDraft}
        onClose={() => setForm(null)}
      />
    </Stack>
  );
}

/** The editor's title and its commands: add, delete the selection, the version comment, close and save. */
function EditorHeader({
  name,
  baseVersion,
  flowId,
  comment,
  onComment,
  onAdd,
  canDeleteSelected,
  onDeleteSelected,
  saving,
  onSave,
}: {
  name: string;
  baseVersion: number;
  flowId: string;
  comment: string;
  onComment: (comment: string) => void;
  onAdd: () => void;
  canDeleteSelected: boolean;
  onDeleteSelected: () => void;
  saving: boolean;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Stack gap={0}>
        <Title order={1} size="h3">
          {t('flows.editor.title', { name })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('flows.editor.basedOn', { version: baseVersion })}
        </Text>
      </Stack>
      <Group gap="xs" wrap="wrap">
        <Button data-testid="flow-add-entry" onClick={onAdd}>
          {t('flows.editor.add')}
        </Button>
        <Button
          variant="default"
          color="red"
          data-testid="flow-delete-selected"
          disabled={!canDeleteSelected}
          onClick={onDeleteSelected}
        >
          {t('flows.editor.deleteSelected')}
        </Button>
        <TextInput
          aria-label={t('flows.editor.comment')}
          placeholder={t('flows.editor.comment')}
          value={comment}
          maxLength={500}
          onChange={(event) => onComment(event.currentTarget.value)}
          w={220}
        />
        <Button variant="default" component={Link} to={entryPath(flowId, undefined)}>
          {t('flows.editor.close')}
        </Button>
        <Button data-testid="flow-save" loading={saving} onClick={onSave}>
          {t('flows.editor.save')}
        </Button>
      </Group>
    </Group>
  );
}

/** The entries as a list with their own edit and delete buttons, so everything is reachable from the keyboard. */
function EntryList({
  entries,
  onEdit,
  onDelete,
}: {
  entries: readonly FlowEntry[];
  onEdit: (id: string) => void;
  onDelete: (id: string) => void;
}) {
  const { t } = useTranslation();
  const aliasOf = new Map(entries.map((entry) => [entry.id, entry.alias]));
  return (
    <Stack gap="xs" h="100%">
      <Text fw={600} size="sm">
        {t('flows.editor.entries', { count: entries.length })}
      </Text>
      <ScrollArea flex={1}>
        <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.map((entry) => (
            <li key={entry.id} data-testid="flow-entry-item" data-entry-id={entry.id}>
              <Text size="sm" fw={500} truncate="end">
                {entry.alias}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {entry.parentId && aliasOf.has(entry.parentId)
                  ? t('flows.editor.under', { alias: aliasOf.get(entry.parentId) })
                  : t('flows.editor.firstLevel')}
              </Text>
              <Group gap={4}>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-label={t('flows.editor.editEntry', { alias: entry.alias })}
                  onClick={() => onEdit(entry.id)}
                >
                  {t('flows.actions.edit')}
                </Button>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  aria-label={t('flows.editor.deleteEntry', { alias: entry.alias })}
                  onClick={() => onDelete(entry.id)}
                >
                  {t('flows.actions.delete')}
                </Button>
              </Group>
            </li>
          ))}
        </Stack>
      </ScrollArea>
    </Stack>
  );
}
