import type { Duplex } from 'node:stream';
import type { GatewayTunnels, TunnelTarget } from './hub.ts';

/** The agents' tunnels, one per gateway (being built). */
export class TunnelHub implements GatewayTunnels {
  isOnline(_gatewayId: string): boolean {
    return false;
  }

  openStream(_gatewayId: string, _target: TunnelTarget): Promise<Duplex> {
    return Promise.reject(new Error('the gateway is not connected'));
  }

  disconnect(_gatewayId: string, _reason: string): boolean {
    return false;
  }

  async close(): Promise<void> {}
}
