import 'uplot/dist/uPlot.min.css';
import type { Binding } from '@edgeport/dashboard-schema';
import { Group } from '@mantine/core';
import {
  type ReactNode,
  type RefCallback,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type uPlot from 'uplot';
import { ResolutionBadges } from '../../data-explore/components/ResolutionBadges.tsx';
import { type Rollup, rollupsOf, sameRollups } from '../../data-explore/resolution.ts';
import { ChartLegend } from './ChartLegend.tsx';
import { chartImagePlugin } from './chart-image.ts';
import type { ChartColors } from './chart-theme.ts';
import { bindingLabel } from './format.ts';
import { Placeholder } from './Placeholder.tsx';
import type { WidgetRuntime } from './types.ts';
import { useBindingsEffect } from './use-binding.ts';
import { useWidgetText } from './use-widget-text.ts';
import classes from './widget-frame.module.css';

/** Charts redraw at most this often (live values may come at 10 Hz and more). */
const CHART_FRAME_MS = 200;
const AXIS_FONT = '11px system-ui, sans-serif';
/** How far beyond the viewport's edges a chart is already drawn (scrolling brings it in drawn). */
const NEAR_VIEWPORT = '200px';

let nearObserver: IntersectionObserver | undefined;
const nearCallbacks = new Map<Element, () => void>();

/**
 * Calls `callback` once, when the element comes within NEAR_VIEWPORT of the viewport (at once where the browser has
 * no IntersectionObserver); answers the function that stops waiting. One observer serves every chart of the page.
 */
function whenNearViewport(element: Element, callback: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    callback();
    return () => {};
  }
  nearObserver ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const near = nearCallbacks.get(entry.target);
        nearCallbacks.delete(entry.target);
        nearObserver?.unobserve(entry.target);
        near?.();
      }
    },
    { rootMargin: NEAR_VIEWPORT },
  );
  nearCallbacks.set(element, callback);
  nearObserver.observe(element);
  return () => {
    nearCallbacks.delete(element);
    nearObserver?.unobserve(element);
  };
}

type BoxSize = { width: number; height: number };

/**
 * The chart's box: whether it has come near the viewport (once it has, it stays so) and from then on its size. A
 * dashboard of many charts thus creates only those in view for its first frame (as Grafana loads panels), the others
 * as they are scrolled to.
 */
function useChartBox(): BoxSize & { ref: RefCallback<HTMLDivElement | null>; near: boolean } {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [near, setNear] = useState(false);
  const [size, setSize] = useState<BoxSize>({ width: 0, height: 0 });
  useEffect(() => {
    if (!element || near) return;
    return whenNearViewport(element, () => setNear(true));
  }, [element, near]);
  useEffect(() => {
    if (!element || !near || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[0];
      if (!entry) return;
      const box = entry.borderBoxSize?.[0];
      const next = box
        ? { width: box.inlineSize, height: box.blockSize }
        : { width: entry.contentRect.width, height: entry.contentRect.height };
      setSize((current) => (current.width === next.width && current.height === next.height ? current : next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near]);
  return { ref: setElement, near, ...size };
}

/**
 * The time axis (below) and the value axis (left) of a widget chart, in the theme's colours and the user's locale;
 * `timeGrid` draws vertical grid lines too.
 */
export function chartAxes(
  colors: ChartColors,
  locale: string,
  time: Intl.DateTimeFormatOptions,
  { timeGrid }: { timeGrid: boolean },
): uPlot.Axis[] {
  const timeFormat = new Intl.DateTimeFormat(locale, time);
  const numberFormat = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  return [
    {
      stroke: colors.axis,
      grid: timeGrid ? { stroke: colors.grid, width: 1 } : { show: false },
      ticks: { stroke: colors.grid },
      values: (_u, splits) => splits.map((split) => timeFormat.format(split)),
      size: 28,
      font: AXIS_FONT,
    },
    {
      stroke: colors.axis,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.grid },
      values: (_u, splits) => splits.map((split) => numberFormat.format(split)),
      size: 44,
      font: AXIS_FONT,
    },
  ];
}

export type LiveChart = {
  /** The bindings in words, one per series. */
  labels: string[];
  /** Measures the chart's box (give it to ChartFrame). */
  sizeRef: RefCallback<HTMLDivElement | null>;
  /** Where uPlot draws (give it to ChartFrame). */
  host: RefObject<HTMLDivElement | null>;
  plot: RefObject<uPlot | null>;
  width: number;
  height: number;
  /** The box is near the viewport and has a size: the chart can be created. */
  measured: boolean;
  /** uPlot plugins for a new chart: in the editor, it is shown as a picture (see chartImagePlugin). */
  plugins: () => uPlot.Plugin[];
  /** The rollups the stored history was drawn from (a long window), each once; empty for stored values. */
  rollups: readonly Rollup[];
};

/** The rollups of the bindings' stored history as a state that changes only when the list does. */
function useRollups(runtime: WidgetRuntime, bindings: readonly Binding[]) {
  const current = () => rollupsOf(bindings.map((binding) => runtime.resolutionOf?.(binding)));
  const [rollups, setRollups] = useState<readonly Rollup[]>(current);
  const update = () => {
    const next = current();
    setRollups((before) => (sameRollups(before, next) ? before : next));
  };
  const updateNow = useRef(update);
  updateNow.current = update;
  // A new binding or runtime: its history may be there already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the update reads the bindings and runtime given.
  useEffect(() => updateNow.current(), [runtime, bindings]);
  return { rollups, update: () => updateNow.current() };
}

/**
 * What the live chart widgets share around their uPlot instance: the box is measured once it comes near the viewport
 * (charts far below the fold are created when scrolled to) and the chart follows its size;
 * `redraw` is called with the chart (null before it exists) when a bound value changes, at most every 200 ms, and
 * every `slideMs` so that the time window moves on when no value comes. `redraw` may change on every render. The
 * widget creates the chart in a layout effect once `measured` and hands it over with `keepChart`.
 */
export function useLiveChart(
  runtime: WidgetRuntime,
  bindings: readonly Binding[],
  redraw: (chart: uPlot | null) => void,
  slideMs: number,
): LiveChart {
  const { ref, width, height, near } = useChartBox();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = useMemo(
    () => bindings.map((binding) => bindingLabel(binding, runtime.slotLabel)),
    [bindings, runtime],
  );

  useEffect(() => {
    plot.current?.setSize({ width, height });
  }, [width, height]);

  const redrawNow = useRef(redraw);
  redrawNow.current = redraw;
  const { rollups, update: updateRollups } = useRollups(runtime, bindings);
  useBindingsEffect(
    runtime,
    bindings,
    () => {
      redrawNow.current(plot.current);
      updateRollups();
    },
    CHART_FRAME_MS,
  );
  useEffect(() => {
    const timer = setInterval(() => redrawNow.current(plot.current), slideMs);
    return () => clearInterval(timer);
  }, [slideMs]);

  const edit = runtime.mode === 'edit';
  const plugins = useCallback(() => (edit ? [chartImagePlugin(classes.chartImage ?? '')] : []), [edit]);

  return {
    labels,
    sizeRef: ref,
    host,
    plot,
    width,
    height,
    measured: near && width > 0 && height > 0,
    plugins,
    rollups,
  };
}

/** Makes `chart` the widget's plot; the answer (the layout effect's cleanup) destroys it. */
export function keepChart(plot: RefObject<uPlot | null>, chart: uPlot): () => void {
  plot.current = chart;
  return () => {
    chart.destroy();
    if (plot.current === chart) plot.current = null;
  };
}

/**
 * The frame of a chart widget: optional lines above, the legend (several series), the measured box uPlot draws in,
 * and "no data" over it while nothing is there to draw.
 */
export function ChartFrame({
  chart,
  colors,
  empty,
  testId,
  children,
}: {
  chart: LiveChart;
  colors: ChartColors;
  empty: boolean;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useWidgetText();
  return (
    <div className={classes.chart}>
      {children}
      {chart.rollups.length > 0 ? (
        // The legend (several series) and, beside it, what a long window's stored history was drawn from.
        <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="chart-resolution">
          <div style={{ minWidth: 0, flex: 1 }}>
            <ChartLegend labels={chart.labels} colors={colors.series} />
          </div>
          <ResolutionBadges rollups={chart.rollups} t={t} />
        </Group>
      ) : (
        <ChartLegend labels={chart.labels} colors={colors.series} />
      )}
      <div
        ref={chart.sizeRef}
        className={classes.chartBox}
        aria-label={chart.labels.join(', ')}
        role="img"
        data-testid={testId}
      >
        <div ref={chart.host} className={classes.fill} />
        {empty && (
          <div className={classes.overlay}>
            <Placeholder message={t('dashboardWidgets.chart.empty')} />
          </div>
        )}
      </div>
    </div>
  );
}
