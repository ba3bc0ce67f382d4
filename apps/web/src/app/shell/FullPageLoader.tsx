import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100vh" aria-busy="true">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" data-testid="loading">
          {t('common.loading')}
        </Text>
      </Stack>
    </Center>
  );
}
