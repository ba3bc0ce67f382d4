import 'uplot/dist/uPlot.min.css';
import { Box, Stack } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { ChartLegend } from '../ChartLegend.tsx';
import { type AlignedColumns, alignSeries, hasPoints } from '../chart-data.ts';
import { useChartColors } from '../chart-theme.ts';
import { bindingLabel } from '../format.ts';
import { Placeholder } from '../Placeholder.tsx';
import { useBindingsEffect } from '../use-binding.ts';
import type { WidgetPropsOf } from '../widget-props.ts';

/** Charts redraw at most this often (live values may come at 10 Hz and more). */
const CHART_FRAME_MS = 200;

/** The window slides even when no value arrives. */
const SLIDE_MS = 5000;

/**
 * The bound series over the last `windowSeconds`: the stored history first, then live values appended as they arrive
 * (uPlot's setData, without re-rendering React). Colours follow the theme and the dark mode.
 */
export default function LineChartWidget({ widget, runtime }: WidgetPropsOf<'lineChart'>) {
  const { t, i18n } = useTranslation();
  const colors = useChartColors();
  const { ref, width, height } = useElementSize();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [empty, setEmpty] = useState(true);
  const { bindings } = widget;
  const windowSeconds = widget.options.windowSeconds;
  const labels = useMemo(
    () => bindings.map((binding) => bindingLabel(binding, runtime.slotLabel)),
    [bindings, runtime],
  );
  const measured = width > 0 && height > 0;

  const current = (): { columns: AlignedColumns; from: number; to: number } => {
    const to = Date.now();
    const columns = alignSeries(bindings.map((binding) => runtime.historyOf(binding, windowSeconds)));
    return { columns, from: to - windowSeconds * 1000, to };
  };
  const latest = useRef(current);
  latest.current = current;

  const redraw = () => {
    const { columns, from, to } = latest.current();
    setEmpty(!hasPoints(columns));
    const chart = plot.current;
    if (!chart) return;
    chart.batch(() => {
      chart.setData(columns as uPlot.AlignedData, false);
      chart.setScale('x', { min: from, max: to });
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: created again only when structure, size class or colours change.
  useLayoutEffect(() => {
    const element = host.current;
    if (!element || !measured || bindings.length === 0) return;
    const { columns, from, to } = latest.current();
    const timeFormat = new Intl.DateTimeFormat(i18n.language, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const numberFormat = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
    const chart = new uPlot(
      {
        width,
        height,
        ms: 1,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, min: from, max: to } },
        axes: [
          {
            stroke: colors.axis,
            grid: { stroke: colors.grid, width: 1 },
            ticks: { stroke: colors.grid },
            values: (_u, splits) => splits.map((split) => timeFormat.format(split)),
            size: 28,
            font: '11px system-ui, sans-serif',
          },
          {
            stroke: colors.axis,
            grid: { stroke: colors.grid, width: 1 },
            ticks: { stroke: colors.grid },
            values: (_u, splits) => splits.map((split) => numberFormat.format(split)),
            size: 44,
            font: '11px system-ui, sans-serif',
          },
        ],
        series: [
          {},
          ...bindings.map(
            (_binding, index): uPlot.Series => ({
              label: labels[index] ?? '',
              stroke: colors.series[index % colors.series.length],
              width: 1.5,
              points: { show: false },
              spanGaps: true,
            }),
          ),
        ],
      },
      columns as uPlot.AlignedData,
      element,
    );
    plot.current = chart;
    setEmpty(!hasPoints(columns));
    return () => {
      chart.destroy();
      if (plot.current === chart) plot.current = null;
    };
  }, [measured, bindings, labels, colors, windowSeconds, i18n.language]);

  useEffect(() => {
    plot.current?.setSize({ width, height });
  }, [width, height]);

  useBindingsEffect(runtime, bindings, redraw, CHART_FRAME_MS);
  const redrawNow = useRef(redraw);
  redrawNow.current = redraw;
  useEffect(() => {
    const timer = setInterval(() => redrawNow.current(), SLIDE_MS);
    return () => clearInterval(timer);
  }, []);

  if (bindings.length === 0) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  return (
    <Stack h="100%" gap={4}>
      <ChartLegend labels={labels} colors={colors.series} />
      <Box
        ref={ref}
        pos="relative"
        style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}
        aria-label={labels.join(', ')}
        role="img"
        data-testid="line-chart"
      >
        <div ref={host} style={{ position: 'absolute', inset: 0 }} />
        {empty && (
          <Box pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
            <Placeholder message={t('dashboardWidgets.chart.empty')} />
          </Box>
        )}
      </Box>
    </Stack>
  );
}
