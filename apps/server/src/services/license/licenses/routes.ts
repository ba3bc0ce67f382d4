import { common, licenseProducts as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as dealer from '../dealer/service.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/licenses';

/**
 * Spec 7 "Licence": the licences an organization holds (list, count, get, change, delete, renew, autorenew,
 * validate, activation, expirationDate) and its subscription history and trial.
 */
export const licensesRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, context) => {
  const { db } = context.database;
  const deps: service.LicenseDeps = { db, clock: context.clock, payments: context.payments };

  app.get(
    base,
    {
      schema: {
        operationId: 'getLicenses',
        description:
          'The licences {org} holds, 200 a page (the maximum), newest first (spec 9); filter by status, search ' +
          'the code or product name; sort by createdAt, expiresAt, activatedAt, status, licenseCode ' +
          '(READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.LicenseListQuery,
        response: { 200: contract.LicensePage, ...errors },
      },
    },
    async (request) => service.listLicenses(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createLicense',
        description:
          'Creates a licence {org} will hold: its dealer `by` (a parent organization with dealer on) issues one of ' +
          'its products, as the dealer path POST /dealer/clients/{client}/licenses does and with its rules: ' +
          'ISSUED, or ACTIVE at once with activate (CREATE or UPDATE products in `by`; {org} must be its client, ' +
          'else 404).',
        params: contract.OrganizationParams,
        querystring: contract.LicenseCreateQuery,
        body: contract.IssueLicense,
        response: { 201: contract.Renewal, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await dealer.issueToHolder(
            deps,
            principalOf(request),
            request.params.org,
            request.query.by,
            request.body,
          ),
        ),
  );

  app.get(
    `${base}/count`,
    {
      schema: {
        operationId: 'getLicenseCount',
        description:
          'How many licences {org} holds (status and search filters; page and pageSize up to 1000 are accepted ' +
          'and ignored, spec 9) (READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.LicenseCountQuery,
        response: { 200: contract.Count, ...errors },
      },
    },
    async (request) => service.countLicenses(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${base}/validate`,
    {
      schema: {
        operationId: 'validateLicense',
        description:
          'Whether a licence code names a licence of {org} that is in force (ACTIVE) or can be activated ' +
          "(ISSUED). An unknown code and another organization's code answer valid false 'unknown licence code'; " +
          'a code that cannot be one (not LIC-XXXX-XXXX-XXXX) is 400 (READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.ValidateQuery,
        response: { 200: contract.Validation, ...errors },
      },
    },
    async (request) =>
      service.validate(db, principalOf(request), request.params.org, request.query.licenseCode),
  );

  app.get(
    `${base}/expirationDate`,
    {
      schema: {
        operationId: 'getLicenseExpirationDate',
        description:
          'The latest expiry of the ACTIVE licences of {org} (null when it has none) (READ organizations).',
        params: contract.OrganizationParams,
        response: { 200: contract.ExpirationDate, ...errors },
      },
    },
    async (request) => service.expirationDate(db, principalOf(request), request.params.org),
  );

  app.post(
    `${base}/activation`,
    {
      schema: {
        operationId: 'activateLicense',
        description:
          'Activates an ISSUED licence issued to {org} by its code: ACTIVE, the term starts now (server clock) ' +
          "and one term (price × quantity) is charged to {org}; its device licences take the licence's expiry " +
          '(UPDATE organizations). 404 for an unknown code, 409 for a licence that is not ISSUED or a refused ' +
          'payment, 400 for a malformed code.',
        params: contract.OrganizationParams,
        body: contract.ActivationBody,
        response: { 200: contract.Renewal, ...refusals },
      },
    },
    async (request) => service.activateByCode(deps, principalOf(request), request.params.org, request.body),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getLicense',
        description: 'One licence of {org} (READ organizations).',
        params: contract.LicenseParams,
        response: { 200: contract.License, ...errors },
      },
    },
    async (request) => service.getLicense(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateLicense',
        description:
          'Changes a licence of {org}: the holder may set autorenew (product, version and quantity are fixed; the ' +
          'dealer issues another licence for more) (UPDATE organizations). 409 on a REVOKED licence.',
        params: contract.LicenseParams,
        body: contract.LicenseUpdate,
        response: { 200: contract.License, ...refusals },
      },
    },
    async (request) =>
      service.updateLicense(deps, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteLicense',
        description:
          'Deletes a licence of {org} that was never activated (ISSUED) with its device licences; 409 for any ' +
          'other status (UPDATE organizations).',
        params: contract.LicenseParams,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await service.deleteLicense(deps, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/renew`,
    {
      schema: {
        operationId: 'renewLicense',
        description:
          'Renews a licence of {org} by one term of its product version, from the later of now and its expiry; ' +
          'one term (price × quantity) is charged to {org} (reference license:{id}). An EXPIRED licence becomes ' +
          'ACTIVE again and its device licences (and devices) come back. 409 for ISSUED or REVOKED licences or a ' +
          'refused payment (UPDATE organizations).',
        params: contract.LicenseParams,
        response: { 200: contract.Renewal, ...refusals },
      },
    },
    async (request) =>
      service.renewLicense(deps, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id/autorenew`,
    {
      schema: {
        operationId: 'setLicenseAutorenew',
        description:
          'Sets autorenew: at the end of its term the licence is renewed and charged instead of expiring ' +
          '(UPDATE organizations). 409 on a REVOKED licence.',
        params: contract.LicenseParams,
        body: contract.AutorenewBody,
        response: { 200: contract.License, ...refusals },
      },
    },
    async (request) =>
      service.setAutorenew(
        deps,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.body.autorenew,
      ),
  );

  app.get(
    '/api/v1/organizations/:org/subscriptions/history',
    {
      schema: {
        operationId: 'getSubscriptionHistory',
        description:
          'What happened to the licences of {org} (ISSUED, ACTIVATED, RENEWED, AUTORENEW_ON/OFF, ' +
          'EXPIRY_WARNING, EXPIRED, REVOKED), newest first, paged; from inclusive, to exclusive; filter by ' +
          'licenseId and event (READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.HistoryQuery,
        response: { 200: contract.HistoryPage, ...errors },
      },
    },
    async (request) => service.history(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    '/api/v1/organizations/:org/subscriptions/trialExpiration',
    {
      schema: {
        operationId: 'getTrialExpiration',
        description:
          'The trial of {org}: an organization holding no ACTIVE licence runs on a 30-day trial from its ' +
          'creation (server clock) (READ organizations).',
        params: contract.OrganizationParams,
        response: { 200: contract.TrialExpiration, ...errors },
      },
    },
    async (request) => service.trialExpiration(deps, principalOf(request), request.params.org),
  );
};
