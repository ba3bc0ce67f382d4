import type { Action, Binding, DashboardDocument, DeviceBinding } from '@edgeport/dashboard-schema';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { liveClientFor } from '../../../shared/live/live-client.ts';
import { queryData } from '../../data-explore/api.ts';
import { assetAddress, fetchLatestValues, writeSetpoint } from '../api.ts';
import { formulaOf } from './formula.ts';
import { type LatestValues, storeLatestValues, takePrefetchedLatestValues } from './latest-values.ts';
import type { ScalarValue, WidgetRuntime } from './types.ts';
import { bindingKey, deviceKey, ValueStore, variableKey } from './value-store.ts';
import { WriteRefused } from './write.tsx';

export type DashboardRuntimeOptions = {
  document: DashboardDocument;
  /** The device of each slot (undefined: none chosen or found). */
  slotDevices: Record<string, string | undefined>;
  /** 'edit': the same live values, but writes and actions do nothing. */
  mode: 'view' | 'edit';
  /** A button's "navigate" action. */
  onNavigatePage?: (pageId: string) => void;
  /** Starting values of variables (over the document's `initial`). */
  variables?: Record<string, ScalarValue>;
  /** The dashboard whose assets the image widgets show. */
  dashboardId?: string;
  /** Device labels by id, for write confirmations ("… of Press 1?"). */
  deviceLabels?: Record<string, string>;
};

/** The most points of stored history a chart starts with (per series; the server reduces to min/max per bucket). */
const HISTORY_POINTS = 1000;

function chartKeys(document: DashboardDocument, slotDevices: Record<string, string | undefined>) {
  const keys = new Map<string, { deviceId: string; path: string }>();
  let windowSeconds = 0;
  for (const page of document.pages) {
    for (const widget of page.widgets) {
      if (widget.type !== 'lineChart' && widget.type !== 'barChart') continue;
      windowSeconds = Math.max(windowSeconds, widget.options.windowSeconds);
      for (const binding of widget.bindings) {
        if (!('slot' in binding)) continue;
        const deviceId = slotDevices[binding.slot];
        if (deviceId) keys.set(deviceKey(deviceId, binding.path), { deviceId, path: binding.path });
      }
    }
  }
  return { keys, windowSeconds };
}

function sameRecord(a: Record<string, string | undefined>, b: Record<string, string | undefined>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** The argument as long as it equals the previous one by value (keeps the runtime stable across renders). */
function useStable<Value>(value: Value, same: (a: Value, b: Value) => boolean): Value {
  const kept = useRef(value);
  if (!same(kept.current, value)) kept.current = value;
  return kept.current;
}

function devicesOf(slotDevices: Record<string, string | undefined>): string[] {
  return [...new Set(Object.values(slotDevices).filter((id): id is string => Boolean(id)))].sort();
}

/**
 * The runtime's store as the first render shows it: the variables' starting values, the devices' stored latest
 * values the viewer prefetched and already has (`stored`), the others loading (`pending`: the prefetched answers
 * still on their way).
 */
function startStore(organizationId: string, options: DashboardRuntimeOptions) {
  const store = new ValueStore();
  for (const variable of options.document.variables) {
    store.put(variableKey(variable.name), 0, options.variables?.[variable.name] ?? variable.initial);
  }
  const started = { stored: new Set<string>(), pending: new Map<string, Promise<LatestValues>>() };
  for (const deviceId of devicesOf(options.slotDevices)) {
    const prefetched = takePrefetchedLatestValues(organizationId, deviceId);
    if (prefetched?.result) {
      storeLatestValues(store, deviceId, prefetched.result);
      started.stored.add(deviceId);
    } else {
      if (prefetched) started.pending.set(deviceId, prefetched.promise);
      store.setLoading(deviceId, true);
    }
  }
  // Nobody listens yet: the first render reads all of it, nothing is left to announce (announcing would render every
  // widget of the device again in the first frame).
  store.flush();
  return { store, started };
}

/**
 * What the dashboard's widgets read and do (`WidgetRuntime`), for the viewer and the editor:
 * - live values of the slots' devices over `/svc/live` (the tab's shared live client), the stored latest values and
 *   the charts' stored history from the platform service first;
 * - a `ValueStore` that keeps them (a bounded ring of recent values per charted binding) and tells each widget about
 *   its own bindings only, once per animation frame — a message never re-renders the grid;
 * - writes through the platform's set-point call, actions (navigate, load another dashboard with its slots, write,
 *   set a variable), variables. In 'edit' mode writes and actions do nothing.
 * The runtime object changes only when the slots' devices, the mode, the document's slots or the labels change.
 */
export function useDashboardRuntime(options: DashboardRuntimeOptions): WidgetRuntime {
  const { document, mode, dashboardId } = options;
  const { organization, token } = useOrganizationApi();
  const navigate = useNavigate();
  const [{ store, started }] = useState(() => startStore(organization.id, options));
  const slotDevices = useStable(options.slotDevices, sameRecord);
  const deviceLabels = useStable(options.deviceLabels ?? {}, sameRecord);
  const latest = useRef({ token, navigate, onNavigatePage: options.onNavigatePage });
  latest.current = { token, navigate, onNavigatePage: options.onNavigatePage };
  const deviceIds = useMemo(() => devicesOf(slotDevices), [slotDevices]);
  const devicesKey = deviceIds.join(',');

  // Variables: the document's initial values (and the caller's), kept when the document changes otherwise.
  const variableStarts = JSON.stringify([document.variables, options.variables ?? {}]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `variableStarts` stands for the variables.
  useEffect(() => {
    for (const variable of document.variables) {
      const key = variableKey(variable.name);
      if (store.get(key) !== undefined) continue;
      store.put(key, 0, options.variables?.[variable.name] ?? variable.initial);
    }
  }, [store, variableStarts]);

  // Live values and status of the slots' devices.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `devicesKey` stands for deviceIds; the token goes through the ref.
  useEffect(() => {
    if (deviceIds.length === 0) return;
    const client = liveClientFor(organization.id, () => latest.current.token());
    const stops = deviceIds.map((deviceId) =>
      client.subscribe(deviceId, {
        values: (message) => store.receive(message.deviceId, message.ts, message.values),
        status: (message) => store.setStatus(message.deviceId, message.status),
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [organization.id, devicesKey, store]);

  // The stored latest values (with unit, type and writability) of each device: those the viewer prefetched and are
  // there went into the store before the first render; those on their way are awaited rather than asked for again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `devicesKey` stands for deviceIds.
  useEffect(() => {
    const abort = new AbortController();
    for (const deviceId of deviceIds) {
      if (started.stored.delete(deviceId)) continue;
      const prefetched = started.pending.get(deviceId);
      started.pending.delete(deviceId);
      store.setLoading(deviceId, true);
      void (async () => {
        try {
          const latestValues = await (prefetched ??
            fetchLatestValues(await latest.current.token(), organization.id, deviceId, abort.signal));
          if (!abort.signal.aborted) storeLatestValues(store, deviceId, latestValues);
        } catch {
          // No stored values (or no right to read them): the widgets wait for live ones.
        } finally {
          if (!abort.signal.aborted) store.setLoading(deviceId, false);
        }
      })();
    }
    return () => {
      abort.abort();
      for (const deviceId of deviceIds) store.setLoading(deviceId, false);
    };
  }, [organization.id, devicesKey, store]);

  // The charts' stored history, under the live values that arrive meanwhile.
  const charts = useMemo(() => chartKeys(document, slotDevices), [document, slotDevices]);
  const chartsKey = `${[...charts.keys.keys()].sort().join(',')}|${charts.windowSeconds}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `chartsKey` stands for the charted keys and window.
  useEffect(() => {
    if (charts.keys.size === 0) return;
    for (const key of charts.keys.keys()) store.trackHistory(key);
    const abort = new AbortController();
    const wanted = [...charts.keys.values()];
    const to = Date.now();
    void (async () => {
      try {
        const result = await queryData(
          await latest.current.token(),
          organization.id,
          {
            deviceIds: [...new Set(wanted.map((item) => item.deviceId))],
            paths: [...new Set(wanted.map((item) => item.path))],
            from: to - charts.windowSeconds * 1000,
            to,
            maxPoints: HISTORY_POINTS,
          },
          abort.signal,
        );
        for (const series of result.series) {
          const key = deviceKey(series.deviceId, series.path);
          if (!charts.keys.has(key)) continue;
          const points = series.points.t.flatMap((ts, index) => {
            const value = series.points.v[index];
            return value === null || value === undefined ? [] : [{ ts, value }];
          });
          store.seedHistory(key, points, series.resolution);
        }
      } catch {
        // No stored history: the charts fill with live values.
      }
    })();
    return () => abort.abort();
  }, [organization.id, chartsKey, store]);

  const slotLabels = useMemo(
    () => new Map(document.slots.map((slot) => [slot.name, slot.label || slot.name])),
    [document.slots],
  );

  return useMemo<WidgetRuntime>(() => {
    const deviceOf = (slot: string) => slotDevices[slot];
    const keyOf = (binding: Binding) => bindingKey(binding, deviceOf);
    const write = async (binding: DeviceBinding, value: ScalarValue) => {
      if (mode === 'edit') throw new WriteRefused('edit-mode', binding.slot);
      const deviceId = deviceOf(binding.slot);
      if (!deviceId) throw new WriteRefused('no-device', binding.slot);
      await writeSetpoint(await latest.current.token(), organization.id, deviceId, binding.path, value);
    };
    const run = async (action: Action) => {
      if (mode === 'edit') return;
      switch (action.kind) {
        case 'navigate':
          latest.current.onNavigatePage?.(action.pageId);
          return;
        case 'loadDashboard': {
          const query = new URLSearchParams();
          for (const [slot, source] of Object.entries(action.slots)) {
            const deviceId = 'deviceId' in source ? source.deviceId : deviceOf(source.slot);
            if (deviceId) query.set(`ecc_device_${slot}`, deviceId);
          }
          const search = query.toString();
          latest.current.navigate(`/dashboards/${action.dashboardId}${search ? `?${search}` : ''}`);
          return;
        }
        case 'write':
          await write(action.binding, action.value);
          return;
        case 'setVariable':
          store.put(variableKey(action.variable), Date.now(), action.value);
          return;
      }
    };
    return {
      mode,
      deviceOf,
      // A binding's formula (formulaMapping) changes what widgets show: values and charts' history; writes go to the
      // path unchanged.
      valueOf: (binding) => {
        const key = keyOf(binding);
        return key === undefined ? undefined : store.get(key, formulaOf(binding));
      },
      historyOf: (binding, windowSeconds) => {
        const key = keyOf(binding);
        return key === undefined
          ? []
          : store.history(key, Date.now() - windowSeconds * 1000, formulaOf(binding));
      },
      write,
      run,
      assetUrl: (source, name) => assetAddress(dashboardId, source, name),
      subscribe: (binding, listener) => {
        const key = keyOf(binding);
        return key === undefined ? () => {} : store.subscribe(key, listener);
      },
      loading: (slot) => {
        const deviceId = deviceOf(slot);
        return deviceId !== undefined && store.isLoading(deviceId);
      },
      slotLabel: (slot) => slotLabels.get(slot) ?? slot,
      deviceLabelOf: (slot) => {
        const deviceId = deviceOf(slot);
        return deviceId === undefined ? undefined : deviceLabels[deviceId];
      },
      metaOf: (binding) => {
        const key = keyOf(binding);
        const meta = key === undefined ? undefined : store.metaOf(key);
        // The path's unit is not the formula's (°C through `value * 1.8 + 32`): the widget's own unit applies.
        return meta && formulaOf(binding) !== undefined ? { ...meta, unit: null } : meta;
      },
      resolutionOf: (binding) => {
        const key = keyOf(binding);
        return key === undefined ? undefined : store.resolutionOf(key);
      },
      statusOf: (deviceId) => store.statusOf(deviceId),
      slots: () => [...slotLabels.keys()],
    };
  }, [store, slotDevices, mode, organization.id, dashboardId, slotLabels, deviceLabels]);
}
