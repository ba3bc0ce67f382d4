/** Where each series' rows start in the table (series after series), plus the total at the end. */
export function rowOffsets(series: readonly { points: { t: readonly number[] } }[]): number[] {
  const offsets = [0];
  let total = 0;
  for (const s of series) {
    total += s.points.t.length;
    offsets.push(total);
  }
  return offsets;
}

/** The series and the point a table row shows (binary search over the offsets), or undefined past the end. */
export function rowAt(
  offsets: readonly number[],
  row: number,
): { series: number; point: number } | undefined {
  const total = offsets[offsets.length - 1] ?? 0;
  if (row < 0 || row >= total) return undefined;
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((offsets[middle] as number) <= row) low = middle;
    else high = middle - 1;
  }
  return { series: low, point: row - (offsets[low] as number) };
}
