import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

export const statusRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/status/issues',
    {
      config: { public: true },
      schema: { operationId: 'getStatusIssues', response: { 200: Type.Array(core.StatusIssue) } },
    },
    async (request) => service.statusFeed(db, request.headers.host),
  );

  app.post(
    '/api/v1/status/issues',
    {
      schema: {
        operationId: 'createStatusIssue',
        body: core.StatusIssueCreate,
        response: { 201: core.StatusIssue, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.postIssue(db, principalOf(request), request.body)),
  );

  app.put(
    '/api/v1/status/issues/:id',
    {
      schema: {
        operationId: 'updateStatusIssue',
        params: core.IdParams,
        body: core.StatusIssueCreate,
        response: { 200: core.StatusIssue, ...errorResponses },
      },
    },
    async (request) => service.changeIssue(db, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/status/issues/:id',
    {
      schema: {
        operationId: 'deleteStatusIssue',
        params: core.IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.removeIssue(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
