import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

export const assetsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (_app, _context) => {};
