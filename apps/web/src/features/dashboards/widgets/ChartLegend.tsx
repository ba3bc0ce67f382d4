import { Box, Group, Text } from '@mantine/core';

/** The series of a chart: a colour dot and the binding in words, one line, each label truncated. */
export function ChartLegend({ labels, colors }: { labels: readonly string[]; colors: readonly string[] }) {
  if (labels.length < 2) return null;
  return (
    <Group gap="xs" wrap="nowrap" style={{ overflow: 'hidden' }} data-testid="chart-legend">
      {labels.map((label, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same binding may be charted twice; the order is the document's.
        <Group key={`${index}-${label}`} gap={4} wrap="nowrap" miw={0}>
          <Box
            w={8}
            h={8}
            style={{ borderRadius: 4, flex: 'none', background: colors[index % colors.length] }}
          />
          <Text size="xs" c="dimmed" truncate>
            {label}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
