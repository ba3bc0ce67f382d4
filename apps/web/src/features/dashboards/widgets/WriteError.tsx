import { Text } from '@mantine/core';

/** The last write's failure, under the control that wrote (announced to screen readers). */
export function WriteError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Text size="xs" c="red" role="alert" ta="center" data-testid="write-error">
      {message}
    </Text>
  );
}
