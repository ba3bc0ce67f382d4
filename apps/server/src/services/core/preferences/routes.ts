import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/userPreferences';

export const preferenceRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getUserPreferences',
        response: { 200: Type.Array(core.UserPreference), ...errorResponses },
      },
    },
    async (request) => service.myPreferences(db, principalOf(request)),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'saveUserPreference',
        body: core.UserPreferenceCreate,
        response: { 200: core.UserPreference, ...errorResponses },
      },
    },
    async (request) => {
      const { serviceName, property, value1 } = request.body;
      return service.savePreference(db, principalOf(request), { serviceName, property }, value1);
    },
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteUserPreference',
        params: core.IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.removePreference(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  const userPath = `${base}/users/:user/services/:service/properties/:prop`;
  app.get(
    userPath,
    {
      schema: {
        operationId: 'getUserPreferenceProperty',
        params: core.UserPreferencePath,
        response: { 200: core.UserPreference, ...errorResponses },
      },
    },
    async (request) => {
      const { user, service: serviceName, prop: property } = request.params;
      return service.preferenceOfUser(db, principalOf(request), user, { serviceName, property });
    },
  );

  app.put(
    userPath,
    {
      schema: {
        operationId: 'setUserPreferenceProperty',
        params: core.UserPreferencePath,
        body: core.UserPreferenceValue,
        response: { 200: core.UserPreference, ...errorResponses },
      },
    },
    async (request) => {
      const { user, service: serviceName, prop: property } = request.params;
      return service.setPreferenceOfUser(
        db,
        principalOf(request),
        user,
        { serviceName, property },
        request.body.value1,
      );
    },
  );
};
