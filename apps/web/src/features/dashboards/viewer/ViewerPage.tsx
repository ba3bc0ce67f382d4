import { Center, Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { DASHBOARD_VIEW_KEY, fetchPreferences, putPreference } from '../api.ts';
import { prefetchLatestValues } from '../widgets/latest-values.ts';
import { preloadWidgetChunks } from '../widgets/WidgetView.tsx';
import { DashboardView } from './DashboardView.tsx';
import { ExportDataButton } from './ExportDataButton.tsx';
import { requestedSlots, requestedVersion, slotParam, withSlotDevice } from './slots.ts';
import { prefetchDashboardDocument } from './use-dashboard-document.ts';
import {
  initialChoices,
  needsStoredChoices,
  PAGE_KEY,
  parseViewerPreferences,
  requestedPage,
  SLOTS_KEY,
} from './viewer-preferences.ts';

const STORE_DELAY_MS = 800;

/**
 * Spec 2 /dashboards/{projectId}: the dashboard viewer. `version` picks a version (the current one by default);
 * `ecc_device_{slot}` picks each slot's device, and choosing a device in a slot's picker writes it back to the
 * address (so the address can be shared and bookmarked). The last page opened and the devices picked are remembered
 * per user (the service's user preferences) and used when the address names neither; the address always wins.
 */
export default function ViewerPage() {
  const { projectId = '' } = useParams();
  const { organization, token } = useOrganizationApi();
  const [params, setParams] = useSearchParams();
  const version = requestedVersion(params);
  const slotsKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `slotsKey` stands for the parameters.
  const addressSlots = useMemo(() => requestedSlots(params), [slotsKey]);
  const addressPage = requestedPage(params);
  // Everything the first frame needs is asked for at once, side by side with the remembered choices: the dashboard
  // and its version, the stored latest values of the devices the address names, the charts' code.
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per dashboard opened (later changes come from this page).
  useEffect(() => {
    if (projectId === '') return;
    prefetchDashboardDocument(queryClient, organization.id, token, projectId, version);
    for (const deviceId of new Set(Object.values(addressSlots))) {
      if (deviceId) prefetchLatestValues(organization.id, deviceId, token);
    }
    preloadWidgetChunks();
  }, [projectId, organization.id]);
  // Read once on open: later address changes come from this page itself.
  const [needsStored] = useStateOnce(() => needsStoredChoices(addressSlots, addressPage));
  const stored = useQuery({
    queryKey: [DASHBOARD_VIEW_KEY, organization.id, 'preferences', projectId],
    queryFn: async ({ signal }) =>
      parseViewerPreferences(await fetchPreferences(await token(), projectId, signal)),
    enabled: needsStored && projectId !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const storedChoices = stored.data ?? { slots: {} };
  const choices = initialChoices(addressSlots, addressPage, storedChoices);
  const slotDevicesKey = JSON.stringify(choices.slots);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `slotDevicesKey` stands for the devices.
  const slotDevices = useMemo(() => choices.slots, [slotDevicesKey]);

  const store = useDebouncedStore(projectId, !(needsStored && stored.isPending), {
    [PAGE_KEY]: storedChoices.pageId,
    [SLOTS_KEY]: JSON.stringify(storedChoices.slots),
  });

  const onSlotChange = useCallback(
    (slot: string, deviceId: string | null) => {
      const next = { ...slotDevices };
      if (deviceId) next[slot] = deviceId;
      else delete next[slot];
      setParams(
        (current) => {
          // The devices shown (maybe remembered ones) go into the address with the new choice.
          let updated = new URLSearchParams(current);
          for (const [name, id] of Object.entries(slotDevices)) {
            if (!updated.has(slotParam(name))) updated = withSlotDevice(updated, name, id);
          }
          return withSlotDevice(updated, slot, deviceId);
        },
        { replace: true },
      );
      store(SLOTS_KEY, next);
    },
    [setParams, slotDevices, store],
  );
  const onPageChange = useCallback((pageId: string) => store(PAGE_KEY, pageId), [store]);

  if (needsStored && stored.isPending) {
    return (
      <Center p="xl" aria-busy="true" data-testid="dashboard-loading">
        <Loader size="sm" />
      </Center>
    );
  }
  return (
    <DashboardView
      key={projectId}
      dashboardId={projectId}
      version={version}
      slotDevices={slotDevices}
      onSlotChange={onSlotChange}
      initialPageId={choices.pageId}
      onPageChange={onPageChange}
      headerActions={({ slotDevices: shown }) => (
        <ExportDataButton dashboardId={projectId} slotDevices={shown} />
      )}
    />
  );
}

function useStateOnce<T>(make: () => T): [T] {
  const ref = useRef<{ value: T } | null>(null);
  if (ref.current === null) ref.current = { value: make() };
  return [ref.current.value];
}

/**
 * Stores preferences a moment after the last change (one PUT per key), skipping values equal to the stored ones;
 * failures are quiet (a remembered choice is a convenience). Pending writes are sent when the page is left.
 */
function useDebouncedStore(dashboardId: string, ready: boolean, known: Record<string, string | undefined>) {
  const { token } = useOrganizationApi();
  const last = useRef<Record<string, string | undefined>>({});
  const pending = useRef(new Map<string, unknown>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  if (ready)
    for (const [key, value] of Object.entries(known)) if (!(key in last.current)) last.current[key] = value;

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const writes = [...pending.current];
    pending.current.clear();
    if (writes.length === 0) return;
    void token().then((bearer) =>
      Promise.all(
        writes.map(([key, value]) =>
          putPreference(bearer, dashboardId, key, value).catch(() => {
            last.current[key] = undefined;
          }),
        ),
      ),
    );
  }, [dashboardId, token]);

  useEffect(() => flush, [flush]);

  return useCallback(
    (key: string, value: unknown) => {
      const serialized = typeof value === 'string' ? value : JSON.stringify(value);
      if (last.current[key] === serialized) return;
      last.current[key] = serialized;
      pending.current.set(key, value);
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, STORE_DELAY_MS);
    },
    [flush],
  );
}
