import type { DashboardDocument, Page, Widget, WidgetType } from '@edgeport/dashboard-schema';
import { Box, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import { showEditorMessage } from '../../../shared/ui/editor-messages.ts';
import { useLeaveGuard } from '../../../shared/ui/use-leave-guard.ts';
import { isFeatureEnabled } from '../../experimental/flags.ts';
import { collectionKeys } from '../api.ts';
import { isInDialog } from '../model/shortcuts.ts';
import type { EditorStore } from '../model/store.ts';
import type { ClipboardPayload, EditorCommands, EditorState } from '../model/types.ts';
import { useEditorSelector, useEditorStore } from '../model/useDashboardEditor.ts';
import { useEditorShortcuts } from '../model/useEditorShortcuts.ts';
import { useSlotDevices } from '../viewer/use-slot-devices.ts';
import type { WidgetRuntime } from '../widgets/types.ts';
import { useDashboardRuntime } from '../widgets/useDashboardRuntime.ts';
import { createDashboard, type Dashboard, saveVersion } from './api.ts';
import { Canvas } from './Canvas.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import classes from './editor.module.css';
import { Inspector } from './inspector/Inspector.tsx';
import { rebaseEdit } from './inspector/rebase-edit.ts';
import { type PageSummary, PagesPanel, samePages } from './PagesPanel.tsx';
import { Palette } from './Palette.tsx';
import { EDITOR_QUERY_KEY } from './query-keys.ts';
import { SaveAsModal } from './SaveAsModal.tsx';
import { useHistorySteps } from './use-history-steps.ts';
import { useStableCallback } from './use-stable-callback.ts';

export type EditorSession =
  | { kind: 'new'; placeholderId: string }
  | { kind: 'existing'; dashboard: Dashboard; version: number };

const NO_REQUESTED_DEVICES: Readonly<Record<string, string | undefined>> = {};

type Props = { session: EditorSession; initialDocument: DashboardDocument };

/** The editor itself: toolbar, pages and palette, the canvas, the inspector; shortcuts, save and the leave guard. */
export function DashboardEditor({ session, initialDocument }: Props) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The editor page itself renders again only when what it holds changes (whether the document is saved, its
  // slots, variables and charts for the live values); the canvas, the toolbar's commands, the pages and the inspector
  // each follow their own part of the state.
  const store = useEditorStore(initialDocument);
  const { commands, stepping } = useHistorySteps(store.commands);
  const dirty = useEditorSelector(store, selectDirty);
  const document = useEditorSelector(store, selectDocument, sameForRuntime);
  const [saving, setSaving] = useState(false);
  const [naming, setNaming] = useState(false);
  const [version, setVersion] = useState(session.kind === 'existing' ? session.version : undefined);
  const [showJson] = useState(() => isFeatureEnabled('editorInspector'));
  const leaving = useRef(false);
  useLeaveGuard(dirty, leaving, {
    modalId: 'dashboard-editor-leave',
    texts: 'dashboardEditor.leave',
    testId: 'editor-leave',
  });

  const dashboardId = session.kind === 'existing' ? session.dashboard.id : undefined;
  const name = session.kind === 'existing' ? session.dashboard.name : t('dashboardEditor.newName');

  // The editor shows live values of each slot's default device (else the first device of its model).
  const slotDevices = useSlotDevices(document.slots, NO_REQUESTED_DEVICES);
  const runtime = useDashboardRuntime({
    document,
    slotDevices: slotDevices.devices,
    mode: 'edit',
    dashboardId,
    deviceLabels: slotDevices.labels,
  });

  const clipboard = useEditorShortcuts(commands, {
    enabled: !saving && !naming,
    onProtected: () =>
      showEditorMessage({
        id: 'editor-page-protected',
        color: 'orange',
        message: t('dashboardEditor.messages.pageProtected'),
      }),
    onCopied: (payload, cut) =>
      showEditorMessage({
        id: 'editor-copied',
        autoClose: 2000,
        message: t(cut ? 'dashboardEditor.messages.cut' : 'dashboardEditor.messages.copied', {
          count: payload.widgets.length,
        }),
      }),
    onNothingToPaste: () =>
      showEditorMessage({
        id: 'editor-nothing-to-paste',
        color: 'orange',
        message: t('dashboardEditor.messages.nothingToPaste'),
      }),
  });

  const afterSave = useCallback(
    (saved: DashboardDocument, savedVersion: number) => {
      commands.markSaved(saved);
      setVersion(savedVersion);
      // The lists (/flows, /directaccess) and the viewer's copy of the dashboard show the new version.
      void queryClient.invalidateQueries({ queryKey: collectionKeys.all(organization.id) });
      showEditorMessage({
        color: 'green',
        message: t('dashboardEditor.messages.saved', { version: savedVersion }),
      });
    },
    [commands, t, queryClient, organization.id],
  );

  const saveFailed = useCallback(
    (error: unknown) =>
      showEditorMessage({
        id: 'editor-save-failed',
        color: 'red',
        title: t('dashboardEditor.messages.saveFailed'),
        message: hasStatus(error, 403) ? t('dashboardEditor.access.readOnly') : describeError(t, error),
      }),
    [t],
  );

  /** The document with the edit of a field still being typed in (leaving the field applies it). */
  const settledDocument = async () => {
    const active = window.document.activeElement;
    if (active instanceof HTMLElement && active.matches('input, textarea')) {
      active.blur();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return store.getState().document;
  };

  const save = async () => {
    if (saving) return;
    if (session.kind === 'new') {
      await settledDocument();
      setNaming(true);
      return;
    }
    setSaving(true);
    const sent = await settledDocument();
    try {
      const created = await saveVersion(await token(), session.dashboard.id, sent);
      afterSave(sent, created.version);
      void queryClient.invalidateQueries({
        queryKey: [EDITOR_QUERY_KEY, organization.id, session.dashboard.id, 'versions'],
      });
    } catch (error) {
      saveFailed(error);
    } finally {
      setSaving(false);
    }
  };

  const createNamed = async (dashboardName: string) => {
    const sent = store.getState().document;
    setSaving(true);
    try {
      const created = await createDashboard(await token(), dashboardName, sent);
      afterSave(sent, created.currentVersion);
      setNaming(false);
      leaving.current = true;
      navigate(`/dashboards/${created.id}/edit`, { replace: true });
    } catch (error) {
      saveFailed(error);
    } finally {
      setSaving(false);
    }
  };

  const latestSave = useRef(save);
  latestSave.current = save;
  // Also while typing in a field (the other shortcuts are not): the field's edit is saved too.
  useHotkeys('mod+s', () => void latestSave.current(), {
    preventDefault: true,
    enableOnFormTags: true,
    ignoreEventWhen: (event) => isInDialog(event.target),
  });

  // The handlers below keep their identity: the memoized toolbar, panels and canvas render again only when what they
  // show changed (an undo step repaints the canvas and a few toolbar buttons, not the whole editor).
  const addWidget = useCallback(
    (type: WidgetType) => {
      commands.addWidget(type);
    },
    [commands],
  );
  const insert = useCallback((payload: ClipboardPayload) => commands.paste(payload), [commands]);
  const deletePage = useStableCallback((pageId: string) => {
    const outcome = commands.deletePage(pageId);
    if (outcome === 'root-protected') {
      showEditorMessage({
        id: 'editor-root-protected',
        color: 'orange',
        message: t('dashboardEditor.messages.rootProtected'),
      });
    }
    if (outcome === 'last-page') {
      showEditorMessage({
        id: 'editor-last-page',
        color: 'orange',
        message: t('dashboardEditor.messages.lastPage'),
      });
    }
  });
  const addPage = useStableCallback(() => {
    const pageId = commands.addPage(
      t('dashboardEditor.pages.newTitle', { number: store.getState().document.pages.length + 1 }),
    );
    commands.openPage(pageId);
  });
  const onCopy = useCallback(() => void clipboard.copy(), [clipboard]);
  const onCut = useCallback(() => void clipboard.cut(), [clipboard]);
  const onPaste = useCallback(() => void clipboard.paste(), [clipboard]);
  const onDelete = useCallback(() => void clipboard.deleteSelection(), [clipboard]);
  const onSave = useStableCallback(() => void save());
  const selectPage = useCallback(() => commands.select([], 'replace'), [commands]);
  const cancelNaming = useCallback(() => setNaming(false), []);
  const saveNamed = useStableCallback((dashboardName: string) => void createNamed(dashboardName));

  return (
    <Stack
      gap="xs"
      h="calc(100dvh - 50px - 2 * var(--mantine-spacing-md))"
      mih={480}
      data-testid="dashboard-editor"
    >
      <ToolbarHost
        store={store}
        name={name}
        dashboardId={dashboardId}
        version={version}
        saving={saving}
        commands={commands}
        onCopy={onCopy}
        onCut={onCut}
        onPaste={onPaste}
        onDelete={onDelete}
        onSave={onSave}
      />
      <div className={classes.layout}>
        <Box className={classes.side}>
          <Stack gap="md">
            <PagesHost store={store} commands={commands} onAdd={addPage} onDelete={deletePage} />
            <Palette onAdd={addWidget} onInsert={insert} />
          </Stack>
        </Box>
        <div className={classes.canvasPane}>
          <div className={classes.canvasScroll}>
            <CanvasHost
              store={store}
              runtime={runtime}
              commands={commands}
              stepping={stepping}
              onSelectPage={selectPage}
            />
          </div>
        </div>
        <InspectorHost
          store={store}
          stepping={stepping}
          dashboardId={dashboardId}
          showJson={showJson}
          commands={commands}
        />
      </div>
      <SaveAsModal opened={naming} saving={saving} onCancel={cancelNaming} onSave={saveNamed} />
    </Stack>
  );
}

const selectDirty = (state: EditorState) => state.dirty;
const selectDocument = (state: EditorState) => state.document;

/** The chart widgets' bindings and windows: what the live values' history depends on. */
function chartsOf(document: DashboardDocument): string {
  const charts: unknown[] = [];
  for (const page of document.pages) {
    for (const widget of page.widgets) {
      if (widget.type === 'lineChart' || widget.type === 'barChart') {
        charts.push(widget.bindings, widget.options.windowSeconds);
      }
    }
  }
  return JSON.stringify(charts);
}

/** The same document for the live values' runtime: the same slots, variables and charts (widgets may differ). */
function sameForRuntime(a: DashboardDocument, b: DashboardDocument): boolean {
  return a.slots === b.slots && a.variables === b.variables && chartsOf(a) === chartsOf(b);
}

function openPageOf(state: EditorState): Page | undefined {
  return state.document.pages.find((candidate) => candidate.id === state.pageId) ?? state.document.pages[0];
}

const NO_WIDGETS: readonly Widget[] = [];
const selectPageWidgets = (state: EditorState) => openPageOf(state)?.widgets ?? NO_WIDGETS;
const selectSelection = (state: EditorState) => state.selection;

type Flags = { canUndo: boolean; canRedo: boolean; hasSelection: boolean; canUngroup: boolean };

function selectFlags(state: EditorState): Flags {
  const page = openPageOf(state);
  return {
    canUndo: state.canUndo,
    canRedo: state.canRedo,
    hasSelection: state.selection.length > 0,
    canUngroup:
      page?.widgets.some((widget) => widget.type === 'group' && state.selection.includes(widget.id)) ?? false,
  };
}

function sameFlags(a: Flags, b: Flags): boolean {
  return (
    a.canUndo === b.canUndo &&
    a.canRedo === b.canRedo &&
    a.hasSelection === b.hasSelection &&
    a.canUngroup === b.canUngroup
  );
}

type ToolbarHostProps = {
  store: EditorStore;
  name: string;
  dashboardId: string | undefined;
  version: number | undefined;
  saving: boolean;
  commands: EditorCommands;
  onCopy: () => void;
  onCut: () => void;
  onPaste: () => void;
  onDelete: () => void;
  onSave: () => void;
};

/** The toolbar with the commands that can run now. */
const ToolbarHost = memo(function ToolbarHost({ store, commands, ...props }: ToolbarHostProps) {
  const flags = useEditorSelector(store, selectFlags, sameFlags);
  const dirty = useEditorSelector(store, selectDirty);
  return (
    <EditorToolbar
      {...props}
      dirty={dirty}
      canUndo={flags.canUndo}
      canRedo={flags.canRedo}
      hasSelection={flags.hasSelection}
      canUngroup={flags.canUngroup}
      onUndo={commands.undo}
      onRedo={commands.redo}
      onGroup={commands.groupSelection}
      onUngroup={commands.ungroupSelection}
    />
  );
});

type PagesHostProps = {
  store: EditorStore;
  commands: EditorCommands;
  onAdd: () => void;
  onDelete: (pageId: string) => void;
};

const selectPages = (state: EditorState): readonly PageSummary[] => state.document.pages;
const selectRootPageId = (state: EditorState) => state.document.rootPageId;
const selectPageId = (state: EditorState) => state.pageId;

/** The pages panel: the pages' titles, the open one and the root one. */
const PagesHost = memo(function PagesHost({ store, commands, onAdd, onDelete }: PagesHostProps) {
  // The same pages as long as their ids and titles are (an undo step changes a page's widgets, not the panel).
  const pages = useEditorSelector(store, selectPages, samePages);
  const rootPageId = useEditorSelector(store, selectRootPageId);
  const openPageId = useEditorSelector(store, selectPageId);
  return (
    <PagesPanel
      pages={pages}
      rootPageId={rootPageId}
      openPageId={openPageId}
      onOpen={commands.openPage}
      onAdd={onAdd}
      onRename={commands.renamePage}
      onDelete={onDelete}
      onMakeRoot={commands.setRootPage}
    />
  );
});

type CanvasHostProps = {
  store: EditorStore;
  runtime: WidgetRuntime;
  commands: EditorCommands;
  /** A run of undo and redo steps is under way. */
  stepping: boolean;
  onSelectPage: () => void;
};

/** The canvas: the open page's widgets and the selection. */
const CanvasHost = memo(function CanvasHost({
  store,
  runtime,
  commands,
  stepping,
  onSelectPage,
}: CanvasHostProps) {
  const widgets = useEditorSelector(store, selectPageWidgets);
  const selection = useEditorSelector(store, selectSelection);
  return (
    <Canvas
      widgets={widgets}
      selection={selection}
      runtime={runtime}
      onSelect={commands.select}
      onSelectPage={onSelectPage}
      onMove={commands.moveWidgets}
      holdHeight={stepping}
    />
  );
});

type InspectorHostProps = {
  store: EditorStore;
  /** A run of undo and redo steps is under way. */
  stepping: boolean;
  dashboardId: string | undefined;
  showJson: boolean;
  commands: EditorCommands;
};

const selectState = (state: EditorState) => state;

/**
 * The inspector follows the canvas a moment later: undo, redo and paste repaint the canvas at once, and the
 * inspector's forms (the slow part to mount) catch up when the keys stop (a deferred value, interruptible). During a
 * run of undo and redo steps it holds the state before the run (inert meanwhile, so that nothing is typed into what
 * it no longer shows) and follows once the run ends; not while the focus is in it (it follows at once then).
 */
const InspectorHost = memo(function InspectorHost({
  store,
  stepping,
  dashboardId,
  showJson,
  commands,
}: InspectorHostProps) {
  const state = useEditorSelector(store, selectState);
  const [focused, setFocused] = useState(false);
  const hold = stepping && !focused;
  const held = useRef(state);
  if (!hold) held.current = state;
  const inspected = useDeferredValue(hold ? held.current : state);
  const page = openPageOf(inspected);
  const selected = useMemo(
    () => page?.widgets.filter((widget) => inspected.selection.includes(widget.id)) ?? [],
    [page, inspected.selection],
  );
  // The inspector's edits are made on what it shows, which may be a step behind the editor: only what they changed
  // is applied, so a change made meanwhile (a binding chosen just before a title is committed) is kept.
  const updateWidget = useCallback(
    (base: Widget, next: Widget) =>
      commands.updateWidget(next.id, (current) => rebaseEdit(base, next, current)),
    [commands],
  );
  const pageId = page?.id;
  const renamePage = useCallback(
    (title: string) => {
      if (pageId) commands.renamePage(pageId, title);
    },
    [commands, pageId],
  );
  return (
    <Box
      className={classes.side}
      inert={hold}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) {
          setFocused(false);
        }
      }}
    >
      {page && (
        <Inspector
          document={inspected.document}
          page={page}
          selected={selected}
          dashboardId={dashboardId}
          showJson={showJson}
          onUpdateWidget={updateWidget}
          onRenamePage={renamePage}
          onSlots={commands.setSlots}
          onVariables={commands.setVariables}
        />
      )}
    </Box>
  );
});
