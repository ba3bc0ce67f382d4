import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org/apiKeys';

/** Spec 7 Core "API keys: GET/POST /apiKeys; DELETE /apiKeys/{id}; username param". */
export const apiKeyRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getApiKeys',
        params: core.ApiKeysParams,
        querystring: core.ApiKeysQuery,
        response: { 200: Type.Array(core.ApiKey), ...errors },
      },
    },
    async (request) => service.listKeys(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createApiKey',
        params: core.ApiKeysParams,
        body: core.ApiKeyCreate,
        response: { 201: core.CreatedApiKey, ...errors, 409: common.ErrorResponse },
      },
    },
    async (request, reply) => {
      const key = await service.createKey(db, principalOf(request), request.params.org, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(key);
    },
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteApiKey',
        params: core.ApiKeyParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteKey(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
