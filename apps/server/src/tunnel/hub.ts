import type { Duplex } from 'node:stream';

/** Where a stream through a gateway goes: a host on the gateway's LAN and a TCP port. */
export type TunnelTarget = { host: string; port: number };

/**
 * The gateway agents connected over `/tunnel`: one multiplexed WebSocket per gateway. Services open TCP streams
 * through it and drop a gateway's tunnel; they never see the wire protocol.
 */
export interface GatewayTunnels {
  /** Whether the gateway's agent is connected to this server instance now. */
  isOnline(gatewayId: string): boolean;
  /** Whether the gateway's agent is connected now, to this instance or (in a cluster) to another live one. */
  online(gatewayId: string): Promise<boolean>;
  /**
   * A TCP stream to `target` through the gateway's agent (in a cluster, through the instance holding its tunnel).
   * Rejects when the agent is not connected, refuses the target, or cannot reach it.
   */
  openStream(gatewayId: string, target: TunnelTarget): Promise<Duplex>;
  /**
   * A raw data connection to `target` through the gateway's agent: the agent connects to the machine and then opens
   * a TCP connection of its own to the server (`/tunnel/stream/{id}`, outside the multiplexed tunnel), whose socket
   * this resolves with — bytes need no framing, so forwarding costs little more than a pipe. Rejects like
   * `openStream` (offline, refused with the agent's reason, timeout, tunnel closed). Breaks when the tunnel does.
   */
  openDataConnection(gatewayId: string, target: TunnelTarget): Promise<Duplex>;
  /** Drops the gateway's tunnel on this instance (the agent reconnects with backoff); false when not held here. */
  disconnect(gatewayId: string, reason: string): boolean;
  /** Drops the gateway's tunnel wherever it is held (in a cluster: the holder hears it); false when offline. */
  drop(gatewayId: string, reason: string): Promise<boolean>;
  /**
   * Tells the gateway's connected agent (if any, wherever it is held) that its LAN changed in the portal; an agent
   * started without a LAN of its own checks targets against it from then on.
   */
  lanNetworkChanged(gatewayId: string, lanNetwork: string | null): Promise<void>;
  /** Closes every tunnel (server shutdown). */
  close(): Promise<void>;
}
