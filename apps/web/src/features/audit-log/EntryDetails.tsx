import { Code, Drawer, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Entry } from './api.ts';

type Props = { entry: Entry | null; timeFormat: Intl.DateTimeFormat; onClose: () => void };

/** One entry in full; `detail` is shown as indented JSON text (never as markup). */
export function EntryDetails({ entry, timeFormat, onClose }: Props) {
  const { t } = useTranslation();
  const fields: Array<[string, string]> = entry
    ? [
        [t('auditLog.columns.at'), timeFormat.format(new Date(entry.at))],
        [t('auditLog.columns.who'), entry.actorEmail || t('auditLog.system')],
        [t('auditLog.columns.what'), entry.action],
        [t('auditLog.columns.resourceType'), entry.resourceType],
        [t('auditLog.columns.resourceName'), entry.resourceName],
        [t('auditLog.details.resourceId'), entry.resourceId ?? '—'],
      ]
    : [];
  return (
    <Drawer
      opened={entry !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('auditLog.details.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {entry && (
        <Stack gap="md" data-testid="entry-details">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
            {fields.map(([label, value]) => (
              <Stack key={label} gap={0}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {value}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
          <Title order={2} size="h5">
            {t('auditLog.details.detail')}
          </Title>
          <Code
            block
            data-testid="entry-detail-json"
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {JSON.stringify(entry.detail, null, 2)}
          </Code>
        </Stack>
      )}
    </Drawer>
  );
}
