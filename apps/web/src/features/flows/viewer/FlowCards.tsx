import type { FlowEntry } from '@edgeport/dashboard-schema';
import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FlowIcon } from '../icons.tsx';

/**
 * Entries of a flow as cards (the flow's "card app"): the entry's icon on its colour, its alias, and what it opens.
 * Each card is a link, so the keyboard and the browser's history work as for any page.
 */
export function FlowCards({
  entries,
  hrefOf,
  childCount,
  label,
}: {
  entries: readonly FlowEntry[];
  hrefOf: (entry: FlowEntry) => string;
  childCount: (entry: FlowEntry) => number;
  /** Accessible name of the list of cards. */
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid
      cols={{ base: 1, xs: 2, md: 3, xl: 4 }}
      spacing="md"
      component="ul"
      aria-label={label}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {entries.map((entry) => {
        const children = childCount(entry);
        return (
          <li key={entry.id}>
            <Card
              component={Link}
              to={hrefOf(entry)}
              withBorder
              padding="lg"
              radius="md"
              data-testid="flow-card"
              data-entry-id={entry.id}
              style={{ borderTop: `4px solid ${entry.color}`, height: '100%' }}
            >
              <Group wrap="nowrap" align="flex-start">
                <ThemeIcon size={48} radius="md" color={entry.color} variant="filled" autoContrast>
                  <FlowIcon name={entry.icon} size={28} />
                </ThemeIcon>
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} size="lg" truncate="end">
                    {entry.alias}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t(`flows.viewer.kind.${entry.target.kind}`)}
                    {children > 0 && ` · ${t('flows.viewer.children', { count: children })}`}
                  </Text>
                </Stack>
              </Group>
            </Card>
          </li>
        );
      })}
    </SimpleGrid>
  );
}
