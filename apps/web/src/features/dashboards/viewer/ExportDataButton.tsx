import { dashboards } from '@edgeport/contract/values';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Popover,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { formatBytes } from '../../../shared/files/download.ts';
import { describeError } from '../../../shared/http/describe.ts';
import { isHttpError } from '../../../shared/http/errors.ts';
import { toLocalInput } from '../../data-explore/time-range.ts';
import { downloadDashboardData } from '../api.ts';
import {
  EXPORT_PRESETS,
  type ExportChoice,
  type ExportPreset,
  exportRange,
  exportSlots,
} from './export-range.ts';

type Props = {
  dashboardId: string;
  /** The devices the viewer shows, by slot. */
  slotDevices: Readonly<Record<string, string | undefined>>;
};

const CUSTOM = 'custom';

/**
 * "Export data": a popover to choose a range (last hour, 24 hours, 7 days, or from–to), then the CSV of the values the
 * dashboard's widgets show for the viewer's devices, with the bytes received while it loads and the server's error.
 * It says what the file holds: the stored values, or for a long range 1-minute or 1-hour averages (the stored values
 * can still be asked for).
 */
export function ExportDataButton({ dashboardId, slotDevices }: Props) {
  const { t, i18n } = useTranslation();
  const { token } = useOrganizationApi();
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<ExportChoice>({ kind: 'preset', preset: '24h' });
  const [bytes, setBytes] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [rawInstead, setRawInstead] = useState(false);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const range = exportRange(choice, Date.now());
  const automatic = range.ok
    ? dashboards.exportResolutionFor(Date.parse(range.from), Date.parse(range.to))
    : 'raw';
  const resolution = rawInstead ? 'raw' : automatic;
  const start = async () => {
    if (!range.ok) return;
    const controller = new AbortController();
    running.current = controller;
    setError(null);
    setBytes(0);
    try {
      const size = await downloadDashboardData(
        await token(),
        dashboardId,
        { from: range.from, to: range.to, slots: exportSlots(slotDevices), resolution },
        setBytes,
        controller.signal,
      );
      notifications.show({
        color: 'green',
        message: t('dashboardViewer.export.done', { size: formatBytes(size, i18n.language) }),
      });
      setOpened(false);
    } catch (failure) {
      if (!(isHttpError(failure) && failure.kind === 'aborted')) setError(failure);
    } finally {
      if (running.current === controller) running.current = null;
      setBytes(null);
    }
  };

  const now = Date.now();
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow trapFocus zIndex={300}>
      <Popover.Target>
        <Button
          variant="default"
          size="sm"
          onClick={() => setOpened((open) => !open)}
          data-testid="dashboard-export"
          aria-haspopup="dialog"
          aria-expanded={opened}
        >
          {t('dashboardViewer.export.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown
        data-testid="dashboard-export-dialog"
        role="dialog"
        aria-label={t('dashboardViewer.export.title')}
      >
        <Stack gap="sm" w={320}>
          <Text fw={600} size="sm">
            {t('dashboardViewer.export.title')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-label={t('dashboardViewer.export.range')}
            value={choice.kind === 'custom' ? CUSTOM : choice.preset}
            onChange={(value) =>
              setChoice(
                value === CUSTOM
                  ? {
                      kind: 'custom',
                      from: toLocalInput(now - 24 * 3_600_000, false),
                      to: toLocalInput(now, false),
                    }
                  : { kind: 'preset', preset: value as ExportPreset },
              )
            }
            data={[
              ...EXPORT_PRESETS.map((preset) => ({
                value: preset,
                label: t(`dashboardViewer.export.presets.${preset}`),
              })),
              { value: CUSTOM, label: t('dashboardViewer.export.presets.custom') },
            ]}
            data-testid="dashboard-export-range"
          />
          {choice.kind === 'custom' && (
            <Group gap="xs" grow>
              <TextInput
                type="datetime-local"
                size="xs"
                step={1}
                label={t('dashboardViewer.export.from')}
                value={choice.from}
                onChange={(event) => setChoice({ ...choice, from: event.currentTarget.value })}
                data-testid="dashboard-export-from"
              />
              <TextInput
                type="datetime-local"
                size="xs"
                step={1}
                label={t('dashboardViewer.export.to')}
                value={choice.to}
                onChange={(event) => setChoice({ ...choice, to: event.currentTarget.value })}
                data-testid="dashboard-export-to"
              />
            </Group>
          )}
          {!range.ok ? (
            <Text size="xs" c="red" role="alert">
              {t(`dashboardViewer.export.problems.${range.problem}`)}
            </Text>
          ) : (
            <Text size="xs" c="dimmed" data-testid="dashboard-export-holds">
              {t(`dashboardViewer.export.holds.${resolution}`)}
            </Text>
          )}
          {range.ok && automatic !== 'raw' && (
            <Checkbox
              size="xs"
              label={t('dashboardViewer.export.rawInstead')}
              checked={rawInstead}
              onChange={(event) => setRawInstead(event.currentTarget.checked)}
              data-testid="dashboard-export-raw"
            />
          )}
          {error !== null && (
            <Alert
              color="red"
              p="xs"
              title={t('dashboardViewer.export.failed')}
              data-testid="dashboard-export-error"
            >
              <Text size="xs">{describeError(t, error)}</Text>
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            {bytes !== null && (
              <Text size="xs" c="dimmed" role="status" data-testid="dashboard-export-progress">
                {t('dashboardViewer.export.progress', { size: formatBytes(bytes, i18n.language) })}
              </Text>
            )}
            {bytes !== null ? (
              <Button size="xs" variant="subtle" onClick={() => running.current?.abort()}>
                {t('common.cancel')}
              </Button>
            ) : (
              <Button size="xs" variant="default" onClick={() => setOpened(false)}>
                {t('common.close')}
              </Button>
            )}
            <Button
              size="xs"
              onClick={() => void start()}
              loading={bytes !== null}
              disabled={!range.ok}
              data-testid="dashboard-export-download"
            >
              {t('dashboardViewer.export.download')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
