import { Badge, Button, Group, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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
  canGroup: boolean;
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

/** The editor's commands (spec 2 shortcuts shown in the tooltips), the save, the versions and the viewer. */
export function EditorToolbar(props: Props) {
  const { t } = useTranslation();
  const command = (
    testId: string,
    label: string,
    shortcut: string,
    onClick: () => void,
    disabled: boolean,
  ) => (
    <Tooltip label={`${label} (${shortcut})`} withArrow openDelay={400}>
      <Button
        size="xs"
        variant="default"
        data-testid={testId}
        onClick={onClick}
        disabled={disabled}
        aria-keyshortcuts={shortcut.replace('⌘', 'Meta+')}
      >
        {label}
      </Button>
    </Tooltip>
  );

  return (
    <Group
      justify="space-between"
      wrap="wrap"
      gap="xs"
      role="toolbar"
      aria-label={t('dashboardEditor.toolbar.label')}
      data-testid="editor-toolbar"
    >
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Title order={2} size="h4" lineClamp={1} data-testid="editor-dashboard-name">
          {props.name}
        </Title>
        {props.version !== undefined && (
          <Text size="sm" c="dimmed" data-testid="editor-version">
            {t('dashboardEditor.toolbar.version', { version: props.version })}
          </Text>
        )}
        {props.dirty && (
          <Badge color="orange" variant="light" data-testid="editor-unsaved">
            {t('dashboardEditor.toolbar.unsaved')}
          </Badge>
        )}
      </Group>
      <Group gap={6} wrap="wrap">
        {command('editor-undo', t('dashboardEditor.toolbar.undo'), `${MOD}Z`, props.onUndo, !props.canUndo)}
        {command(
          'editor-redo',
          t('dashboardEditor.toolbar.redo'),
          `${MOD}Shift+Z`,
          props.onRedo,
          !props.canRedo,
        )}
        {command(
          'editor-copy',
          t('dashboardEditor.toolbar.copy'),
          `${MOD}C`,
          props.onCopy,
          !props.hasSelection,
        )}
        {command('editor-cut', t('dashboardEditor.toolbar.cut'), `${MOD}X`, props.onCut, !props.hasSelection)}
        {command('editor-paste', t('dashboardEditor.toolbar.paste'), `${MOD}V`, props.onPaste, false)}
        {command('editor-delete', t('dashboardEditor.toolbar.delete'), 'Delete', props.onDelete, false)}
        {command(
          'editor-group',
          t('dashboardEditor.toolbar.group'),
          `${MOD}G`,
          props.onGroup,
          !props.canGroup,
        )}
        <Button
          size="xs"
          variant="default"
          data-testid="editor-ungroup"
          onClick={props.onUngroup}
          disabled={!props.canUngroup}
        >
          {t('dashboardEditor.toolbar.ungroup')}
        </Button>
        <Button
          size="xs"
          data-testid="editor-save"
          onClick={props.onSave}
          loading={props.saving}
          aria-keyshortcuts={`${MOD.replace('⌘', 'Meta+')}S`}
        >
          {t('dashboardEditor.toolbar.save')}
        </Button>
        {props.dashboardId && <VersionsMenu dashboardId={props.dashboardId} />}
        {props.dashboardId && (
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={`/dashboards/${props.dashboardId}`}
            data-testid="editor-view"
          >
            {t('dashboardEditor.toolbar.view')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
