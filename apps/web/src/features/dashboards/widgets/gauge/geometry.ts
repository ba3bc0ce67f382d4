/** The gauge's arc: 240° from lower left, clockwise through the top, to lower right. */
export const GAUGE_START = -210;
export const GAUGE_SWEEP = 240;

/** Where a value sits between min and max, from 0 to 1 (clamped; 0 when the range is empty or the value unknown). */
export function gaugeFraction(value: number | null, min: number, max: number): number {
  if (value === null || !Number.isFinite(value) || !(max > min)) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

function point(cx: number, cy: number, r: number, degrees: number): [number, number] {
  const radians = (degrees * Math.PI) / 180;
  return [cx + r * Math.cos(radians), cy + r * Math.sin(radians)];
}

/** An SVG path of the arc from `from` to `to` degrees (0° = 3 o'clock, clockwise). Empty for a zero-length arc. */
export function arcPath(cx: number, cy: number, r: number, from: number, to: number): string {
  if (to - from <= 0) return '';
  const [x0, y0] = point(cx, cy, r, from);
  const [x1, y1] = point(cx, cy, r, to);
  const large = to - from > 180 ? 1 : 0;
  const f = (n: number) => n.toFixed(2);
  return `M ${f(x0)} ${f(y0)} A ${r} ${r} 0 ${large} 1 ${f(x1)} ${f(y1)}`;
}
