import 'uplot/dist/uPlot.min.css';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { Bucket, RunningTotal } from '../series.ts';

type Props = {
  series: RunningTotal;
  bucket: Bucket;
  locale: string;
  /** Names the chart for assistive technology. */
  label: string;
  /** The legend's name of the line ("Devices"). */
  seriesLabel: string;
  height?: number;
};

const LINE = '#1c7ed6';
const FILL = 'rgba(28, 126, 214, 0.12)';
const AXIS_STROKE = '#868e96';
const GRID = { stroke: 'rgba(134, 142, 150, 0.2)', width: 1 };
const DAY = 86_400_000;

function options(props: Omit<Props, 'series' | 'label'>, width: number): uPlot.Options {
  const { locale, bucket, seriesLabel, height = 280 } = props;
  const tick = new Intl.DateTimeFormat(
    locale,
    bucket === 'day' ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short' },
  );
  const legend = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return {
    width,
    height,
    ms: 1,
    scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max + 1)] } },
    axes: [
      {
        stroke: AXIS_STROKE,
        grid: GRID,
        // Whole days (or months) between ticks: a running total changes per bucket.
        incrs:
          bucket === 'day'
            ? [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY]
            : [30 * DAY, 91 * DAY, 182 * DAY],
        values: (_u, splits) => splits.map((ms) => tick.format(ms)),
        size: 40,
      },
      {
        stroke: AXIS_STROKE,
        grid: GRID,
        size: 56,
        // Counts are whole: no ticks between them.
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 100_000, 1_000_000],
        values: (_u, splits) => splits.map((value) => count.format(value)),
      },
    ],
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: '', value: (_u, raw) => (raw === null || raw === undefined ? '—' : legend.format(raw)) },
      {
        label: seriesLabel,
        stroke: LINE,
        fill: FILL,
        width: 1.5,
        points: { show: false },
        paths: uPlot.paths.stepped?.({ align: 1 }),
        value: (_u, raw) => (raw === null || raw === undefined ? '—' : count.format(raw)),
      },
    ],
  };
}

/** The running total of a resource over the range as a stepped uPlot line (a step per bucket with changes). */
export function UsageChart({ series, bucket, locale, label, seriesLabel, height = 280 }: Props) {
  const host = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);
  const structure = useMemo(
    () => ({ bucket, locale, seriesLabel, height }),
    [bucket, locale, seriesLabel, height],
  );

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.getBoundingClientRect().width) || 800);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = host.current;
    if (!element || width === 0) return;
    const plot = new uPlot(options(structure, width), [series.times, series.totals], element);
    return () => plot.destroy();
  }, [structure, series, width]);

  return (
    <figure ref={host} aria-label={label} data-testid="usage-chart" style={{ width: '100%', margin: 0 }} />
  );
}
