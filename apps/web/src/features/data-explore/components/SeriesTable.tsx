import { Badge, Group, Table, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataSeries } from '../api.ts';
import { timeFormats, valueFormat } from '../chart/format.ts';
import { rollupsOf } from '../resolution.ts';
import { rowAt, rowOffsets } from '../table-rows.ts';
import { ResolutionBadges } from './ResolutionBadges.tsx';

type Props = { series: DataSeries[]; locale: string; highFreq: boolean };

const ROW_HEIGHT = 30;
const CELL: CSSProperties = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/**
 * The values of every series as rows (series after series, oldest first), virtualized: only the rows in view are in
 * the page, so hundreds of thousands stay smooth. The scroll area takes the keyboard focus (arrow keys scroll).
 */
export function SeriesTable({ series, locale, highFreq }: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const offsets = useMemo(() => rowOffsets(series), [series]);
  const total = offsets[offsets.length - 1] ?? 0;
  const times = useMemo(() => timeFormats(locale, highFreq), [locale, highFreq]);
  const values = useMemo(() => valueFormat(locale), [locale]);
  const count = useMemo(() => new Intl.NumberFormat(locale), [locale]);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const reduced = series.some((s) => s.decimated);
  const rollups = useMemo(() => rollupsOf(series.map((s) => s.resolution)), [series]);
  const items = virtualizer.getVirtualItems();
  // Spacer rows above and below the rendered window keep the table's full height (native table semantics).
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  const cellValue = (s: DataSeries, point: number): string => {
    if (s.type === 'string') return s.text?.[point] ?? '';
    const value = s.points.v[point];
    if (value === null || value === undefined) return '—';
    if (s.type === 'boolean') return value ? t('dataExplore.table.true') : t('dataExplore.table.false');
    return values(value, s.unit);
  };

  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={500} id="data-explore-table-title">
          {t('dataExplore.table.title')}
        </Text>
        <Group gap="xs" data-testid="table-resolution">
          <ResolutionBadges rollups={rollups} t={t} />
          {reduced && (
            <Badge variant="light" color="gray" title={t('dataExplore.table.reducedHint')}>
              {t('dataExplore.table.reduced')}
            </Badge>
          )}
          <Text size="sm" c="dimmed" data-testid="table-row-count">
            {t('dataExplore.table.rows', { count: total, formatted: count.format(total) })}
          </Text>
        </Group>
      </Group>
      <div
        ref={scroller}
        // A scroll area the keyboard can reach: arrow keys and Page Up/Down scroll it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrollable region must take focus to scroll by keyboard
        tabIndex={0}
        data-testid="data-table-scroller"
        style={{
          maxHeight: 420,
          overflow: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 4,
        }}
      >
        <Table
          aria-labelledby="data-explore-table-title"
          aria-rowcount={total + 1}
          layout="fixed"
          striped={false}
          verticalSpacing={0}
          fz="sm"
        >
          <Table.Thead
            style={{ position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-body)' }}
          >
            <Table.Tr style={{ height: ROW_HEIGHT }}>
              <Table.Th>{t('dataExplore.table.device')}</Table.Th>
              <Table.Th>{t('dataExplore.table.path')}</Table.Th>
              <Table.Th>{t('dataExplore.table.time')}</Table.Th>
              <Table.Th style={{ textAlign: 'end' }}>{t('dataExplore.table.value')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {before > 0 && (
              <tr aria-hidden style={{ height: before }}>
                <td colSpan={4} />
              </tr>
            )}
            {items.map((item) => {
              const at = rowAt(offsets, item.index);
              const s = at ? series[at.series] : undefined;
              if (!at || !s) return null;
              const time = s.points.t[at.point] ?? 0;
              return (
                <Table.Tr key={item.key} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                  <Table.Td style={CELL} title={s.label}>
                    {s.label}
                  </Table.Td>
                  <Table.Td style={CELL} title={s.path}>
                    {s.path}
                  </Table.Td>
                  <Table.Td style={CELL}>
                    <time dateTime={new Date(time).toISOString()}>{times.full(time)}</time>
                  </Table.Td>
                  <Table.Td style={{ ...CELL, textAlign: 'end', fontVariantNumeric: 'tabular-nums' }}>
                    {cellValue(s, at.point)}
                  </Table.Td>
                </Table.Tr>
              );
            })}
            {after > 0 && (
              <tr aria-hidden style={{ height: after }}>
                <td colSpan={4} />
              </tr>
            )}
          </Table.Tbody>
        </Table>
      </div>
    </div>
  );
}
