import { common, coreStore } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

/** 402: the payment of a paid plan was not authorized (the message names the result); 409: the state refuses it. */
const refusals = { ...errors, 402: common.ErrorResponse, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/apps';

/**
 * Spec 7 Core "organization apps": what an organization installed from the store, on which plan, paid through a
 * preauthorized transaction (READ organizations to read, UPDATE organizations to change). `{id}` is the app's
 * catalogue id.
 */
export const organizationAppRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, clock, payments },
) => {
  const ctx: service.StoreContext = { db: database.db, clock, payments };

  app.get(
    base,
    {
      schema: {
        operationId: 'getOrganizationApps',
        description:
          'The apps installed in {org}, by name, with plan, status and last invoice (READ organizations).',
        params: coreStore.OrganizationAppsParams,
        response: { 200: coreStore.OrganizationAppList, ...errors },
      },
    },
    async (request) => service.listInstalled(ctx, principalOf(request), request.params.org),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'installOrganizationApp',
        description:
          'Installs an app on a plan (UPDATE organizations). A paid plan authorizes a preauthorized transaction ' +
          "(`approved` is the user's answer; 402 names a refused result, nothing is installed) and charges the " +
          'first period; a free plan installs ACTIVE. 409 when already installed; 400 for an unknown plan.',
        params: coreStore.OrganizationAppsParams,
        body: coreStore.OrganizationAppInstall,
        response: { 201: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.install(ctx, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getOrganizationApp',
        description: 'One installed app (READ organizations); 404 when {id} is not installed in {org}.',
        params: coreStore.OrganizationAppParams,
        response: { 200: coreStore.OrganizationApp, ...errors },
      },
    },
    async (request) => service.getInstalled(ctx, principalOf(request), request.params.org, request.params.id),
  );

  app.get(
    `${base}/:id/launch`,
    {
      schema: {
        operationId: 'launchOrganizationApp',
        description:
          'What the portal needs to run an installed app: its entry address and origin (READ organizations). 404 ' +
          `when {id} is not in the catalogue or not installed in {org}; 402 when its paid plan is in arrears (a period unpaid for more than ${service.PAYMENT_TERM_DAYS} days).`,
        params: coreStore.OrganizationAppParams,
        response: { 200: coreStore.AppLaunch, ...refusals },
      },
    },
    async (request) => service.launch(ctx, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateOrganizationApp',
        description:
          "Changes the plan (as PATCH .../plan/{plan}) and/or upgrades to the catalogue's version (UPDATE organizations).",
        params: coreStore.OrganizationAppParams,
        body: coreStore.OrganizationAppUpdate,
        response: { 200: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request) =>
      service.updateInstalled(ctx, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteOrganizationApp',
        description:
          'Uninstalls (UPDATE organizations). 409 while an invoice of the app is OPEN, unless force=true: then its ' +
          'open invoices are voided and its transactions revoked.',
        params: coreStore.OrganizationAppParams,
        querystring: coreStore.OrganizationAppDeleteQuery,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await service.uninstall(
        ctx,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.query.force ?? false,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/payment`,
    {
      schema: {
        operationId: 'payOrganizationApp',
        description:
          "Charges the due period now (the transaction's next execution) and moves the billing date one period on; " +
          'while the last invoice is still OPEN it answers that invoice instead (UPDATE organizations).',
        params: coreStore.OrganizationAppParams,
        response: { 200: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request) => service.pay(ctx, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${base}/:id/reschedule`,
    {
      schema: {
        operationId: 'rescheduleOrganizationApp',
        description:
          'Moves the next billing date of a paid plan; 400 for a date in the past (UPDATE organizations).',
        params: coreStore.OrganizationAppParams,
        body: coreStore.OrganizationAppReschedule,
        response: { 200: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request) =>
      service.reschedule(ctx, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.patch(
    `${base}/:id/plan/:plan`,
    {
      schema: {
        operationId: 'changeOrganizationAppPlan',
        description:
          'Changes the plan (UPDATE organizations). To a paid plan a new transaction is authorized first (402 when ' +
          'refused, nothing changes), the old one revoked and the first period charged; to a free plan the ' +
          'transaction is revoked.',
        params: coreStore.OrganizationAppPlanParams,
        body: coreStore.OrganizationAppPlanChange,
        response: { 200: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request) =>
      service.changePlan(
        ctx,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.params.plan,
        request.body,
      ),
  );

  app.post(
    `${base}/:id/upgrade`,
    {
      schema: {
        operationId: 'upgradeOrganizationApp',
        description: "Moves the installed version to the catalogue's current version (UPDATE organizations).",
        params: coreStore.OrganizationAppParams,
        response: { 200: coreStore.OrganizationApp, ...refusals },
      },
    },
    async (request) => service.upgrade(ctx, principalOf(request), request.params.org, request.params.id),
  );
};
