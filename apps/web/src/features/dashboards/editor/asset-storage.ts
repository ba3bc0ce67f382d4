/** The share of the asset storage used, in percent (0..100; a full or unlimited-zero storage counts as full). */
export function storageShare(usedBytes: number, limitBytes: number): number {
  if (!Number.isFinite(usedBytes) || usedBytes <= 0) return 0;
  if (!Number.isFinite(limitBytes) || limitBytes <= 0) return 100;
  return Math.min(100, Math.round((usedBytes / limitBytes) * 1000) / 10);
}
