import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DealerTabs } from './DealerTabs.tsx';

/**
 * The frame of every dealer screen: the tabs, the title and the page. An organization that is not a dealer sees
 * why the area is empty instead (only an administrator of a parent organization can make it one).
 */
export function DealerLayout({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { organization } = useOrganizationApi();
  return (
    <Stack gap="md" data-testid={testId}>
      <DealerTabs />
      <Title order={1} size="h2">
        {title}
      </Title>
      {organization.dealer ? (
        children
      ) : (
        <Stack align="center" gap="xs" py="xl" data-testid="dealer-not-dealer">
          <Text fw={500}>{t('dealer.notDealer.title', { name: organization.name })}</Text>
          <Text size="sm" c="dimmed" maw={560} ta="center">
            {t('dealer.notDealer.hint')}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
