import { Alert, Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FailureText } from './failure.ts';

/** Why the last attempt failed, next to the form: the portal's sentence and, when given, what the server refused. */
export function FailureAlert({ failure, testId }: { failure: FailureText | null; testId?: string }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      <Stack gap={4}>
        <Text size="sm">{failure.message}</Text>
        {failure.detail && (
          <Text size="sm" data-testid="server-message">
            {t('notificationRules.serverSaid')} <Code>{failure.detail}</Code>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
