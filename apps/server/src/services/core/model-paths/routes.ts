import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org/modelPaths';

/** Spec 7 Core "Model paths: GET/POST /modelPaths": the catalogue of paths the organization's roles can grant. */
export const modelPathRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getModelPaths',
        description:
          "One page of the model paths known in the organization (READ roles): those registered and those of its data models' current versions, sorted by path.",
        params: core.OrganizationParams,
        querystring: core.ModelPathQuery,
        response: { 200: core.ModelPathPage, ...errors },
      },
    },
    async (request) => service.listModelPaths(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'registerModelPaths',
        description:
          "Registers model paths (UPDATE roles); each must start with '/' and appear once, a path registered already is kept.",
        params: core.OrganizationParams,
        body: core.ModelPathRegistration,
        response: { 201: Type.Array(core.KnownModelPath), ...errors, 409: common.ErrorResponse },
      },
    },
    async (request, reply) => {
      const rows = await service.registerModelPaths(
        db,
        principalOf(request),
        request.params.org,
        request.body,
      );
      return reply.code(201).send(rows);
    },
  );
};
