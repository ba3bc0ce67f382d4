import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

/**
 * Spec 7 Core "Apps: GET /api/v1/apps; GET /apps/{id}": the store catalogue, the same for every organization, for
 * any signed-in user. (Organization apps — install, plans, likes — live under /organizations/{org}/apps.)
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
    async (request) => service.listApps(db, request.query),
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
    async (request) => service.getApp(db, request.params.id),
  );
};
