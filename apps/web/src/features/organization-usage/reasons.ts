/** Journal reasons the screens name in words; any other reason is shown as it is stored (`{area}.{verb}`). */
export const KNOWN_REASONS = [
  'device.activated',
  'device.deleted',
  'user.joined',
  'user.removed',
  'dataPoints.ingested',
  'vpn.session',
] as const;

/** The translation key of a journal reason, or undefined when the screens have no words for it. */
export function reasonKey(reason: string): string | undefined {
  return (KNOWN_REASONS as readonly string[]).includes(reason)
    ? `organizationUsage.consumptions.journal.reasons.${reason}`
    : undefined;
}
