import { Badge, Button, Group, Text, Title, Tooltip } from '@mantine/core';
import { type ComponentPropsWithRef, createContext, memo, type ReactNode, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './editor.module.css';
import { VersionsMenu } from './VersionsMenu.tsx';

type Props = {
  name: string;
  /** The saved dashboard's id; absent while a new dashboard is not saved yet. */
  dashboardId: string | undefined;
  /** The version the editor started from. */
  version: number | undefined;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  canUngroup: boolean;
  saving: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onCopy: () => void;
  onCut: () => void;
  onPaste: () => void;
  onDelete: () => void;
  onGroup: () => void;
  onUngroup: () => void;
  onSave: () => void;
};

const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

/**
 * The editor's commands (spec 2 shortcuts shown in the tooltips), the save, the versions and the viewer. Whether
 * undo, redo and the selection's commands can run changes at almost every step: the commands of each such flag sit in
 * a fieldset that reads the flag from a context and disables them natively, so a step renders only that fieldset, not
 * the buttons or their tooltips. The rest is memoized (give it handlers that keep their identity).
 */
export function EditorToolbar({ canUndo, canRedo, hasSelection, canUngroup, ...props }: Props) {
  const flags = useMemo<Flags>(
    () => ({ undo: canUndo, redo: canRedo, selection: hasSelection, ungroup: canUngroup }),
    [canUndo, canRedo, hasSelection, canUngroup],
  );
  return (
    <FlagsContext.Provider value={flags}>
      <ToolbarBody {...props} />
    </FlagsContext.Provider>
  );
}

const ToolbarBody = memo(function ToolbarBody(
  props: Omit<Props, 'canUndo' | 'canRedo' | 'hasSelection' | 'canUngroup'>,
) {
  const { t } = useTranslation();
  return (
    <Group
      justify="space-between"
      wrap="wrap"
      gap="xs"
      role="toolbar"
      aria-label={t('dashboardEditor.toolbar.label')}
      data-testid="editor-toolbar"
    >
      <ToolbarTitle name={props.name} version={props.version} dirty={props.dirty} />
      <Group gap={6} wrap="wrap">
        <Enabled flag="undo">
          <Command
            testId="editor-undo"
            label={t('dashboardEditor.toolbar.undo')}
            shortcut={`${MOD}Z`}
            onClick={props.onUndo}
          />
        </Enabled>
        <Enabled flag="redo">
          <Command
            testId="editor-redo"
            label={t('dashboardEditor.toolbar.redo')}
            shortcut={`${MOD}Shift+Z`}
            onClick={props.onRedo}
          />
        </Enabled>
        <Enabled flag="selection">
          <Command
            testId="editor-copy"
            label={t('dashboardEditor.toolbar.copy')}
            shortcut={`${MOD}C`}
            onClick={props.onCopy}
          />
          <Command
            testId="editor-cut"
            label={t('dashboardEditor.toolbar.cut')}
            shortcut={`${MOD}X`}
            onClick={props.onCut}
          />
        </Enabled>
        <Command
          testId="editor-paste"
          label={t('dashboardEditor.toolbar.paste')}
          shortcut={`${MOD}V`}
          onClick={props.onPaste}
        />
        <Command
          testId="editor-delete"
          label={t('dashboardEditor.toolbar.delete')}
          shortcut="Delete"
          onClick={props.onDelete}
        />
        <Enabled flag="selection">
          <Command
            testId="editor-group"
            label={t('dashboardEditor.toolbar.group')}
            shortcut={`${MOD}G`}
            onClick={props.onGroup}
          />
        </Enabled>
        <Enabled flag="ungroup">
          <PlainButton
            testId="editor-ungroup"
            label={t('dashboardEditor.toolbar.ungroup')}
            onClick={props.onUngroup}
          />
        </Enabled>
        <SaveButton label={t('dashboardEditor.toolbar.save')} saving={props.saving} onSave={props.onSave} />
        {props.dashboardId && <VersionsMenu dashboardId={props.dashboardId} />}
        {props.dashboardId && (
          <ViewLink dashboardId={props.dashboardId} label={t('dashboardEditor.toolbar.view')} />
        )}
      </Group>
    </Group>
  );
});

const ToolbarTitle = memo(function ToolbarTitle({
  name,
  version,
  dirty,
}: {
  name: string;
  version: number | undefined;
  dirty: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      <Title order={1} size="h4" lineClamp={1} data-testid="editor-dashboard-name">
        {name}
      </Title>
      {version !== undefined && (
        <Text size="sm" c="dimmed" data-testid="editor-version">
          {t('dashboardEditor.toolbar.version', { version })}
        </Text>
      )}
      {dirty && (
        <Badge color="orange" variant="light" data-testid="editor-unsaved">
          {t('dashboardEditor.toolbar.unsaved')}
        </Badge>
      )}
    </Group>
  );
});

/** Which commands can run now. */
type Flags = { undo: boolean; redo: boolean; selection: boolean; ungroup: boolean };
const FlagsContext = createContext<Flags>({ undo: true, redo: true, selection: true, ungroup: true });

/** The commands that run only while `flag` holds: a fieldset disables its buttons (and `:disabled` styles them). */
function Enabled({ flag, children }: { flag: keyof Flags; children: ReactNode }) {
  const flags = useContext(FlagsContext);
  return (
    <fieldset className={classes.commands} disabled={!flags[flag]}>
      {children}
    </fieldset>
  );
}

type CommandProps = {
  testId: string;
  label: string;
  shortcut: string;
  onClick: () => void;
};

/** A command with its shortcut in a tooltip. */
const Command = memo(function Command({ testId, label, shortcut, onClick }: CommandProps) {
  return (
    <Tooltip label={`${label} (${shortcut})`} withArrow openDelay={400}>
      <ToolbarButton testId={testId} label={label} shortcut={shortcut} onClick={onClick} />
    </Tooltip>
  );
});

/** The tooltip's target (it adds its handlers and ref). */
function ToolbarButton({
  testId,
  label,
  shortcut,
  ...props
}: CommandProps & Omit<ComponentPropsWithRef<'button'>, 'onClick'>) {
  return (
    <Button
      size="xs"
      variant="default"
      data-testid={testId}
      aria-keyshortcuts={shortcut.replace('⌘', 'Meta+')}
      {...props}
    >
      {label}
    </Button>
  );
}

const PlainButton = memo(function PlainButton({ testId, label, onClick }: Omit<CommandProps, 'shortcut'>) {
  return (
    <Button size="xs" variant="default" data-testid={testId} onClick={onClick}>
      {label}
    </Button>
  );
});

const SaveButton = memo(function SaveButton({
  label,
  saving,
  onSave,
}: {
  label: string;
  saving: boolean;
  onSave: () => void;
}) {
  return (
    <Button
      size="xs"
      data-testid="editor-save"
      onClick={onSave}
      loading={saving}
      aria-keyshortcuts={`${MOD.replace('⌘', 'Meta+')}S`}
    >
      {label}
    </Button>
  );
});

const ViewLink = memo(function ViewLink({ dashboardId, label }: { dashboardId: string; label: string }) {
  return (
    <Button
      size="xs"
      variant="light"
      component={Link}
      to={`/dashboards/${dashboardId}`}
      data-testid="editor-view"
    >
      {label}
    </Button>
  );
});
