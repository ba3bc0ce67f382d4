import { alarms, common, triggers } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import type { ServiceContext, ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

const routes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { config, database, triggers: engine },
) => {
  const { db } = database;
  const context = { db, engine, privateHosts: config.webhookAllowedPrivateHosts };

  app.get(
    '/api/v1/triggers',
    {
      schema: {
        operationId: 'getTriggers',
        description:
          "The organization's trigger rules by name, each with its run count, last run and last error " +
          '(READ organizations).',
        querystring: alarms.OrganizationQuery,
        response: { 200: triggers.TriggerList, ...errors },
      },
    },
    async (request) => service.listTriggers(db, principalOf(request), request.query.organization),
  );

  app.post(
    '/api/v1/triggers',
    {
      schema: {
        operationId: 'createTrigger',
        description:
          'Creates a trigger rule "when <condition> then <action>" (UPDATE organizations). Devices must be ' +
          "devices of the organization, a notify action's notificationId one of its notification rules, a write " +
          "action's path writable in the device's model with a value of its type, a webhook URL a public " +
          "address (a private one only of WEBHOOK_ALLOWED_PRIVATE_HOSTS, and one of the organization's allowed " +
          'webhook hosts when it lists any); 409 for a name in use.',
        querystring: alarms.OrganizationQuery,
        body: triggers.TriggerInput,
        response: { 201: triggers.Trigger, ...refusals },
      },
    },
    async (request, reply) => {
      const created = await service.createTrigger(
        context,
        principalOf(request),
        request.query.organization,
        request.body,
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/v1/triggers/:id',
    {
      schema: {
        operationId: 'getTrigger',
        description: 'One trigger rule of the organization (READ organizations).',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 200: triggers.Trigger, ...errors },
      },
    },
    async (request) =>
      service.getTrigger(db, principalOf(request), request.query.organization, request.params.id),
  );

  app.put(
    '/api/v1/triggers/:id',
    {
      schema: {
        operationId: 'updateTrigger',
        description:
          'Changes a trigger rule: the given fields replace the stored ones (enabled to enable or disable it), ' +
          'checked as on creation (UPDATE organizations); 409 for a name in use.',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        body: triggers.TriggerPatch,
        response: { 200: triggers.Trigger, ...refusals },
      },
    },
    async (request) =>
      service.updateTrigger(
        context,
        principalOf(request),
        request.query.organization,
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    '/api/v1/triggers/:id',
    {
      schema: {
        operationId: 'deleteTrigger',
        description: 'Deletes a trigger rule (UPDATE organizations).',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteTrigger(
        context,
        principalOf(request),
        request.query.organization,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/triggers/:id/run',
    {
      schema: {
        operationId: 'runTrigger',
        description:
          'Runs the action of the trigger rule once now, whatever its condition and even when disabled (to test ' +
          'it), and answers the rule with its updated run count, last run and last error (UPDATE organizations).',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 200: triggers.Trigger, ...errors },
      },
    },
    async (request) =>
      service.runTrigger(context, principalOf(request), request.query.organization, request.params.id),
  );
};

export const triggerManagerService: ServiceDefinition = {
  name: 'triggermanager',
  title: 'Edgeport trigger manager',
  routes,
};
