import { Alert, Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { fetchPresetJob } from './api.ts';
import type { StartedJob } from './PresetCreateDrawer.tsx';
import { MODELS_KEY, PRESETS_KEY } from './query-keys.ts';

/** Spec 4: a background preset creation is polled every second until it is DONE or FAILED. */
const POLL_MS = 1000;

type Props = {
  jobs: readonly StartedJob[];
  onDismiss: (id: string) => void;
  onOpenPreset: (id: string) => void;
};

/** The presets being created in the background, each with its progress bar. */
export function PresetJobs({ jobs, onDismiss, onOpenPreset }: Props) {
  if (jobs.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="preset-jobs">
      {jobs.map((job) => (
        <JobProgress key={job.id} job={job} onDismiss={() => onDismiss(job.id)} onOpenPreset={onOpenPreset} />
      ))}
    </Stack>
  );
}

function JobProgress({
  job,
  onDismiss,
  onOpenPreset,
}: {
  job: StartedJob;
  onDismiss: () => void;
  onOpenPreset: (id: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const progress = useQuery({
    queryKey: [PRESETS_KEY, organization.id, 'job', job.id],
    queryFn: async ({ signal }) => fetchPresetJob(await token(), organization.id, job.id, signal),
    refetchInterval: (query) =>
      query.state.data?.status === 'RUNNING' || !query.state.data ? POLL_MS : false,
    refetchIntervalInBackground: true,
    retry: 2,
  });
  const status = progress.data?.status;
  const announced = useRef(false);

  useEffect(() => {
    if (announced.current || (status !== 'DONE' && status !== 'FAILED')) return;
    announced.current = true;
    if (status === 'DONE') {
      notifications.show({ color: 'green', message: t('dataModels.jobs.doneNotice', { name: job.name }) });
      void queryClient.invalidateQueries({ queryKey: [PRESETS_KEY, organization.id, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [MODELS_KEY, organization.id] });
    }
  }, [status, job.name, queryClient, organization.id, t]);

  const value = progress.data?.progress ?? 0;
  const label = t('dataModels.jobs.progressLabel', { name: job.name });
  return (
    <Paper withBorder p="sm" data-testid="preset-job" data-status={status ?? 'PENDING'}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={500}>
            {status === 'DONE'
              ? t('dataModels.jobs.done', { name: job.name })
              : status === 'FAILED'
                ? t('dataModels.jobs.failed', { name: job.name })
                : t('dataModels.jobs.running', { name: job.name })}
          </Text>
          <Group gap="xs" wrap="nowrap">
            {status === 'DONE' && progress.data?.presetId && (
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => {
                  const id = progress.data?.presetId;
                  if (id) onOpenPreset(id);
                }}
              >
                {t('dataModels.jobs.open')}
              </Button>
            )}
            {(status === 'DONE' || status === 'FAILED' || progress.isError) && (
              <CloseButton aria-label={t('dataModels.jobs.dismiss')} onClick={onDismiss} />
            )}
          </Group>
        </Group>
        <Progress
          value={value}
          color={status === 'FAILED' ? 'red' : status === 'DONE' ? 'teal' : 'blue'}
          animated={status === 'RUNNING'}
          aria-label={label}
          data-testid="preset-job-progress"
        />
        <Text size="xs" c="dimmed" data-testid="preset-job-percent">
          {new Intl.NumberFormat(i18n.language, { style: 'percent' }).format(value / 100)}
        </Text>
        {status === 'FAILED' && (
          <Alert color="red" variant="light" p="xs">
            <Text size="sm">{t('dataModels.jobs.failedHint')}</Text>
            {progress.data?.error && (
              <Text size="xs" c="dimmed" ff="monospace" mt={4}>
                {progress.data.error}
              </Text>
            )}
          </Alert>
        )}
        {progress.isError && (
          <Text size="sm" c="red">
            {describeError(t, progress.error)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
