import { Badge, Button, Group, Table, Text, Tree, type TreeNodeData, useTree } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from './format.ts';
import type { ModelPathEntry } from './model-form.ts';
import { buildPathTree, groupPaths, type PathTreeNode, valueCount } from './path-tree.ts';

type Props = {
  paths: readonly ModelPathEntry[];
  /** Accessible name of the table or tree. */
  label: string;
  /** The experimental `structs` flag: a collapsible tree grouped by '/' segments instead of a flat table. */
  structs: boolean;
};

/** The paths of a model (version), read-only: a flat table, or a tree with the `structs` flag. */
export function PathsView({ paths, label, structs }: Props) {
  const { t } = useTranslation();
  if (paths.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('dataModels.paths.none')}
      </Text>
    );
  }
  return structs ? <PathsTree paths={paths} label={label} /> : <PathsTable paths={paths} label={label} />;
}

function Limits({ entry }: { entry: ModelPathEntry }) {
  const { t, i18n } = useTranslation();
  if (entry.min === undefined && entry.max === undefined) return null;
  return (
    <Text span size="xs" c="dimmed">
      {t('dataModels.paths.range', {
        min: entry.min === undefined ? '−∞' : formatNumber(entry.min, i18n.language),
        max: entry.max === undefined ? '∞' : formatNumber(entry.max, i18n.language),
      })}
    </Text>
  );
}

function PathsTable({ paths, label }: { paths: readonly ModelPathEntry[]; label: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640} maxHeight="50vh">
      <Table stickyHeader striped aria-label={label} data-testid="paths-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dataModels.paths.path')}</Table.Th>
            <Table.Th>{t('dataModels.paths.type')}</Table.Th>
            <Table.Th>{t('dataModels.paths.unit')}</Table.Th>
            <Table.Th>{t('dataModels.paths.writable')}</Table.Th>
            <Table.Th>{t('dataModels.paths.min')}</Table.Th>
            <Table.Th>{t('dataModels.paths.max')}</Table.Th>
            <Table.Th>{t('dataModels.paths.description')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {paths.map((entry) => (
            <Table.Tr key={entry.path}>
              <Table.Td ff="monospace">{entry.path}</Table.Td>
              <Table.Td>{t(`dataModels.types.${entry.type}`)}</Table.Td>
              <Table.Td>{entry.unit ?? ''}</Table.Td>
              <Table.Td>{entry.writable ? t('dataModels.paths.yes') : t('dataModels.paths.no')}</Table.Td>
              <Table.Td>{formatNumber(entry.min, i18n.language)}</Table.Td>
              <Table.Td>{formatNumber(entry.max, i18n.language)}</Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {entry.description ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function toTreeData(nodes: readonly PathTreeNode<ModelPathEntry>[]): TreeNodeData[] {
  return nodes.map((node) => ({
    value: node.path,
    label: node.name,
    nodeProps: { entry: node.entry, count: valueCount(node) },
    ...(node.children.length > 0 && { children: toTreeData(node.children) }),
  }));
}

/** The `structs` view: groups by '/' segments, every group open at first; arrows and space walk it by keyboard. */
export function PathsTree({ paths, label }: { paths: readonly ModelPathEntry[]; label: string }) {
  const { t } = useTranslation();
  const nodes = useMemo(() => buildPathTree(paths), [paths]);
  const data = useMemo(() => toTreeData(nodes), [nodes]);
  const tree = useTree({
    initialExpandedState: Object.fromEntries(groupPaths(nodes).map((path) => [path, true])),
  });
  return (
    <div data-testid="paths-tree">
      <Group gap="xs" mb="xs">
        <Button size="compact-xs" variant="subtle" onClick={() => tree.expandAllNodes()}>
          {t('dataModels.paths.expandAll')}
        </Button>
        <Button size="compact-xs" variant="subtle" onClick={() => tree.collapseAllNodes()}>
          {t('dataModels.paths.collapseAll')}
        </Button>
      </Group>
      <Tree
        aria-label={label}
        data={data}
        tree={tree}
        levelOffset="lg"
        withLines
        renderNode={({ node, expanded, hasChildren, elementProps }) => {
          const entry = node.nodeProps?.entry as ModelPathEntry | undefined;
          const count = node.nodeProps?.count as number;
          return (
            <Group gap={6} wrap="nowrap" {...elementProps}>
              {hasChildren && (
                <Text span size="xs" w={12} aria-hidden>
                  {expanded ? '▾' : '▸'}
                </Text>
              )}
              <Text span size="sm" fw={hasChildren ? 600 : 400} ff="monospace">
                {node.label}
              </Text>
              {hasChildren && (
                <Badge size="xs" variant="light" color="gray">
                  {t('dataModels.paths.count', { count })}
                </Badge>
              )}
              {entry && (
                <>
                  <Badge size="xs" variant="outline">
                    {t(`dataModels.types.${entry.type}`)}
                  </Badge>
                  {entry.unit && (
                    <Text span size="xs" c="dimmed">
                      {entry.unit}
                    </Text>
                  )}
                  {entry.writable && (
                    <Badge size="xs" color="orange" variant="light">
                      {t('dataModels.paths.writable')}
                    </Badge>
                  )}
                  <Limits entry={entry} />
                </>
              )}
            </Group>
          );
        }}
      />
    </div>
  );
}
