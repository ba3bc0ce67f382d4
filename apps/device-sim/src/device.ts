import mqtt, { type MqttClient } from 'mqtt';
import { type Signal, signalFor, type TagSpec } from './signals.ts';

/** The broker URL as mqtt.js options: given a URL string, mqtt.js parses it with the deprecated `url.parse`. */
function brokerAddress(url: string) {
  const parsed = new URL(url);
  const protocol = parsed.protocol.replace(':', '') as 'mqtt' | 'mqtts' | 'ws' | 'wss';
  const defaultPort = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 }[protocol];
  return {
    protocol,
    hostname: parsed.hostname,
    port: Number(parsed.port) || defaultPort,
    path: parsed.pathname,
  };
}

export type DeviceCredentials = { deviceId: string; password: string };

export type SimulatedDeviceOptions = {
  url: string;
  credentials: DeviceCredentials;
  tags: TagSpec[];
  /** Messages per second this device publishes; 0 publishes as fast as acknowledgements allow (load test). */
  rate: number;
  qos: 0 | 1;
  /** Load test: how many QoS 1 messages may wait for their acknowledgement at once. */
  inflight?: number;
  onAcked?: (count: number) => void;
  onError?: (error: Error) => void;
  onSetpoint?: (setpoint: { tag: string; value: unknown }) => void;
};

/**
 * One simulated device: connects with its credentials (client id = its device id), publishes its tags to
 * `devices/{id}/data`, applies set-points from `devices/{id}/setpoints` (a written tag holds the written value).
 */
export class SimulatedDevice {
  readonly client: MqttClient;
  private readonly signals: Map<string, Signal>;
  private readonly held = new Map<string, unknown>();
  private timer: NodeJS.Timeout | undefined;
  private inflight = 0;
  private stopped = false;
  private readonly options: SimulatedDeviceOptions;

  constructor(options: SimulatedDeviceOptions) {
    this.options = options;
    const { deviceId, password } = options.credentials;
    this.signals = new Map(options.tags.map((spec) => [spec.tag, signalFor(spec, deviceId)]));
    this.client = mqtt.connect({
      ...brokerAddress(options.url),
      clientId: deviceId,
      username: deviceId,
      password,
      clean: true,
      reconnectPeriod: 2000,
      will: { topic: `devices/${deviceId}/status`, payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.client.on('error', (error) => options.onError?.(error));
    this.client.on('connect', () => {
      // Small publishes must not wait for the broker's delayed TCP acknowledgement (Nagle's algorithm).
      const stream = this.client.stream as { setNoDelay?: (noDelay: boolean) => void };
      stream.setNoDelay?.(true);
      this.client.subscribe(`devices/${deviceId}/setpoints`, { qos: 1 });
      this.client.publish(`devices/${deviceId}/status`, 'online', { qos: 1, retain: true });
      this.start();
    });
    this.client.on('message', (_topic, payload) => this.applySetpoint(payload));
  }

  /** The next message: every tag's current value (held set-points win), stamped now. */
  message(now = Date.now()): string {
    const values: Record<string, unknown> = {};
    for (const [tag, signal] of this.signals)
      values[tag] = this.held.has(tag) ? this.held.get(tag) : signal(now);
    return JSON.stringify({ ts: now, values });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.client.endAsync();
  }

  private start(): void {
    clearInterval(this.timer);
    if (this.options.rate > 0) {
      this.timer = setInterval(() => this.publishOne(), 1000 / this.options.rate);
    } else {
      for (let i = 0; i < (this.options.inflight ?? 10); i++) this.publishOne();
    }
  }

  private publishOne(): void {
    if (this.stopped || !this.client.connected) return;
    this.inflight++;
    this.client.publish(
      `devices/${this.options.credentials.deviceId}/data`,
      this.message(),
      { qos: this.options.qos },
      (error) => {
        this.inflight--;
        if (error) return this.options.onError?.(error);
        this.options.onAcked?.(1);
        if (this.options.rate === 0) this.publishOne();
      },
    );
  }

  private applySetpoint(payload: Buffer): void {
    try {
      const setpoint = JSON.parse(payload.toString()) as { tag?: unknown; value?: unknown };
      if (typeof setpoint.tag !== 'string') return;
      this.held.set(setpoint.tag, setpoint.value);
      this.options.onSetpoint?.({ tag: setpoint.tag, value: setpoint.value });
    } catch {
      // A set-point that is not JSON is ignored, as a real device would.
    }
  }
}
