import { Button, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/files/download.ts';
import { describeError } from '../../shared/http/describe.ts';
import { isHttpError } from '../../shared/http/errors.ts';
import { downloadEntriesCsv } from './api.ts';
import type { EntryFilter } from './log-query.ts';

type Props = { organizationId: string; filter: EntryFilter; token: () => Promise<string> };

/** "Export CSV": downloads every entry matching the current filters, showing the bytes received meanwhile. */
export function ExportCsvButton({ organizationId, filter, token }: Props) {
  const { t, i18n } = useTranslation();
  const [received, setReceived] = useState<number | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setReceived(0);
    try {
      const bytes = await downloadEntriesCsv(
        await token(),
        organizationId,
        filter,
        setReceived,
        controller.signal,
      );
      notifications.show({
        color: 'green',
        message: t('auditLog.export.done', { size: formatBytes(bytes, i18n.language) }),
      });
    } catch (error) {
      if (!(isHttpError(error) && error.kind === 'aborted')) {
        notifications.show({
          color: 'red',
          title: t('auditLog.export.failed'),
          message: describeError(t, error),
        });
      }
    } finally {
      if (running.current === controller) running.current = null;
      setReceived(null);
    }
  };

  if (received !== null) {
    return (
      <Group gap="xs" data-testid="export-progress">
        <Loader size="xs" aria-hidden />
        <Text size="sm" role="status">
          {t('auditLog.export.progress', { size: formatBytes(received, i18n.language) })}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => running.current?.abort()}>
          {t('common.cancel')}
        </Button>
      </Group>
    );
  }
  return (
    <Button variant="light" onClick={() => void start()}>
      {t('auditLog.export.button')}
    </Button>
  );
}
