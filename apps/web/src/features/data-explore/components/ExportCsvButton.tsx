import { Button, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { formatBytes } from '../../../shared/files/download.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { isHttpError } from '../../../shared/http/errors.ts';
import { type DataQuery, downloadDataCsv, type ExportProgress } from '../api.ts';

type Props = { query: Omit<DataQuery, 'maxPoints'> | undefined };

/** "Export CSV": streams every stored value of the choice, showing records and bytes received, then saves the file. */
export function ExportCsvButton({ query }: Props) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  const count = new Intl.NumberFormat(i18n.language);

  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    if (!query) return;
    const controller = new AbortController();
    running.current = controller;
    setProgress({ bytes: 0, rows: 0 });
    try {
      const done = await downloadDataCsv(
        await token(),
        organization.id,
        query,
        setProgress,
        controller.signal,
      );
      notifications.show({
        color: 'green',
        message: t('dataExplore.export.done', {
          count: done.rows,
          rows: count.format(done.rows),
          size: formatBytes(done.bytes, i18n.language),
        }),
      });
    } catch (error) {
      if (!(isHttpError(error) && error.kind === 'aborted')) {
        notifications.show({
          color: 'red',
          title: t('dataExplore.export.failed'),
          message: describeError(t, error),
        });
      }
    } finally {
      if (running.current === controller) running.current = null;
      setProgress(null);
    }
  };

  if (progress) {
    return (
      <Group gap="xs" data-testid="export-progress">
        <Loader size="xs" aria-hidden />
        <Text size="sm" role="status">
          {t('dataExplore.export.progress', {
            count: progress.rows,
            rows: count.format(progress.rows),
            size: formatBytes(progress.bytes, i18n.language),
          })}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => running.current?.abort()}>
          {t('common.cancel')}
        </Button>
      </Group>
    );
  }
  return (
    <Button variant="light" disabled={!query} onClick={() => void start()}>
      {t('dataExplore.export.button')}
    </Button>
  );
}
