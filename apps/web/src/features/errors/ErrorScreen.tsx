import { Button, Card, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The catch-all error screen: what happened, and two ways on. */
export function ErrorScreen({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Card withBorder maw={560} p="xl" data-testid="error-screen">
        <Stack gap="md">
          <Title order={1} size="h3">
            {t('errorScreen.title')}
          </Title>
          <Text role="alert">{message}</Text>
          <Group>
            <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
            <Button variant="default" component="a" href="#/home">
              {t('common.goHome')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Center>
  );
}

/** Spec 8: the fatal initialisation error, alone on the page (nothing else can work without a realm). */
export function FatalError({ message }: { message: string }) {
  return (
    <Center mih="100vh" p="md">
      <Text
        role="alert"
        data-testid="fatal-error"
        c="red.9"
        bg="red.0"
        p="md"
        style={{ border: '1px solid var(--mantine-color-red-6)', borderRadius: 4 }}
      >
        {message}
      </Text>
    </Center>
  );
}
