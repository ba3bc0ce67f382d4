import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

/** The app catalogue of the store (GET /api/v1/apps, /apps/{id}). */
export const appRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
