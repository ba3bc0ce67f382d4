/**
 * Dashboard documents for the benchmarks: `count` widgets on one page, bound to the paths of the slot `main`, laid
 * out four to a row on the 24-column grid. The mix is a plant overview's: values, gauges and line charts.
 */
import type { DashboardDocument, Widget } from '@edgeport/dashboard-schema';

export const BENCH_PATHS = Array.from(
  { length: 50 },
  (_, index) => `/line/v${String(index + 1).padStart(2, '0')}`,
);

function widgetAt(index: number): Widget {
  const path = BENCH_PATHS[index % BENCH_PATHS.length] ?? '/line/v01';
  const binding = { slot: 'main', path };
  const layout = { x: (index % 4) * 6, y: Math.floor(index / 4) * 5, w: 6, h: 5 };
  const id = `w${index + 1}`;
  if (index % 5 === 3)
    return { id, type: 'gauge', title: path, layout, binding, options: { min: 0, max: 100 } };
  if (index % 5 === 4) {
    return {
      id,
      type: 'lineChart',
      title: path,
      layout,
      bindings: [binding],
      options: { windowSeconds: 60 },
    };
  }
  return { id, type: 'value', title: path, layout, binding, options: { decimals: 1 } };
}

export function benchDocument(count: number, modelId?: string): DashboardDocument {
  return {
    schemaVersion: 2,
    rootPageId: 'page-1',
    pages: [
      {
        id: 'page-1',
        title: 'Overview',
        widgets: Array.from({ length: count }, (_, index) => widgetAt(index)),
      },
      { id: 'page-2', title: 'Notes', widgets: [] },
    ],
    slots: [{ name: 'main', label: 'Line', ...(modelId && { modelId }) }],
    variables: [],
  };
}
