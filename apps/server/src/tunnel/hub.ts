import type { Duplex } from 'node:stream';

/** Where a stream through a gateway goes: a host on the gateway's LAN and a TCP port. */
export type TunnelTarget = { host: string; port: number };

/**
 * The gateway agents connected over `/tunnel`: one multiplexed WebSocket per gateway. Services open TCP streams
 * through it and drop a gateway's tunnel; they never see the wire protocol.
 */
export interface GatewayTunnels {
  /** Whether the gateway's agent is connected now. */
  isOnline(gatewayId: string): boolean;
  /**
   * A TCP stream to `target` through the gateway's agent. Rejects when the agent is not connected, refuses the
   * target, or cannot reach it.
   */
  openStream(gatewayId: string, target: TunnelTarget): Promise<Duplex>;
  /**
   * A raw data connection to `target` through the gateway's agent: the agent connects to the machine and then opens
   * a TCP connection of its own to the server (`/tunnel/stream/{id}`, outside the multiplexed tunnel), whose socket
   * this resolves with — bytes need no framing, so forwarding costs little more than a pipe. Rejects like
   * `openStream` (offline, refused with the agent's reason, timeout, tunnel closed). Breaks when the tunnel does.
   */
  openDataConnection(gatewayId: string, target: TunnelTarget): Promise<Duplex>;
  /** Drops the gateway's tunnel (the agent reconnects with backoff); false when it was not connected. */
  disconnect(gatewayId: string, reason: string): boolean;
  /**
   * Tells the gateway's connected agent (if any) that its LAN changed in the portal; an agent started without a LAN
   * of its own checks targets against it from then on.
   */
  lanNetworkChanged?(gatewayId: string, lanNetwork: string | null): void;
  /** Closes every tunnel (server shutdown). */
  close(): Promise<void>;
}
