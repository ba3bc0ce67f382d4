import { Badge, Group } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { Rollup } from '../resolution.ts';

/**
 * "1-minute min/max", "1-hour min/max": what a chart or table of a long range shows instead of the stored values,
 * one badge per rollup; nothing for stored values. Takes `t` so that dashboard widgets can pass theirs.
 */
export function ResolutionBadges({ rollups, t }: { rollups: readonly Rollup[]; t: TFunction }) {
  if (rollups.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap" data-testid="resolution-badges">
      {rollups.map((rollup) => (
        <Badge
          key={rollup}
          variant="light"
          color="indigo"
          size="sm"
          tt="none"
          title={t(`dataExplore.resolution.${rollup}Hint`)}
          data-resolution={rollup}
        >
          {t(`dataExplore.resolution.${rollup}`)}
        </Badge>
      ))}
    </Group>
  );
}
