import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  /** What the value is ("Import token", "Client secret"): labels the value and its copy button. */
  label: string;
  value: string;
  /** Extra line under the value, such as when it expires. */
  note?: string;
  testId: string;
};

/** A secret shown once: the value as text to select, a copy button and the warning that it is not shown again. */
export function SecretReveal({ label, value, note, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="yellow">
        <Text size="sm">{t('iamOrganizations.secret.onlyOnce')}</Text>
      </Alert>
      <Text size="sm" fw={600} id={`${testId}-label`}>
        {label}
      </Text>
      <Code block data-testid={testId} aria-labelledby={`${testId}-label`} style={{ wordBreak: 'break-all' }}>
        {value}
      </Code>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
      <Group justify="flex-end">
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? t('iamOrganizations.secret.copied') : t('iamOrganizations.secret.copy', { label })}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
