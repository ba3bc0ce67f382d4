import type { DashboardDocument, Widget, WidgetType } from '@edgeport/dashboard-schema';
import { Box, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import { useLeaveGuard } from '../../../shared/ui/use-leave-guard.ts';
import { isFeatureEnabled } from '../../experimental/flags.ts';
import { collectionKeys } from '../api.ts';
import { isInDialog } from '../model/shortcuts.ts';
import type { ClipboardPayload } from '../model/types.ts';
import { useDashboardEditor } from '../model/useDashboardEditor.ts';
import { useEditorShortcuts } from '../model/useEditorShortcuts.ts';
import { useSlotDevices } from '../viewer/use-slot-devices.ts';
import { useDashboardRuntime } from '../widgets/useDashboardRuntime.ts';
import { createDashboard, type Dashboard, saveVersion } from './api.ts';
import { Canvas } from './Canvas.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import classes from './editor.module.css';
import { Inspector } from './inspector/Inspector.tsx';
import { PagesPanel } from './PagesPanel.tsx';
import { Palette } from './Palette.tsx';
import { EDITOR_QUERY_KEY } from './query-keys.ts';
import { SaveAsModal } from './SaveAsModal.tsx';

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
  const [state, commands] = useDashboardEditor(initialDocument);
  const [saving, setSaving] = useState(false);
  const [naming, setNaming] = useState(false);
  const [version, setVersion] = useState(session.kind === 'existing' ? session.version : undefined);
  const [showJson] = useState(() => isFeatureEnabled('editorInspector'));
  const leaving = useRef(false);
  useLeaveGuard(state.dirty, leaving, {
    modalId: 'dashboard-editor-leave',
    texts: 'dashboardEditor.leave',
    testId: 'editor-leave',
  });

  const dashboardId = session.kind === 'existing' ? session.dashboard.id : undefined;
  const name = session.kind === 'existing' ? session.dashboard.name : t('dashboardEditor.newName');
  const { document } = state;
  const page = document.pages.find((candidate) => candidate.id === state.pageId) ?? document.pages[0];
  const pageWidgets = page?.widgets ?? [];
  const selected = useMemo(
    () => pageWidgets.filter((widget) => state.selection.includes(widget.id)),
    [pageWidgets, state.selection],
  );

  // The inspector follows the canvas a moment later: undo, redo and paste repaint the canvas at once, and the
  // inspector's forms (the slow part to mount) catch up when the keys stop (a deferred value, interruptible).
  const inspected = useDeferredValue(state);
  const inspectedPage =
    inspected.document.pages.find((candidate) => candidate.id === inspected.pageId) ??
    inspected.document.pages[0];
  const inspectedSelection = useMemo(
    () => inspectedPage?.widgets.filter((widget) => inspected.selection.includes(widget.id)) ?? [],
    [inspectedPage, inspected.selection],
  );

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
      notifications.show({
        id: 'editor-page-protected',
        color: 'orange',
        message: t('dashboardEditor.messages.pageProtected'),
      }),
    onCopied: (payload, cut) =>
      notifications.show({
        id: 'editor-copied',
        autoClose: 2000,
        message: t(cut ? 'dashboardEditor.messages.cut' : 'dashboardEditor.messages.copied', {
          count: payload.widgets.length,
        }),
      }),
    onNothingToPaste: () =>
      notifications.show({
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
      notifications.show({
        color: 'green',
        message: t('dashboardEditor.messages.saved', { version: savedVersion }),
      });
    },
    [commands, t, queryClient, organization.id],
  );

  const saveFailed = useCallback(
    (error: unknown) =>
      notifications.show({
        id: 'editor-save-failed',
        color: 'red',
        title: t('dashboardEditor.messages.saveFailed'),
        message: hasStatus(error, 403) ? t('dashboardEditor.access.readOnly') : describeError(t, error),
      }),
    [t],
  );

  const latestDocument = useRef(document);
  latestDocument.current = document;
  /** The document with the edit of a field still being typed in (leaving the field applies it). */
  const settledDocument = async () => {
    const active = window.document.activeElement;
    if (active instanceof HTMLElement && active.matches('input, textarea')) {
      active.blur();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return latestDocument.current;
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
    const sent = latestDocument.current;
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

  const hotkeys = {
    preventDefault: true,
    enableOnFormTags: true,
    ignoreEventWhen: (event: KeyboardEvent) => isInDialog(event.target),
  };
  const latestSave = useRef(save);
  latestSave.current = save;
  useHotkeys('mod+s', () => void latestSave.current(), hotkeys);
  useHotkeys('mod+g', () => commands.groupSelection(), { ...hotkeys, enableOnFormTags: false });
  useHotkeys('escape', () => commands.select([], 'replace'), { ...hotkeys, enableOnFormTags: false });

  const addWidget = (type: WidgetType) => {
    commands.addWidget(type);
  };
  const insert = (payload: ClipboardPayload) => commands.paste(payload);
  const updateWidget = useCallback((next: Widget) => commands.updateWidget(next.id, () => next), [commands]);
  const inspectedPageId = inspectedPage?.id;
  const renameInspectedPage = useCallback(
    (title: string) => {
      if (inspectedPageId) commands.renamePage(inspectedPageId, title);
    },
    [commands, inspectedPageId],
  );
  const deletePage = (pageId: string) => {
    const outcome = commands.deletePage(pageId);
    if (outcome === 'root-protected') {
      notifications.show({
        id: 'editor-root-protected',
        color: 'orange',
        message: t('dashboardEditor.messages.rootProtected'),
      });
    }
    if (outcome === 'last-page') {
      notifications.show({
        id: 'editor-last-page',
        color: 'orange',
        message: t('dashboardEditor.messages.lastPage'),
      });
    }
  };
  const addPage = () => {
    const pageId = commands.addPage(
      t('dashboardEditor.pages.newTitle', { number: document.pages.length + 1 }),
    );
    commands.openPage(pageId);
  };
  const paste = async () => {
    await clipboard.paste();
  };
  const hasGroup = selected.some((widget) => widget.type === 'group');

  return (
    <Stack
      gap="xs"
      h="calc(100dvh - 50px - 2 * var(--mantine-spacing-md))"
      mih={480}
      data-testid="dashboard-editor"
    >
      <EditorToolbar
        name={name}
        dashboardId={dashboardId}
        version={version}
        dirty={state.dirty}
        canUndo={state.canUndo}
        canRedo={state.canRedo}
        hasSelection={state.selection.length > 0}
        canGroup={state.selection.length > 0}
        canUngroup={hasGroup}
        saving={saving}
        onUndo={commands.undo}
        onRedo={commands.redo}
        onCopy={() => void clipboard.copy()}
        onCut={() => void clipboard.cut()}
        onPaste={() => void paste()}
        onDelete={() => void clipboard.deleteSelection()}
        onGroup={commands.groupSelection}
        onUngroup={commands.ungroupSelection}
        onSave={() => void save()}
      />
      <div className={classes.layout}>
        <Box className={classes.side}>
          <Stack gap="md">
            <PagesPanel
              pages={document.pages}
              rootPageId={document.rootPageId}
              openPageId={state.pageId}
              onOpen={commands.openPage}
              onAdd={addPage}
              onRename={commands.renamePage}
              onDelete={deletePage}
              onMakeRoot={commands.setRootPage}
            />
            <Palette onAdd={addWidget} onInsert={insert} />
          </Stack>
        </Box>
        <div className={classes.canvasScroll}>
          <Canvas
            widgets={pageWidgets}
            selection={state.selection}
            runtime={runtime}
            onSelect={commands.select}
            onSelectPage={() => commands.select([], 'replace')}
            onMove={commands.moveWidgets}
          />
        </div>
        <Box className={classes.side}>
          {inspectedPage && (
            <Inspector
              document={inspected.document}
              page={inspectedPage}
              selected={inspectedSelection}
              dashboardId={dashboardId}
              showJson={showJson}
              onUpdateWidget={updateWidget}
              onRenamePage={renameInspectedPage}
              onSlots={commands.setSlots}
              onVariables={commands.setVariables}
            />
          )}
        </Box>
      </div>
      <SaveAsModal
        opened={naming}
        saving={saving}
        onCancel={() => setNaming(false)}
        onSave={(dashboardName) => void createNamed(dashboardName)}
      />
    </Stack>
  );
}
