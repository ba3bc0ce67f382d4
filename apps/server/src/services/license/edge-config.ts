import type { license } from '@edgeport/contract';
import { baseOrigin, type Config } from '../../config.ts';
import type { ModelPath, PresetMapping } from '../../db/schema.ts';
import { mergeConfiguration } from '../platform/devices/configuration.ts';

export type BrokerUrls = { mqttUrl: string; mqttWebSocketUrl: string };

/**
 * Where devices connect: the embedded broker on `{BASE_DOMAIN}:{MQTT_PORT}` and its WebSocket at `/mqtt` of the
 * product's public origin. With MQTT_URL (an external broker) devices are sent there, without its credentials.
 */
export function brokerUrls(
  config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain' | 'mqttPort' | 'mqttUrl'>,
): BrokerUrls {
  const origin = new URL(baseOrigin(config));
  const webSocketScheme = config.publicScheme === 'https' ? 'wss' : 'ws';
  const mqttWebSocketUrl = `${webSocketScheme}://${origin.host}/mqtt`;
  if (config.mqttUrl) {
    const external = new URL(config.mqttUrl);
    return { mqttUrl: `${external.protocol}//${external.host}`, mqttWebSocketUrl };
  }
  // With the TCP listener off (MQTT_PORT=0) the WebSocket is the way in; MQTT clients take ws:// addresses too.
  if (config.mqttPort === 0) return { mqttUrl: mqttWebSocketUrl, mqttWebSocketUrl };
  return { mqttUrl: `mqtt://${config.baseDomain}:${config.mqttPort}`, mqttWebSocketUrl };
}

export type EdgePreset = {
  id: string;
  name: string;
  mappings: PresetMapping[];
  paths: ModelPath[];
  deviceConfiguration: Record<string, unknown>;
};

/** The data topic a device publishes to and the set-point topic it subscribes to. */
export function deviceTopics(deviceId: string) {
  return { data: `devices/${deviceId}/data`, setpoints: `devices/${deviceId}/setpoints` };
}

/** The edge configuration file's content for a freshly activated device (everything but the password). */
export function edgeConfiguration(
  device: { id: string; label: string; organizationId: string; configuration: Record<string, unknown> },
  preset: EdgePreset | undefined,
  urls: BrokerUrls,
): license.EdgeConfiguration {
  const byPath = new Map((preset?.paths ?? []).map((path) => [path.path, path]));
  const dataTags = (preset?.mappings ?? []).flatMap((mapping) => {
    const target = byPath.get(mapping.path);
    if (!target) return [];
    return [
      {
        tag: mapping.tag,
        path: target.path,
        type: target.type,
        unit: target.unit ?? null,
        writable: target.writable === true,
      },
    ];
  });
  const example: Record<string, unknown> = {};
  for (const tag of dataTags.slice(0, 5)) {
    example[tag.tag] =
      tag.type === 'boolean' ? true : tag.type === 'string' ? 'text' : tag.type === 'integer' ? 1 : 1.5;
  }
  return {
    format: 'edgeport-edge-config/1',
    device: { id: device.id, label: device.label, organizationId: device.organizationId },
    mqtt: {
      url: urls.mqttUrl,
      webSocketUrl: urls.mqttWebSocketUrl,
      clientId: device.id,
      username: device.id,
      qos: 1,
    },
    topics: deviceTopics(device.id),
    payload: {
      example: { ts: Date.now(), values: example },
      description:
        'Publish JSON {"ts": <epoch ms, optional>, "values": {"<data tag>": <number|boolean|string>}} to the data ' +
        'topic; set-points arrive on the set-point topic as {"id", "tag", "path", "value"}.',
    },
    preset: preset ? { id: preset.id, name: preset.name } : null,
    dataTags,
    configuration: mergeConfiguration(preset?.deviceConfiguration ?? {}, device.configuration),
  };
}
