import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

export const agreementRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/agreements/last',
    {
      config: { public: true },
      schema: {
        operationId: 'getLastAgreements',
        querystring: core.ServiceNameQuery,
        response: { 200: Type.Array(core.Agreement), ...errorResponses },
      },
    },
    async (request) => service.lastAgreements(db, request.headers.host, request.query.serviceName),
  );

  app.get(
    '/api/v1/agreements/check',
    {
      schema: {
        operationId: 'checkAgreements',
        querystring: core.ServiceNameQuery,
        response: { 200: core.AgreementCheck, ...errorResponses },
      },
    },
    async (request) => ({
      pending: await service.pendingAgreements(db, principalOf(request), request.query.serviceName),
    }),
  );

  app.post(
    '/api/v1/agreements/accept',
    {
      schema: {
        operationId: 'acceptAgreements',
        body: core.AgreementAccept,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.acceptAgreements(db, principalOf(request), request.body.ids);
      return reply.code(204).send(null);
    },
  );
};
