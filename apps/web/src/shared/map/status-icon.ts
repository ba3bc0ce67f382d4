import L from 'leaflet';
import classes from './status-icon.module.css';

type Status = 'ONLINE' | 'OFFLINE';

const icons = new Map<Status, L.DivIcon>();

/** The map marker of a device or gateway: a dot in the status colour used everywhere (anything but ONLINE is OFFLINE). */
export function statusIcon(status: string): L.DivIcon {
  const key: Status = status === 'ONLINE' ? 'ONLINE' : 'OFFLINE';
  let icon = icons.get(key);
  if (!icon) {
    icon = L.divIcon({
      className: classes.marker,
      html: `<span class="${classes.dot}" data-status="${key}"></span>`,
      iconSize: [18, 18],
      iconAnchor: [9, 9],
      popupAnchor: [0, -10],
    });
    icons.set(key, icon);
  }
  return icon;
}
