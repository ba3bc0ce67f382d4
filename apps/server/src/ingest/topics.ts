/** The device topics of docs/device-protocol.md: every device owns `devices/{its id}/...` and nothing else. */
export const TOPIC_ROOT = 'devices';

export type DeviceTopicKind = 'data' | 'status' | 'setpoints';

export const dataTopic = (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/data`;
export const statusTopic = (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/status`;
export const setpointTopic = (deviceId: string) => `${TOPIC_ROOT}/${deviceId}/setpoints`;

/** What a device may publish to (its data and its status) and subscribe to (its set-points). */
export const PUBLISHABLE: readonly DeviceTopicKind[] = ['data', 'status'];
export const SUBSCRIBABLE: readonly DeviceTopicKind[] = ['setpoints'];

export function parseDeviceTopic(topic: string): { deviceId: string; kind: DeviceTopicKind } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== TOPIC_ROOT) return undefined;
  const [, deviceId, kind] = parts;
  if (!deviceId || (kind !== 'data' && kind !== 'status' && kind !== 'setpoints')) return undefined;
  return { deviceId, kind };
}

/** Whether `topic` is one of the device's own topics of an allowed kind (no wildcards, no other device). */
export function ownTopic(topic: string, deviceId: string, allowed: readonly DeviceTopicKind[]): boolean {
  const parsed = parseDeviceTopic(topic);
  return parsed !== undefined && parsed.deviceId === deviceId && allowed.includes(parsed.kind);
}
