/** The TanStack Query key root of everything about devices (lists, details, tags, positions, groups). */
export const DEVICES_KEY = 'devices';
export const DEVICE_GROUPS_KEY = 'device-groups';
