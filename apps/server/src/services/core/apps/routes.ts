import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

/**
 * Spec 7 Core "Apps: GET /api/v1/apps; GET /apps/{id}": the store catalogue, the same for every organization, for
 * any signed-in user, with likes (`/apps/{id}/like`, per user). Organization apps (install, plans, payments) live
 * under /organizations/{org}/apps (`../organization-apps`).
 */
export const appRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/apps',
    {
      schema: {
        operationId: 'getApps',
        description: 'The store catalogue, paged; search looks in name, description and publisher.',
        querystring: core.AppsQuery,
        response: { 200: core.AppsPage, ...errors },
      },
    },
    async (request) => service.listApps(db, principalOf(request), request.query),
  );

  app.get(
    '/api/v1/apps/:id',
    {
      schema: {
        operationId: 'getApp',
        description: 'One app of the catalogue, with the entry address the portal embeds.',
        params: core.AppParams,
        response: { 200: core.App, ...errors },
      },
    },
    async (request) => service.getApp(db, principalOf(request), request.params.id),
  );

  app.get(
    '/api/v1/apps/:id/like',
    {
      schema: {
        operationId: 'getAppLike',
        description: "Whether the caller likes the app, and the app's like count.",
        params: core.AppParams,
        response: { 200: core.AppLike, ...errors },
      },
    },
    async (request) => service.getLike(db, principalOf(request), request.params.id),
  );

  app.post(
    '/api/v1/apps/:id/like',
    {
      schema: {
        operationId: 'likeApp',
        description: 'The caller likes the app (idempotent); answers the like state and count.',
        params: core.AppParams,
        response: { 200: core.AppLike, ...errors },
      },
    },
    async (request) => service.setLike(db, principalOf(request), request.params.id, true),
  );

  app.delete(
    '/api/v1/apps/:id/like',
    {
      schema: {
        operationId: 'unlikeApp',
        description: 'The caller no longer likes the app (idempotent); answers the like state and count.',
        params: core.AppParams,
        response: { 200: core.AppLike, ...errors },
      },
    },
    async (request) => service.setLike(db, principalOf(request), request.params.id, false),
  );
};
