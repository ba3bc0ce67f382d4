import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

/** Latest values of a device and set-point writes back to it. */
export const valueRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
