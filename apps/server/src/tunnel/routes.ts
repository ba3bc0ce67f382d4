import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/index.ts';
import type { GatewayTunnels } from './hub.ts';

export type TunnelRouteOptions = { db: Db; tunnels: GatewayTunnels };

/** `/tunnel`: the WebSocket the gateway agents connect to (being built). */
export const tunnelRoutes: FastifyPluginAsync<TunnelRouteOptions> = async () => {};
