import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { GatewayTunnels } from './hub.ts';

export type RemoteAccessRouteOptions = { db: Db; config: Config; tunnels: GatewayTunnels };

/**
 * Sessions through the tunnel (being built): browser access at `/remote/{session}/...` (HTTP and WebSocket proxied
 * through the gateway agent) and `/tunnel/tcp/{session}` (the companion CLI's TCP forwarding).
 */
export const remoteAccessRoutes: FastifyPluginAsync<RemoteAccessRouteOptions> = async () => {};
