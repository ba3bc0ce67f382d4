import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { vpnFailure } from './messages.ts';

/** A failed remote-access call: the portal's sentence and, where it explains the refusal, the server's own words. */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  const { t } = useTranslation();
  const failure = vpnFailure(t, error);
  return (
    <Alert color="red" title={title} role="alert" data-testid="vpn-failure">
      <Stack gap={4}>
        <Text size="sm">{failure.message}</Text>
        {failure.detail && (
          <Text size="sm" c="dimmed" data-testid="vpn-failure-detail">
            {failure.detail}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
