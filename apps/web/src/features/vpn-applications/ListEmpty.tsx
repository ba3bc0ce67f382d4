import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What an empty list of applications or profiles says: nothing matches the search, or what to do next. */
export function ListEmpty({
  searching,
  title,
  createHint,
  canCreate,
}: {
  searching: boolean;
  title: string;
  createHint: string;
  canCreate: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} align="center">
      <Text fw={500}>{searching ? t('vpnApplications.empty.noMatch') : title}</Text>
      <Text size="sm" c="dimmed">
        {searching
          ? t('vpnApplications.empty.noMatchHint')
          : canCreate
            ? createHint
            : t('vpnApplications.empty.askHint')}
      </Text>
    </Stack>
  );
}
