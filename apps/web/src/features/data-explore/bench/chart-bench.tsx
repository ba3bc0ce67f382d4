/**
 * Benchmark page of the data-explore chart (built by bench/data-explore.bench.ts, never part of the portal bundle):
 * renders the SAME TimeSeriesChart and decimation the page uses with generated series, and measures the time from
 * "data ready" (the arrays exist) to the chart drawn and painted, with performance marks.
 */
import { createRoot, type Root } from 'react-dom/client';
import { decimateMinMax } from '../chart/decimate.ts';
import { type ChartSeries, TimeSeriesChart } from '../chart/TimeSeriesChart.tsx';

export type BenchResult = {
  points: number;
  series: number;
  /** Data ready -> uPlot's first draw of the canvas. */
  drawnMs: number;
  /** Data ready -> the frame showing the chart has been presented (next animation frame, then a task). */
  paintedMs: number;
  /** Decimating one series to the plot width alone. */
  decimateMs: number;
};

declare global {
  interface Window {
    runChartBench: (points: number, seriesCount: number) => Promise<BenchResult>;
  }
}

/** Plain arrays as the JSON of the data query gives them: a noisy sine with spikes, one value every 10 ms. */
function generate(points: number, seriesCount: number): ChartSeries[] {
  const start = Date.now() - points * 10;
  const out: ChartSeries[] = [];
  for (let s = 0; s < seriesCount; s++) {
    const t = new Array<number>(points);
    const v = new Array<number | null>(points);
    for (let i = 0; i < points; i++) {
      t[i] = start + i * 10;
      v[i] = 50 + 40 * Math.sin(i / 5000 + s) + Math.random() * 5 + (i % 99_991 === 0 ? 200 : 0);
    }
    out.push({ key: `s${s}`, label: `device-${s} /motor/speed`, unit: 'rpm', t, v });
  }
  return out;
}

const host = document.getElementById('root') as HTMLElement;
let root: Root | undefined;

window.runChartBench = (points, seriesCount) =>
  new Promise<BenchResult>((resolve) => {
    root?.unmount();
    host.replaceChildren();
    const series = generate(points, seriesCount);
    const first = series[0] as ChartSeries;
    const decimateStart = performance.now();
    decimateMinMax(first, first.t[0] as number, first.t[first.t.length - 1] as number, 1200);
    const decimateMs = performance.now() - decimateStart;
    performance.clearMarks();
    performance.mark('data-ready');
    const onDrawn = () => {
      performance.mark('chart-drawn');
      requestAnimationFrame(() =>
        setTimeout(() => {
          performance.mark('chart-painted');
          const drawn = performance.measure('drawn', 'data-ready', 'chart-drawn').duration;
          const painted = performance.measure('painted', 'data-ready', 'chart-painted').duration;
          resolve({ points, series: seriesCount, drawnMs: drawn, paintedMs: painted, decimateMs });
        }, 0),
      );
    };
    root = createRoot(host);
    root.render(
      <TimeSeriesChart series={series} locale="en-US" highFreq label="benchmark chart" onDrawn={onDrawn} />,
    );
  });
