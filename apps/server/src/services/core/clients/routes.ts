import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/clients';

/** Service-account clients of an organization (READ organizations to read, UPDATE organizations to change). */
export const clientRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getClients',
        description: 'The service-account clients of {org}, paged; search matches the name.',
        params: core.OrganizationParams,
        querystring: core.ServiceClientListQuery,
        response: { 200: core.ServiceClientPage, ...errors },
      },
    },
    async (request) => service.listClients(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createClient',
        description:
          'A new client without a secret (generate one with POST .../secret); 409 for a name in use.',
        params: core.OrganizationParams,
        body: core.ServiceClientCreate,
        response: { 201: core.ServiceClient, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createClient(db, principalOf(request), request.params.org, request.body)),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteClient',
        params: core.ServiceClientParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteClient(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/secret`,
    {
      schema: {
        operationId: 'getClientSecret',
        description:
          'Whether the client has a secret and since when; the secret itself is never shown again.',
        params: core.ServiceClientParams,
        response: { 200: core.ClientSecretInfo, ...errors },
      },
    },
    async (request) => service.secretInfo(db, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${base}/:id/secret`,
    {
      schema: {
        operationId: 'regenerateClientSecret',
        description:
          'A new random secret replacing the old one. It is in this answer only; the server keeps its SHA-256 hash.',
        params: core.ServiceClientParams,
        response: { 200: core.ClientSecret, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.regenerateSecret(db, principalOf(request), request.params.org, request.params.id);
    },
  );
};
