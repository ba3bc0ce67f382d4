import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

export const accountRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/account',
    { schema: { operationId: 'getAccount', response: { 200: core.Account, ...errorResponses } } },
    async (request) => service.myAccount(db, principalOf(request)),
  );

  app.patch(
    '/api/v1/account',
    {
      schema: {
        operationId: 'updateAccount',
        body: core.AccountUpdate,
        response: { 200: core.Account, ...errorResponses },
      },
    },
    async (request) => service.updateMyAccount(db, principalOf(request), request.body),
  );

  app.delete(
    '/api/v1/account/credentials/:id',
    {
      schema: {
        operationId: 'deleteAccountCredential',
        params: core.IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.removeCredential(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/account/sessions/:id',
    {
      schema: {
        operationId: 'deleteAccountSession',
        params: core.IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.endSession(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
