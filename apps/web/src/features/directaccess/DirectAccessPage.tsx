import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { useEnteredOrganization } from '../../app/shell/useEnteredOrganization.ts';

/** An empty state that says what to do next when no product screen is open to the user. */
export default function DirectAccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session } = currentPortal();
  const entered = useEnteredOrganization();
  return (
    <Card withBorder maw={640} mx="auto" mt="xl" p="xl" data-testid="direct-access">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('directaccess.title')}
        </Title>
        <Text>{t('directaccess.body', { organization: entered?.organization.name ?? '' })}</Text>
        <Text size="sm" c="dimmed">
          {t('directaccess.next')}
        </Text>
        <Group>
          <Button onClick={() => void navigate('/organization?redirectTo=/home')}>
            {t('organization.switch')}
          </Button>
          <Button variant="default" onClick={() => void session.signOut()}>
            {t('user.signOut')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
