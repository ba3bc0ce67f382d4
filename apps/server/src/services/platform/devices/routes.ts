import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

/** Spec 7 Platform: device data tags, status history and sync, configuration, lookups, formula validation. */
export const platformDeviceRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
