import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';

/** Device groups of an organization (READ/CREATE/UPDATE/DELETE devicegroups). */
export const deviceGroupRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async () => {};
