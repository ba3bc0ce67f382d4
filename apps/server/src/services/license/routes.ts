import { common, license } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/principal.ts';
import type { ServiceContext, ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import { billingRoutes } from './billing/routes.ts';
import { dealerRoutes } from './dealer/routes.ts';
import { licensesRoutes } from './licenses/routes.ts';
import { productsRoutes } from './products/routes.ts';
import * as service from './service.ts';
import { subscriptionsRoutes } from './subscriptions/routes.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/deviceLicenses';

/** Spec 7 "Licence", the device-licence calls: listing, key lookup, activation (plain and VPN), deletion, autorenew. */
const deviceLicenseRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, config, clock },
) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getDeviceLicenses',
        description:
          'The device licences of {org}, paged, newest first (READ devices). Activation keys are masked but for ' +
          'their last 4 characters unless the caller may CREATE devices; status EXPIRED includes ACTIVE licences ' +
          'past their expiry.',
        params: license.OrganizationParams,
        querystring: license.DeviceLicenseListQuery,
        response: { 200: license.DeviceLicensePage, ...errors },
      },
    },
    async (request) =>
      service.listLicenses(db, principalOf(request), request.params.org, request.query, clock.now()),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'issueDeviceLicenses',
        description:
          'Issues 1 to 100 new AVAILABLE device licences with fresh activation keys and no licence behind them to ' +
          "{org}. Only the realm's operator may (its own organization, CREATE devices there); everyone else gets 403 " +
          "and activates the keys that come with a dealer's licence. Not in spec 7 (licences come from the dealer " +
          'there); it lets the operator get keys for the activation walkthrough.',
        params: license.OrganizationParams,
        body: license.IssueRequest,
        response: { 201: license.IssuedLicenses, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.issueLicenses(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${base}/issuing`,
    {
      schema: {
        operationId: 'getDeviceLicenseIssuing',
        description:
          'Whether the caller may issue activation keys without a licence in {org} (POST /deviceLicenses), and why ' +
          "not: only the realm's operator may (READ or CREATE devices).",
        params: license.OrganizationParams,
        response: { 200: license.KeyIssuing, ...errors },
      },
    },
    async (request) => service.keyIssuing(db, principalOf(request), request.params.org),
  );

  app.get(
    `${base}/device`,
    {
      schema: {
        operationId: 'getDeviceLicenseByKey',
        description:
          'The licence of an activation key: AVAILABLE, ACTIVE (with its device) or EXPIRED (READ or CREATE ' +
          "devices). An unknown key and another organization's key both answer 404 'activation key not found'.",
        params: license.OrganizationParams,
        querystring: license.ActivationKeyQuery,
        response: { 200: license.DeviceLicense, ...errors },
      },
    },
    async (request) =>
      service.licenseOfKey(
        db,
        principalOf(request),
        request.params.org,
        request.query.activationKey,
        clock.now(),
      ),
  );

  app.post(
    `${base}/activate`,
    {
      schema: {
        operationId: 'activateDeviceLicense',
        description:
          'Activates a device licence (CREATE devices): creates the device, binds the preset, issues its MQTT ' +
          'credentials (the password is in this answer only) and marks the licence ACTIVE for a year. 404 for an ' +
          'unknown key or preset; 409 for a key in use or expired, a VPN licence, or a label in use.',
        params: license.OrganizationParams,
        body: license.ActivationRequest,
        response: { 201: license.Activation, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.activate(
            db,
            config,
            principalOf(request),
            request.params.org,
            request.body,
            false,
            clock.now(),
          ),
        ),
  );

  app.post(
    `${base}/vpn/activate`,
    {
      schema: {
        operationId: 'activateVpnDeviceLicense',
        description: 'Activates a VPN device licence; otherwise as /deviceLicenses/activate.',
        params: license.OrganizationParams,
        body: license.ActivationRequest,
        response: { 201: license.Activation, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.activate(
            db,
            config,
            principalOf(request),
            request.params.org,
            request.body,
            true,
            clock.now(),
          ),
        ),
  );

  app.put(
    `${base}/vpn/autorenew`,
    {
      schema: {
        operationId: 'setVpnDeviceLicenseAutorenew',
        description:
          'Sets autorenew on VPN device licences of {org} (UPDATE devices); 404 naming an unknown id, 409 for a ' +
          'licence that is not a VPN licence; nothing changes then.',
        params: license.OrganizationParams,
        body: license.AutorenewRequest,
        response: { 200: license.AutorenewResult, ...refusals },
      },
    },
    async (request) => service.setVpnAutorenew(db, principalOf(request), request.params.org, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteDeviceLicense',
        description:
          "Deletes a device licence (DELETE devices). For an ACTIVE licence the device's MQTT credentials are " +
          'revoked so it can no longer connect; the device stays.',
        params: license.DeviceLicenseParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteLicense(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

/** The licence service: device licences, products, licences, subscriptions, the dealer area and billing. */
export const licenseService: ServiceDefinition = {
  name: 'license',
  title: 'Edgeport licence service',
  routes: async (app, context) => {
    await app.register(deviceLicenseRoutes, context);
    await app.register(productsRoutes, context);
    await app.register(licensesRoutes, context);
    await app.register(dealerRoutes, context);
    await app.register(subscriptionsRoutes, context);
    await app.register(billingRoutes, context);
  },
};
