import { alarms } from '@edgeport/contract/values';
import L from 'leaflet';
import classes from './status-icon.module.css';

type Status = 'ONLINE' | 'OFFLINE';

const icons = new Map<string, L.DivIcon>();

/** A round marker coloured by one data attribute (fixed markup: no user text inside), made once per value. */
function dotIcon(attribute: 'status' | 'severity', value: string, size: number): L.DivIcon {
  const key = `${attribute}:${value}`;
  let icon = icons.get(key);
  if (!icon) {
    icon = L.divIcon({
      className: classes.marker,
      html: `<span class="${classes.dot}" data-${attribute}="${value}"></span>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
      popupAnchor: [0, -10],
    });
    icons.set(key, icon);
  }
  return icon;
}

/** The map marker of a device or gateway: a dot in the status colour used everywhere (anything but ONLINE is OFFLINE). */
export function statusIcon(status: string): L.DivIcon {
  const key: Status = status === 'ONLINE' ? 'ONLINE' : 'OFFLINE';
  return dotIcon('status', key, 18);
}

const SEVERITIES: readonly string[] = alarms.SEVERITIES;

/** The marker of a device in the colour of its most severe open alarm (CRITICAL, MAJOR, MINOR, WARNING or INFO). */
export function severityIcon(severity: string): L.DivIcon {
  // The value is written into the markup: only the five names get there (anything else is drawn without colour).
  return dotIcon('severity', SEVERITIES.includes(severity) ? severity : 'UNKNOWN', 20);
}
