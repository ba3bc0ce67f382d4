import type { FlowEntry } from '@edgeport/dashboard-schema';
import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { FlowIcon } from '../icons.tsx';

export type EntryNodeData = { entry: FlowEntry; targetName: string | undefined };
export type EntryNodeType = Node<EntryNodeData, 'entry'>;

/**
 * One entry of the flow on the editor's canvas: its card (icon, colour, alias) and what it opens. The handle at the
 * bottom leads to its children, the one at the top comes from its parent.
 */
export function EntryNode({ data, selected }: NodeProps<EntryNodeType>) {
  const { t } = useTranslation();
  const { entry, targetName } = data;
  return (
    <Paper
      withBorder
      shadow={selected ? 'md' : 'xs'}
      p="xs"
      w={200}
      data-testid="flow-node"
      data-entry-id={entry.id}
      style={{
        borderTop: `4px solid ${entry.color}`,
        outline: selected ? '2px solid var(--mantine-primary-color-filled)' : undefined,
      }}
    >
      <Handle type="target" position={Position.Top} aria-label={t('flows.editor.parentHandle')} />
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon size={32} radius="sm" color={entry.color} variant="filled" autoContrast>
          <FlowIcon name={entry.icon} size={20} />
        </ThemeIcon>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate="end">
            {entry.alias}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {t(`flows.viewer.kind.${entry.target.kind}`)}
            {': '}
            {targetName ?? t('flows.editor.unknownTarget')}
          </Text>
        </Stack>
      </Group>
      <Handle type="source" position={Position.Bottom} aria-label={t('flows.editor.childHandle')} />
    </Paper>
  );
}
