import { Center, Loader, Text } from '@mantine/core';

/** What a widget shows instead of its content: a short message, centred and dimmed, or a loader. */
export function Placeholder({ message, loading = false }: { message: string; loading?: boolean }) {
  return (
    <Center h="100%" mih={0} data-testid="widget-placeholder" aria-busy={loading || undefined}>
      {loading && <Loader size="xs" mr="xs" />}
      <Text size="sm" c="dimmed" ta="center">
        {message}
      </Text>
    </Center>
  );
}
