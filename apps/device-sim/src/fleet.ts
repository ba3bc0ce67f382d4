import { type DeviceCredentials, SimulatedDevice } from './device.ts';
import type { TagSpec } from './signals.ts';

export type FleetOptions = {
  url: string;
  devices: DeviceCredentials[];
  tags: TagSpec[];
  rate: number;
  qos: 0 | 1;
  inflight?: number;
};

export type FleetProgress = {
  connected: number;
  devices: number;
  acked: number;
  errors: number;
  lastError?: string;
};

/** Many simulated devices at once, with counters for a progress line. */
export class Fleet {
  readonly progress: FleetProgress;
  private readonly members: SimulatedDevice[];

  constructor(options: FleetOptions) {
    this.progress = { connected: 0, devices: options.devices.length, acked: 0, errors: 0 };
    this.members = options.devices.map(
      (credentials) =>
        new SimulatedDevice({
          url: options.url,
          credentials,
          tags: options.tags,
          rate: options.rate,
          qos: options.qos,
          inflight: options.inflight,
          onAcked: (count) => {
            this.progress.acked += count;
          },
          onError: (error) => {
            this.progress.errors++;
            this.progress.lastError = error.message;
          },
        }),
    );
    for (const member of this.members) {
      member.client.on('connect', () => this.recount());
      member.client.on('close', () => this.recount());
    }
  }

  private recount(): void {
    this.progress.connected = this.members.filter((member) => member.client.connected).length;
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((member) => member.stop()));
  }
}

/** "devices 10/10 connected · 1,234 msg/s · 56,789 acknowledged · 0 errors" */
export function progressLine(progress: FleetProgress, perSecond: number): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const error = progress.lastError ? ` (last: ${progress.lastError})` : '';
  return `devices ${progress.connected}/${progress.devices} connected · ${n(perSecond)} msg/s · ${n(progress.acked)} acknowledged · ${progress.errors} errors${error}`;
}
