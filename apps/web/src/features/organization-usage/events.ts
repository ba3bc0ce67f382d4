/** The licence events of the subscription history (license_events.event). */
export const LICENSE_EVENTS = [
  'ISSUED',
  'ACTIVATED',
  'RENEWED',
  'AUTORENEW_ON',
  'AUTORENEW_OFF',
  'EXPIRY_WARNING',
  'EXPIRED',
  'REVOKED',
] as const;
type LicenseEvent = (typeof LICENSE_EVENTS)[number];

const COLORS: Record<LicenseEvent, string> = {
  ISSUED: 'blue',
  ACTIVATED: 'green',
  RENEWED: 'green',
  AUTORENEW_ON: 'teal',
  AUTORENEW_OFF: 'gray',
  EXPIRY_WARNING: 'orange',
  EXPIRED: 'red',
  REVOKED: 'gray',
};

const isEvent = (event: string): event is LicenseEvent =>
  (LICENSE_EVENTS as readonly string[]).includes(event);

/** The translation key of an event, or undefined for one the screens have no words for (shown as stored). */
export function eventKey(event: string): string | undefined {
  return isEvent(event) ? `organizationUsage.consumptions.history.events.${event}` : undefined;
}

export function eventColor(event: string): string {
  return isEvent(event) ? COLORS[event] : 'gray';
}
