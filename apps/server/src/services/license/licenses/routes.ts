import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

export const licensesRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
