import { alarms, common, notifications } from '@edgeport/contract';
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import type { ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import * as service from './service.ts';
import * as settings from './settings.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const Query = alarms.OrganizationQuery;
const IdParams = alarms.IdParams;

/**
 * The notification service: notification rules (which alarm events reach which recipients), their deliveries (the
 * failed ones make the failed-notification log) and the organization's channel settings. Every call names the
 * organization in the query (`?organization=<id or resourceId>`).
 */
export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  title: 'Edgeport notification service',
  routes: async (app, { config, database, notifier }) => {
    const { db } = database;
    const privateHosts = config.webhookAllowedPrivateHosts;

    app.get(
      '/api/v1/notifications',
      {
        schema: {
          operationId: 'getNotifications',
          description: 'The notification rules of the organization, by name (READ notifications).',
          querystring: Query,
          response: { 200: notifications.NotificationList, ...errors },
        },
      },
      async (request) => service.listRules(db, principalOf(request), request.query.organization),
    );

    app.post(
      '/api/v1/notifications',
      {
        schema: {
          operationId: 'createNotification',
          description:
            'Creates a notification rule (CREATE notifications): users must be members of the organization, ' +
            'groups its user groups, alarm rules its alarm rules, webhooks pass the SSRF check; 409 for a name ' +
            'in use.',
          querystring: Query,
          body: notifications.NotificationInput,
          response: { 201: notifications.Notification, ...refusals },
        },
      },
      async (request, reply) => {
        const rule = await service.createRule(
          db,
          principalOf(request),
          request.query.organization,
          request.body,
          privateHosts,
        );
        return reply.code(201).send(rule);
      },
    );

    app.get(
      '/api/v1/notifications/:id',
      {
        schema: {
          operationId: 'getNotification',
          description: 'One notification rule (READ notifications).',
          params: IdParams,
          querystring: Query,
          response: { 200: notifications.Notification, ...errors },
        },
      },
      async (request) =>
        service.getRule(db, principalOf(request), request.query.organization, request.params.id),
    );

    app.put(
      '/api/v1/notifications/:id',
      {
        schema: {
          operationId: 'updateNotification',
          description:
            'Replaces a notification rule (UPDATE notifications), with the checks of the creation; 409 for a ' +
            'name in use.',
          params: IdParams,
          querystring: Query,
          body: notifications.NotificationInput,
          response: { 200: notifications.Notification, ...refusals },
        },
      },
      async (request) =>
        service.updateRule(
          db,
          principalOf(request),
          request.query.organization,
          request.params.id,
          request.body,
          privateHosts,
        ),
    );

    app.delete(
      '/api/v1/notifications/:id',
      {
        schema: {
          operationId: 'deleteNotification',
          description:
            'Deletes a notification rule (DELETE notifications); its deliveries stay in the log with its name.',
          params: IdParams,
          querystring: Query,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.deleteRule(db, principalOf(request), request.query.organization, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/v1/deliveries',
      {
        schema: {
          operationId: 'getDeliveries',
          description:
            'The deliveries of the organization, newest first; status FAILED is the failed-notification log ' +
            '(READ notifications).',
          querystring: notifications.DeliveryQuery,
          response: { 200: notifications.DeliveryPage, ...errors },
        },
      },
      async (request) => service.listDeliveries(db, principalOf(request), request.query),
    );

    app.post(
      '/api/v1/deliveries/:id/resend',
      {
        schema: {
          operationId: 'resendDelivery',
          description:
            'Sends a FAILED delivery again: its attempts start over and it is due now (UPDATE notifications); ' +
            '409 when it has not failed.',
          params: IdParams,
          querystring: Query,
          response: { 200: notifications.Delivery, ...refusals },
        },
      },
      async (request) => {
        const delivery = await service.resendDelivery(
          db,
          principalOf(request),
          request.query.organization,
          request.params.id,
        );
        notifier.wake();
        return delivery;
      },
    );

    app.get(
      '/api/v1/settings',
      {
        schema: {
          operationId: 'getNotificationSettings',
          description:
            "The organization's channel settings: e-mail sender, whether webhooks are signed, quiet hours, " +
            'allowed webhook hosts (READ organizations).',
          querystring: Query,
          response: { 200: notifications.ChannelSettings, ...errors },
        },
      },
      async (request) => settings.getSettings(db, principalOf(request), request.query.organization),
    );

    app.put(
      '/api/v1/settings',
      {
        schema: {
          operationId: 'updateNotificationSettings',
          description:
            'Changes the given channel settings (UPDATE organizations); the webhook secret is write-only, quiet ' +
            'hours need a valid IANA time zone, allowed hosts are normalised like the SSRF check does. Allowed ' +
            'hosts only narrow where webhooks go: an entry webhooks never reach (loopback, link-local, metadata, ' +
            "the server's own address, a private address outside WEBHOOK_ALLOWED_PRIVATE_HOSTS) is refused.",
          querystring: Query,
          body: notifications.ChannelSettingsUpdate,
          response: { 200: notifications.ChannelSettings, ...errors },
        },
      },
      async (request) =>
        settings.updateSettings(
          db,
          principalOf(request),
          request.query.organization,
          request.body,
          privateHosts,
        ),
    );
  },
};
