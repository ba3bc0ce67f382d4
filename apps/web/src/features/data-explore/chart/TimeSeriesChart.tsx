import 'uplot/dist/uPlot.min.css';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { chartArrays, type SeriesArrays } from './decimate.ts';
import { timeFormats, timeSteps, valueFormat } from './format.ts';

/** One line of the chart: raw arrays (any length: the chart decimates them to its pixel width). */
export type ChartSeries = SeriesArrays & {
  key: string;
  label: string;
  unit?: string;
  /** Drawn as steps on a 0/1 scale. */
  boolean?: boolean;
};

type Props = {
  series: readonly ChartSeries[];
  locale: string;
  /** Sub-second ticks and millisecond times (the `highFreq` feature). */
  highFreq: boolean;
  /** Names the chart for assistive technology. */
  label: string;
  height?: number;
  /** A time span selected by dragging over the plot (epoch ms). */
  onZoom?: (from: number, to: number) => void;
  /** Called once the canvas shows the data (after the first draw), for performance measurement. */
  onDrawn?: () => void;
  /** The width when the element cannot be measured (tests, hidden tabs). */
  fallbackWidth?: number;
};

const PALETTE = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#c2255c',
  '#7048e8',
  '#0c8599',
  '#f08c00',
  '#5c940d',
  '#862e9c',
  '#e03131',
];
const AXIS_STROKE = '#868e96';
const GRID = { stroke: 'rgba(134, 142, 150, 0.2)', width: 1 };

/** The chart's data for a width: every series reduced to min/max per pixel column on one time axis (chartArrays). */
export function chartData(series: readonly ChartSeries[], columns: number): uPlot.AlignedData {
  return chartArrays(series, columns) as uPlot.AlignedData;
}

function scaleKey(series: ChartSeries): string {
  return series.boolean ? 'bool' : `y:${series.unit ?? ''}`;
}

function buildOptions(
  props: Pick<Props, 'series' | 'locale' | 'highFreq' | 'onZoom'>,
  width: number,
  height: number,
  onDraw: () => void,
): uPlot.Options {
  const { series, locale, highFreq } = props;
  const times = timeFormats(locale, highFreq);
  const values = valueFormat(locale);
  const scales: uPlot.Scales = { x: { time: true } };
  const axes: uPlot.Axis[] = [
    {
      stroke: AXIS_STROKE,
      grid: GRID,
      incrs: timeSteps(highFreq),
      values: (_u, splits, _axis, _space, step) => times.ticks(splits, step),
      size: 54,
    },
  ];
  const keys: string[] = [];
  for (const s of series) {
    const key = scaleKey(s);
    if (keys.includes(key)) continue;
    keys.push(key);
    scales[key] = s.boolean ? { range: [-0.1, 1.1] } : {};
    axes.push({
      scale: key,
      side: keys.length % 2 === 1 ? 3 : 1,
      stroke: AXIS_STROKE,
      grid: keys.length === 1 ? GRID : { show: false },
      size: 64,
      ...(s.boolean
        ? { splits: () => [0, 1], values: (_u: uPlot, splits: number[]) => splits.map(String) }
        : { values: (_u: uPlot, splits: number[]) => splits.map((v) => values(v)) }),
      ...(s.unit ? { label: s.unit, labelSize: 18 } : {}),
    });
  }
  const stepped = uPlot.paths.stepped?.({ align: 1 });
  return {
    width,
    height,
    ms: 1,
    scales,
    axes,
    legend: { live: true },
    cursor: {
      drag: { x: true, y: false, setScale: false },
      focus: { prox: 16 },
    },
    focus: { alpha: 0.4 },
    series: [
      {
        label: '',
        value: (_u, raw) => (raw === null || raw === undefined ? '—' : times.full(raw)),
      },
      ...series.map(
        (s, index): uPlot.Series => ({
          label: s.unit ? `${s.label} (${s.unit})` : s.label,
          scale: scaleKey(s),
          stroke: PALETTE[index % PALETTE.length],
          width: 1.25,
          points: { show: false },
          spanGaps: false,
          ...(s.boolean && stepped ? { paths: stepped } : {}),
          value: (_u, raw) => (raw === null || raw === undefined ? '—' : values(raw, s.unit)),
        }),
      ),
    ],
    hooks: {
      draw: [onDraw],
      setSelect: [
        (u) => {
          const { left, width: selected } = u.select;
          if (selected < 3) return;
          const from = u.posToVal(left, 'x');
          const to = u.posToVal(left + selected, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          props.onZoom?.(from, to);
        },
      ],
    },
  };
}

/**
 * A uPlot time-series chart that stays fast with millions of points: each series is reduced to the minimum and
 * maximum per pixel column of the plot before uPlot sees it, and reduced again when the width changes. Dragging over
 * the plot reports the selected span (zoom). The legend shows each series' unit and the values under the cursor.
 */
export function TimeSeriesChart({
  series,
  locale,
  highFreq,
  label,
  height = 320,
  onZoom,
  onDrawn,
  fallbackWidth = 800,
}: Props) {
  const host = useRef<HTMLElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [width, setWidth] = useState(0);
  const widthNow = useRef(0);
  const callbacks = useRef({ onZoom, onDrawn });
  callbacks.current = { onZoom, onDrawn };
  const measured = width > 0;

  // Structure (series, units, locale) decides the options; a new width only re-decimates and resizes.
  const structure = useMemo(
    () => ({
      series,
      locale,
      highFreq,
      onZoom: (from: number, to: number) => callbacks.current.onZoom?.(from, to),
    }),
    [series, locale, highFreq],
  );

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return;
    const measure = () => {
      const next = Math.floor(element.getBoundingClientRect().width) || fallbackWidth;
      widthNow.current = next;
      setWidth(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallbackWidth]);

  useLayoutEffect(() => {
    const element = host.current;
    if (!element || !measured) return;
    let reported = false;
    const onDraw = () => {
      if (reported) return;
      reported = true;
      callbacks.current.onDrawn?.();
    };
    const size = widthNow.current;
    // The plot area is narrower than the element (axes): decimating to the element width is a safe upper bound.
    const created = new uPlot(
      buildOptions(structure, size, height, onDraw),
      chartData(structure.series, size),
      element,
    );
    plot.current = created;
    return () => {
      created.destroy();
      if (plot.current === created) plot.current = null;
    };
  }, [structure, height, measured]);

  useEffect(() => {
    const current = plot.current;
    if (!current || width === 0 || current.width === width) return;
    current.setSize({ width, height });
    current.setData(chartData(structure.series, width));
  }, [width, height, structure]);

  return (
    <figure
      ref={host}
      aria-label={label}
      data-testid="time-series-chart"
      style={{ width: '100%', margin: 0 }}
    />
  );
}
