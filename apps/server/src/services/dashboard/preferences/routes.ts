import { dashboards as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

/**
 * Spec 7 "Dashboard" userPreferences "with a dashboardId added": the caller's own settings for a dashboard, flow or
 * widget they may open (r), by key. Values are JSON of at most 64 KiB.
 */
export const preferencesRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/userPreferences',
    {
      schema: {
        operationId: 'getDashboardPreferences',
        description:
          "The caller's preferences for the dashboard (flow, widget) dashboardId, all of them or the one key, by " +
          'key; the caller must be able to open it (r).',
        querystring: contract.PreferenceQuery,
        response: { 200: contract.DashboardPreferenceList, ...errors },
      },
    },
    async (request) => service.listPreferences(db, principalOf(request), request.query),
  );

  app.put(
    '/api/v1/userPreferences',
    {
      schema: {
        operationId: 'putDashboardPreference',
        description:
          "Saves one of the caller's preferences for a dashboard they can open (r): inserted or replaced; the " +
          `value is JSON (not null) of at most ${service.PREFERENCE_MAX_BYTES} bytes.`,
        body: contract.PreferenceWrite,
        response: { 200: contract.DashboardPreference, ...errors },
      },
    },
    async (request) => service.writePreference(db, principalOf(request), request.body),
  );

  app.delete(
    '/api/v1/userPreferences',
    {
      schema: {
        operationId: 'deleteDashboardPreferences',
        description:
          "Deletes the caller's preference key for the dashboard, or all of the caller's preferences for it when " +
          'key is absent (r).',
        querystring: contract.PreferenceQuery,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deletePreferences(db, principalOf(request), request.query);
      return reply.code(204).send(null);
    },
  );
};
