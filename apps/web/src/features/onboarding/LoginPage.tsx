import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlainLayout } from '../../app/shell/PlainLayout.tsx';
import { useStore } from '../../shared/store.ts';
import { portalTheme } from '../../shared/theme/portal-theme.ts';

/** The public start page: sign in (the identity server's login page) or register a new organization. */
export default function LoginPage() {
  const { t } = useTranslation();
  const theme = useStore(portalTheme);
  return (
    <PlainLayout>
      <Card withBorder p="xl" mt="xl">
        <Stack gap="md">
          <Title order={1} size="h2">
            {t('login.title', { brand: theme.brandName })}
          </Title>
          <Text c="dimmed">{t('login.intro')}</Text>
          <Group>
            <Button component={Link} to="/home" data-testid="sign-in">
              {t('login.signIn')}
            </Button>
            <Button component={Link} to="/register" variant="default">
              {t('login.register')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </PlainLayout>
  );
}
