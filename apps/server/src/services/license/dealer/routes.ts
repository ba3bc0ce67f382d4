import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

export const dealerRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
