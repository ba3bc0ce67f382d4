import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

/** Spec 2: /404 and every address no route knows. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Card withBorder maw={640} mx="auto" mt="xl" p="xl" data-testid="not-found">
      <Stack gap="md" align="flex-start">
        <Title order={1} size="h3">
          {t('notFound.title')}
        </Title>
        <Text>
          {location.pathname === '/404'
            ? t('notFound.body')
            : t('notFound.bodyPath', { path: location.pathname })}
        </Text>
        <Button component={Link} to="/home">
          {t('common.goHome')}
        </Button>
      </Stack>
    </Card>
  );
}
