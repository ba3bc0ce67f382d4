import { alarms, common, limits } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHANNELS, invalidation } from '../../cluster/invalidation.ts';
import { principalOf } from '../../http/principal.ts';
import type { ServiceContext, ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

const routes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database, ingest, bus, config }) => {
  const { db } = database;
  const retention = config.telemetryRetention;
  const { meter } = ingest.pipeline;
  const limitChanges = invalidation(bus, CHANNELS.limits, {
    one: (organizationId) => meter.invalidate(organizationId),
    all: () => meter.invalidateAll(),
  });
  app.addHook('onClose', async () => limitChanges.stop());
  const changed = limitChanges.changed;
  const path = '/api/v1/limits';

  app.get(
    path,
    {
      schema: {
        operationId: 'getLimits',
        description:
          "The organization's limits (null: unlimited; all null and `defined` false when none were ever created) " +
          "and what it uses of them: devices, users (members), dashboards, today's (UTC) data points and " +
          'notifications (READ organizations).',
        querystring: alarms.OrganizationQuery,
        response: { 200: limits.Limits, ...errors },
      },
    },
    async (request) => service.getLimits(db, principalOf(request), request.query.organization, retention),
  );

  app.post(
    path,
    {
      schema: {
        operationId: 'createLimits',
        description:
          "Creates the organization's limits: at least one key with a number (or null: unlimited), otherwise 400 " +
          "'undefined limits'; absent keys are unlimited. 409 when the organization has limits already. The " +
          "caller's organization must be an ancestor of the target (the root organization may also set its own) " +
          '(UPDATE organizations).',
        querystring: alarms.OrganizationQuery,
        body: limits.LimitsInput,
        response: { 201: limits.Limits, ...refusals },
      },
    },
    async (request, reply) => {
      const created = await service.createLimits(
        db,
        principalOf(request),
        request.query.organization,
        request.body,
        retention,
        changed,
      );
      return reply.code(201).send(created);
    },
  );

  app.put(
    path,
    {
      schema: {
        operationId: 'replaceLimits',
        description:
          "Replaces the organization's limits (creates them when there are none): at least one key with a number " +
          "(or null: unlimited), otherwise 400 'undefined limits'; absent keys are unlimited. The caller's " +
          'organization must be an ancestor of the target (the root organization may also set its own) ' +
          '(UPDATE organizations).',
        querystring: alarms.OrganizationQuery,
        body: limits.LimitsInput,
        response: { 200: limits.Limits, ...errors },
      },
    },
    async (request) =>
      service.replaceLimits(
        db,
        principalOf(request),
        request.query.organization,
        request.body,
        retention,
        changed,
      ),
  );
};

export const limitsService: ServiceDefinition = {
  name: 'limits',
  title: 'Edgeport limits service',
  routes,
};
