import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

/** Remote access: the applications calls of spec 7 "Gateway/VPN service" (being built). */
export const applicationsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
