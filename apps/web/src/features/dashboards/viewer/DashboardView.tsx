import type { DashboardDocument } from '@edgeport/dashboard-schema';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Group,
  List,
  Loader,
  Select,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeError } from '../../../shared/http/describe.ts';
import type { Dashboard, DashboardVersion } from '../api.ts';
import { useDashboardRuntime } from '../widgets/useDashboardRuntime.ts';
import { DashboardGrid } from './DashboardGrid.tsx';
import { useDashboardDocument } from './use-dashboard-document.ts';
import { useFullscreen } from './use-fullscreen.ts';
import { type SlotDevices, useSlotDevices } from './use-slot-devices.ts';

export type DashboardViewProps = {
  dashboardId: string;
  /** A version to show; the current one when absent. */
  version?: number;
  /** Devices asked for by slot (the address's `ecc_device_{slot}`, a flow entry's slots); others resolve by default. */
  slotDevices?: Readonly<Record<string, string | undefined>>;
  /** A device picked in a slot's picker (null: none). Without it the view keeps the choice itself. */
  onSlotChange?: (slot: string, deviceId: string | null) => void;
  /** Heading level of the dashboard's name: 1 on its own page (default), 2 inside another page (a flow). */
  titleOrder?: 1 | 2;
  /** The page to open first (a remembered one); the root page when absent or unknown. */
  initialPageId?: string;
  /** The page shown changed (tabs or a navigate action). */
  onPageChange?: (pageId: string) => void;
  /** Extra header buttons (the viewer page's data export), given the slots' resolved devices. */
  headerActions?: (context: { slotDevices: Readonly<Record<string, string | undefined>> }) => ReactNode;
};

/**
 * A dashboard ready to use: loads the dashboard and the version, resolves the slots' devices, and shows the name, a
 * device picker per slot, the page tabs (the root page first), Edit (owners and editors), full screen (Esc leaves),
 * and the grid of the open page with live values. Loading, not-found and error states included. The viewer page and
 * the flow viewer both show it.
 */
export function DashboardView(props: DashboardViewProps) {
  const { t } = useTranslation();
  const loaded = useDashboardDocument(props.dashboardId, props.version);
  if (loaded.state === 'loading') {
    return (
      <Center p="xl" aria-busy="true" data-testid="dashboard-loading">
        <Loader size="sm" mr="sm" />
        <Text c="dimmed">{t('dashboardViewer.loading')}</Text>
      </Center>
    );
  }
  if (loaded.state === 'error') {
    return (
      <Alert
        color={loaded.notFound ? 'gray' : 'red'}
        title={t(
          loaded.versionMissing
            ? 'dashboardViewer.versionMissing'
            : loaded.notFound
              ? 'dashboardViewer.notFound'
              : 'dashboardViewer.loadFailed',
          { version: props.version },
        )}
        data-testid="dashboard-error"
      >
        <Stack gap="xs" align="flex-start">
          {!loaded.notFound && <Text size="sm">{describeError(t, loaded.error)}</Text>}
          {loaded.notFound ? (
            <Button component={Link} to="/flows/dashboards" size="xs" variant="light">
              {t('dashboardViewer.toList')}
            </Button>
          ) : (
            <Button size="xs" variant="light" onClick={loaded.retry}>
              {t('common.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  if (loaded.state === 'invalid') {
    return (
      <Alert
        color="red"
        title={t('dashboardViewer.invalid', { name: loaded.dashboard.name })}
        data-testid="dashboard-invalid"
      >
        <List size="sm">
          {loaded.errors.map((error) => (
            <List.Item key={error}>{error}</List.Item>
          ))}
        </List>
      </Alert>
    );
  }
  return (
    <LoadedDashboard
      key={`${loaded.dashboard.id}/${loaded.version.version}`}
      {...props}
      dashboard={loaded.dashboard}
      version={loaded.version}
      document={loaded.document}
    />
  );
}

type LoadedProps = Omit<DashboardViewProps, 'version'> & {
  dashboard: Dashboard;
  version: DashboardVersion;
  document: DashboardDocument;
};

/** The pages in tab order: the root page first, then the others as the document lists them. */
function pageOrder(document: DashboardDocument) {
  const root = document.pages.find((page) => page.id === document.rootPageId);
  return [...(root ? [root] : []), ...document.pages.filter((page) => page.id !== document.rootPageId)];
}

function LoadedDashboard({
  dashboard,
  version,
  document,
  slotDevices,
  onSlotChange,
  titleOrder = 1,
  initialPageId,
  onPageChange,
  headerActions,
}: LoadedProps) {
  const { t } = useTranslation();
  const [pageId, setPageId] = useState(() =>
    initialPageId && document.pages.some((page) => page.id === initialPageId)
      ? initialPageId
      : document.rootPageId,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports changes of the page only.
  useEffect(() => onPageChange?.(pageId), [pageId]);
  const [chosen, setChosen] = useState<Record<string, string | undefined>>({});
  const requested = onSlotChange ? (slotDevices ?? {}) : { ...slotDevices, ...chosen };
  const slots = useSlotDevices(document.slots, requested);
  const fullscreen = useFullscreen();
  const runtime = useDashboardRuntime({
    document,
    slotDevices: slots.devices,
    mode: 'view',
    onNavigatePage: setPageId,
    dashboardId: dashboard.id,
    deviceLabels: slots.labels,
  });
  const pages = useMemo(() => pageOrder(document), [document]);
  useEffect(() => {
    if (!document.pages.some((page) => page.id === pageId)) setPageId(document.rootPageId);
  }, [document, pageId]);

  const pick = (slot: string, deviceId: string | null) => {
    if (onSlotChange) onSlotChange(slot, deviceId);
    else setChosen((current) => ({ ...current, [slot]: deviceId ?? undefined }));
  };
  const canEdit = dashboard.access === 'owner' || dashboard.access === 'r/w';
  const editPath = `/dashboards/${dashboard.id}/edit${version.current ? '' : `?version=${version.version}`}`;

  return (
    <Box
      data-testid="dashboard-view"
      data-dashboard-id={dashboard.id}
      data-fullscreen={fullscreen.active || undefined}
      style={
        fullscreen.active
          ? {
              position: 'fixed',
              inset: 0,
              zIndex: 150,
              overflow: 'auto',
              background: 'var(--mantine-color-body)',
              padding: 'var(--mantine-spacing-md)',
            }
          : undefined
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Group gap="xs" align="center" miw={0}>
            <Title order={titleOrder} size={titleOrder === 1 ? 'h3' : 'h4'} data-testid="dashboard-name">
              {dashboard.name}
            </Title>
            {!version.current && (
              <Badge variant="light" color="orange" tt="none" data-testid="dashboard-version">
                {t('dashboardViewer.olderVersion', { version: version.version })}
              </Badge>
            )}
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap">
            {document.slots.map((slot) => (
              <SlotPicker key={slot.name} slot={slot} slots={slots} onPick={pick} />
            ))}
            {headerActions?.({ slotDevices: slots.devices })}
            {canEdit && !fullscreen.active && (
              <Button component={Link} to={editPath} variant="default" size="sm" data-testid="dashboard-edit">
                {t('dashboardViewer.edit')}
              </Button>
            )}
            <Button
              variant="default"
              size="sm"
              onClick={fullscreen.toggle}
              aria-pressed={fullscreen.active}
              data-testid="dashboard-fullscreen"
            >
              {t(fullscreen.active ? 'dashboardViewer.exitFullscreen' : 'dashboardViewer.fullscreen')}
            </Button>
          </Group>
        </Group>
        {pages.length > 1 && (
          <Tabs value={pageId} onChange={(next) => next && setPageId(next)} keepMounted={false}>
            <Tabs.List aria-label={t('dashboardViewer.pages')}>
              {pages.map((page) => (
                <Tabs.Tab key={page.id} value={page.id} data-testid={`dashboard-page-${page.id}`}>
                  {page.title}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
        )}
        {slots.pending ? (
          <Center p="xl" aria-busy="true">
            <Loader size="sm" />
          </Center>
        ) : (
          <Box mx={-8}>
            <DashboardGrid document={document} pageId={pageId} runtime={runtime} access={dashboard.access} />
          </Box>
        )}
      </Stack>
    </Box>
  );
}

function SlotPicker({
  slot,
  slots,
  onPick,
}: {
  slot: DashboardDocument['slots'][number];
  slots: SlotDevices;
  onPick: (slot: string, deviceId: string | null) => void;
}) {
  const { t } = useTranslation();
  const value = slots.devices[slot.name] ?? null;
  const options = slots.options[slot.name] ?? [];
  const data = options.map((device) => ({ value: device.id, label: device.label }));
  if (value && !data.some((item) => item.value === value)) {
    data.unshift({ value, label: slots.labels[value] ?? value });
  }
  return (
    <Select
      size="sm"
      w={220}
      label={slot.label || slot.name}
      placeholder={t('dashboardViewer.noDevice')}
      data={data}
      value={value}
      onChange={(next) => onPick(slot.name, next)}
      searchable
      nothingFoundMessage={t('dashboardViewer.noDevices')}
      allowDeselect={false}
      error={slots.unknown[slot.name] ? t('dashboardViewer.unknownDevice') : undefined}
      data-testid={`slot-picker-${slot.name}`}
      // The list is made when it opens (Mantine keeps it mounted, hidden, and positions it with the page otherwise).
      comboboxProps={{ zIndex: 300, keepMounted: false }}
    />
  );
}
