import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../shared/http/describe.ts';

/** A section's loading state: a spinner with an accessible name. */
export function Loading({ label }: { label: string }) {
  return (
    <Center p="md" aria-busy="true">
      <Loader size="sm" aria-label={label} />
    </Center>
  );
}

/** A section that could not be loaded: what failed, why in the user's words, and a retry. */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => unknown;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={title}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{describeError(t, error)}</Text>
        <Button size="xs" variant="light" onClick={() => void onRetry()}>
          {t('organizationUsage.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
