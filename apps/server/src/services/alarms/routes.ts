import { alarms, common } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import type { ServiceContext, ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import type { AlarmAction } from './service.ts';
import * as service from './service.ts';

const withConflict = { ...errors, 409: common.ErrorResponse };

const ACTIONS: { name: AlarmAction; operationId: string; description: string }[] = [
  {
    name: 'ack',
    operationId: 'ackAlarms',
    description:
      'Acknowledges the chosen alarms of the organization whose acknowledgement is REQUIRED (ACK alarms); the ' +
      'others are left alone. An alarm whose condition is gone and that requires nothing more closes.',
  },
  {
    name: 'reset',
    operationId: 'resetAlarms',
    description:
      'Resets the chosen alarms of the organization whose reset is REQUIRED (RESET alarms); the others are left ' +
      'alone. An alarm whose condition is gone and that requires nothing more closes.',
  },
  {
    name: 'clear',
    operationId: 'clearAlarms',
    description:
      'Clears (closes) the chosen open alarms of the organization (CLEAR alarms); closed ones are left alone. A ' +
      'cleared alarm whose condition still holds is raised again only once the condition went away and came back.',
  },
];

const BULK_ACTIONS: { name: AlarmAction; operationId: string; description: string }[] = [
  {
    name: 'ack',
    operationId: 'ackAllAlarms',
    description:
      'Acknowledges every open alarm of the organization matching the filter whose acknowledgement is REQUIRED ' +
      '(ACK alarms).',
  },
  {
    name: 'reset',
    operationId: 'resetAllAlarms',
    description:
      'Resets every open alarm of the organization matching the filter whose reset is REQUIRED (RESET alarms).',
  },
  {
    name: 'clear',
    operationId: 'clearAllAlarms',
    description: 'Clears (closes) every open alarm of the organization matching the filter (CLEAR alarms).',
  },
];

/** Spec 7 "Alarms": search, get, counts and operator actions on alarms; the alarm rules that raise them. */
export const alarmRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, context) => {
  const deps = { db: context.database.db, engine: context.alarms };

  app.post(
    '/api/v1/alarms/search',
    {
      schema: {
        operationId: 'searchAlarms',
        description:
          'The alarms of the organization matching the filter, paged; sort by raisedAt (default, newest first), ' +
          'severity, deviceLabel, name or updatedAt (READ devices).',
        querystring: alarms.OrganizationQuery,
        body: alarms.AlarmSearch,
        response: { 200: alarms.AlarmPage, ...errors },
      },
    },
    async (request) =>
      service.searchAlarms(deps, principalOf(request), request.query.organization, request.body),
  );

  app.get(
    '/api/v1/alarms/severityCount',
    {
      schema: {
        operationId: 'getAlarmSeverityCount',
        description:
          'The number of open alarms of the organization by severity (not cleared, and active or awaiting ack or ' +
          'reset: spec 4); filter narrows like the search text (READ devices).',
        querystring: alarms.SeverityCountQuery,
        response: { 200: alarms.SeverityCounts, ...errors },
      },
    },
    async (request) =>
      service.severityCount(deps, principalOf(request), request.query.organization, request.query.filter),
  );

  app.get(
    '/api/v1/alarms/severityCountByDevice',
    {
      schema: {
        operationId: 'getAlarmSeverityCountByDevice',
        description:
          'The open alarm counts by severity of every device of the organization that has open alarms, by device ' +
          'label; pass the answered `next` for the following page (READ devices).',
        querystring: alarms.SeverityCountByDeviceQuery,
        response: { 200: alarms.SeverityCountByDevice, ...errors },
      },
    },
    async (request) =>
      service.severityCountByDevice(
        deps,
        principalOf(request),
        request.query.organization,
        request.query.pageSize ?? 50,
        request.query.next,
      ),
  );

  app.get(
    '/api/v1/alarms/:id',
    {
      schema: {
        operationId: 'getAlarm',
        description: 'One alarm of the organization with its history, oldest step first (READ devices).',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 200: alarms.AlarmWithHistory, ...errors },
      },
    },
    async (request) =>
      service.getAlarm(deps, principalOf(request), request.query.organization, request.params.id),
  );

  for (const action of ACTIONS) {
    app.post(
      `/api/v1/alarms/action/${action.name}`,
      {
        schema: {
          operationId: action.operationId,
          description: `${action.description} Every id must be an alarm of the organization, else 404.`,
          querystring: alarms.OrganizationQuery,
          body: alarms.AlarmSelection,
          response: { 200: alarms.AlarmActionResult, ...errors },
        },
      },
      async (request) =>
        service.actOnAlarms(
          deps,
          principalOf(request),
          request.query.organization,
          action.name,
          request.body.ids,
        ),
    );
  }

  for (const action of BULK_ACTIONS) {
    app.post(
      `/api/v1/alarms/action/${action.name}All`,
      {
        schema: {
          operationId: action.operationId,
          description: action.description,
          querystring: alarms.OrganizationQuery,
          body: alarms.AlarmBulk,
          response: { 200: alarms.AlarmActionResult, ...errors },
        },
      },
      async (request) =>
        service.actOnAllAlarms(
          deps,
          principalOf(request),
          request.query.organization,
          action.name,
          request.body.filter ?? {},
        ),
    );
  }

  app.get(
    '/api/v1/rules',
    {
      schema: {
        operationId: 'getAlarmRules',
        description: 'The alarm rules of the organization by name (READ devices).',
        querystring: alarms.OrganizationQuery,
        response: { 200: alarms.AlarmRuleList, ...errors },
      },
    },
    async (request) => service.listRules(deps, principalOf(request), request.query.organization),
  );

  app.post(
    '/api/v1/rules',
    {
      schema: {
        operationId: 'createAlarmRule',
        description:
          'Creates an alarm rule (CREATE alarms): name unique in the organization (409), deviceId a device of ' +
          'the organization, range low <= high. It is evaluated from the next value on.',
        querystring: alarms.OrganizationQuery,
        body: alarms.AlarmRuleInput,
        response: { 201: alarms.AlarmRule, ...withConflict },
      },
    },
    async (request, reply) => {
      const rule = await service.createRule(
        deps,
        principalOf(request),
        request.query.organization,
        request.body,
      );
      return reply.code(201).send(rule);
    },
  );

  app.get(
    '/api/v1/rules/:id',
    {
      schema: {
        operationId: 'getAlarmRule',
        description: 'One alarm rule of the organization (READ devices).',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 200: alarms.AlarmRule, ...errors },
      },
    },
    async (request) =>
      service.getRule(deps, principalOf(request), request.query.organization, request.params.id),
  );

  app.put(
    '/api/v1/rules/:id',
    {
      schema: {
        operationId: 'updateAlarmRule',
        description:
          'Changes an alarm rule (UPDATE alarms); the fields given replace the stored ones. Open alarms it raised ' +
          'stay and follow the new condition.',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        body: alarms.AlarmRulePatch,
        response: { 200: alarms.AlarmRule, ...withConflict },
      },
    },
    async (request) =>
      service.updateRule(
        deps,
        principalOf(request),
        request.query.organization,
        request.params.id,
        request.body,
      ),
  );

  app.delete(
    '/api/v1/rules/:id',
    {
      schema: {
        operationId: 'deleteAlarmRule',
        description: 'Deletes an alarm rule (DELETE alarms); its open alarms close ("rule deleted").',
        params: alarms.IdParams,
        querystring: alarms.OrganizationQuery,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteRule(deps, principalOf(request), request.query.organization, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export const alarmsService: ServiceDefinition = {
  name: 'alarms',
  title: 'Edgeport alarm service',
  routes: alarmRoutes,
};
