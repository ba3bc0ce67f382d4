import type { FlowIcon as FlowIconName } from '@edgeport/dashboard-schema';

/**
 * The icons of flow cards (`FLOW_ICONS` of the flow document), drawn as outline strokes on a 24 × 24 grid like the
 * rest of the portal's inline icons. Decorative: the card's alias names it.
 */
const SHAPES: Record<FlowIconName, readonly string[]> = {
  dashboard: ['M4 4h7v9H4z', 'M13 4h7v5h-7z', 'M13 11h7v9h-7z', 'M4 15h7v5H4z'],
  gauge: ['M4 16a8 8 0 1 1 16 0', 'M12 16l4-5', 'M12 16h.01'],
  chart: ['M4 20h16', 'M7 16v-4', 'M11 16V8', 'M15 16v-6', 'M19 16V5'],
  factory: ['M3 20V10l5 3V10l5 3V10l5 3V4h3v16z', 'M7 17h2', 'M12 17h2', 'M17 17h1'],
  device: ['M5 6h14v10H5z', 'M9 20h6', 'M12 16v4', 'M8 10h.01', 'M11 10h5'],
  alarm: ['M12 4a6 6 0 0 1 6 6v4l2 3H4l2-3v-4a6 6 0 0 1 6-6z', 'M10 20a2 2 0 0 0 4 0'],
  map: ['M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2z', 'M9 4v14', 'M15 6v14'],
  settings: [
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
    'M12 3v2M12 19v2M3 12h2M19 12h2M5.6 5.6l1.4 1.4M17 17l1.4 1.4M5.6 18.4L7 17M17 7l1.4-1.4',
  ],
  folder: ['M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z'],
  bolt: ['M13 3L5 14h6l-1 7 8-11h-6z'],
};

export function FlowIcon({ name, size = 24 }: { name: FlowIconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
    >
      {SHAPES[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
