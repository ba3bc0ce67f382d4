import { Button, Group, Progress, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { saveFile } from '../../../shared/files/download.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { isHttpError } from '../../../shared/http/errors.ts';
import { type Range, readWholeJournal } from '../api.ts';
import type { ConsumptionChoice } from '../consumption-params.ts';
import { csvLine, exportPercent, JOURNAL_CSV_HEADER, journalCsvLines, journalCsvName } from '../csv.ts';
import { useFormats } from '../format.ts';

type Props = { choice: ConsumptionChoice; range: Range | undefined };
type ExportProgress = { fetched: number; total: number };

/**
 * "Export CSV": reads every journal entry of the range page after page (showing how many of how many), then saves
 * `consumption-{organization}-{resource}-{first day}-{last day}.csv`. Entries seen twice (the journal grew while
 * paging) are written once.
 */
export function ExportJournalButton({ choice, range }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const start = async () => {
    if (!range) return;
    const controller = new AbortController();
    running.current = controller;
    setProgress({ fetched: 0, total: 0 });
    const parts: string[] = [`\uFEFF${csvLine(JOURNAL_CSV_HEADER)}`];
    const seen = new Set<number>();
    let written = 0;
    try {
      await readWholeJournal(
        token,
        organization.id,
        { ...range, type: choice.type },
        (entries, fetched, total) => {
          const fresh = entries.filter((entry) => !seen.has(entry.id));
          for (const entry of fresh) seen.add(entry.id);
          written += fresh.length;
          parts.push(journalCsvLines(fresh));
          setProgress({ fetched, total });
        },
        controller.signal,
      );
      const file = journalCsvName(organization.name, choice.type, choice.range);
      saveFile(parts, 'text/csv;charset=utf-8', file);
      notifications.show({
        color: 'green',
        message: t('organizationUsage.consumptions.export.done', {
          count: written,
          total: format.count(written),
          file,
        }),
      });
    } catch (error) {
      if (!(isHttpError(error) && error.kind === 'aborted') && !controller.signal.aborted) {
        notifications.show({
          color: 'red',
          title: t('organizationUsage.consumptions.export.failed'),
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
      <Group gap="xs" data-testid="export-progress" wrap="nowrap">
        <Progress
          w={120}
          value={exportPercent(progress.fetched, progress.total)}
          aria-label={t('organizationUsage.consumptions.export.progressLabel')}
          animated
        />
        <Text size="sm" role="status">
          {t('organizationUsage.consumptions.export.progress', {
            count: progress.total,
            total: format.count(progress.total),
            fetched: format.count(progress.fetched),
          })}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => running.current?.abort()}>
          {t('organizationUsage.consumptions.export.cancel')}
        </Button>
      </Group>
    );
  }
  return (
    <Button variant="light" disabled={!range} onClick={() => void start()}>
      {t('organizationUsage.consumptions.export.button')}
    </Button>
  );
}
