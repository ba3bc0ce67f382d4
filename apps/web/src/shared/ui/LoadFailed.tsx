import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What could not be loaded, why, and a way to try again: a red alert with the reason, a Retry button and any further
 * actions beside it.
 */
export function LoadFailed({
  title,
  message,
  onRetry,
  testId,
  children,
}: {
  title: string;
  /** Why, in the person's words (e.g. `describeError(t, query.error)`). */
  message: ReactNode;
  onRetry: () => void;
  testId?: string;
  /** Further actions beside Retry, e.g. a link back to the list. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={title} data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={onRetry}>
            {t('common.retry')}
          </Button>
          {children}
        </Group>
      </Stack>
    </Alert>
  );
}
