/**
 * Spec 7: the gateways call carries the server's `Date` header, read as the timestamp that relative times ("online
 * since 5 minutes") are computed against, so a wrong clock on the user's computer does not skew them.
 * The offset is server time minus local time at the moment the answer arrived; 0 without a readable header.
 */
export function serverClockOffset(dateHeader: string | null | undefined, receivedAt: number): number {
  if (!dateHeader) return 0;
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server)) return 0;
  // The header has whole seconds: a difference under a second is rounding, not a skewed clock.
  const offset = server - receivedAt;
  return Math.abs(offset) < 1000 ? 0 : offset;
}
