import { common, licenseProducts as contract, license } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import { specPathAndAliases } from '../../../http/spec-paths.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import type { LicenseDeps } from '../licenses/service.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const clients = '/api/v1/organizations/:org/clients';
const issued = '/api/v1/organizations/:org/issuedLicenses';
const DEALER =
  '{org} must be a dealer (organizations.dealer, else 403) and the caller needs CREATE or UPDATE on products there ' +
  '(spec 6).';

/**
 * The dealer area (spec 2 `/dealer`): client organizations (direct sub-organizations of the dealer) and the licences
 * the dealer issues them; and the organization account flags (dealer, hasOwnResources, inAppPurchases).
 */
export const dealerRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, context) => {
  const { db } = context.database;
  const deps: LicenseDeps = { db, clock: context.clock, payments: context.payments };

  app.get(
    clients,
    {
      schema: {
        operationId: 'getDealerClients',
        description: `The client organizations of dealer {org} (its direct sub-organizations), paged, with licence and device counts; search matches name and resourceId; sort by name, createdAt, resourceId. ${DEALER}`,
        params: contract.OrganizationParams,
        querystring: contract.ClientListQuery,
        response: { 200: contract.ClientPage, ...errors },
      },
    },
    async (request) => service.listClients(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    clients,
    {
      schema: {
        operationId: 'createDealerClient',
        description: `Creates a client organization: a sub-organization of dealer {org} with the default roles (Administrator, Operator) and its own resources; IoT and VPN default to the dealer's. ${DEALER}`,
        params: contract.OrganizationParams,
        body: contract.ClientCreate,
        response: { 201: contract.Client, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createClient(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${clients}/:client`,
    {
      schema: {
        operationId: 'getDealerClient',
        description: `One client of dealer {org}: its licences, device licence counts, and per resource type the allowance of its ACTIVE licences and its metered use (journal sum). Not a direct sub-organization: 404. ${DEALER}`,
        params: contract.ClientParams,
        response: { 200: contract.ClientDetail, ...errors },
      },
    },
    async (request) => service.getClient(db, principalOf(request), request.params.org, request.params.client),
  );

  app.get(
    `${clients}/:client/deviceLicenses`,
    {
      schema: {
        operationId: 'getDealerClientDeviceLicenses',
        description: `The device licences (activation keys) of a client of dealer {org}, paged, newest first, with each one's device; filter by status (EXPIRED includes ACTIVE licences past their expiry) and vpn; search matches key and device label. The dealer issued them: the keys are not masked. Not a direct sub-organization: 404. ${DEALER}`,
        params: contract.ClientParams,
        querystring: license.DeviceLicenseListQuery,
        response: { 200: license.DeviceLicensePage, ...errors },
      },
    },
    async (request) =>
      service.listClientDeviceLicenses(
        db,
        principalOf(request),
        request.params.org,
        request.params.client,
        request.query,
        context.clock.now(),
      ),
  );

  app.post(
    `${clients}/:client/licenses`,
    {
      schema: {
        operationId: 'issueDealerLicense',
        description: `Issues a licence of one of dealer {org}'s products (its current version) to a client: ISSUED (the client activates its code), or ACTIVE at once with activate (the term starts and is charged to the client). A devices product brings quantity × version quantity device licences (activation keys) to the client, whose expiry follows the licence. ${DEALER}`,
        params: contract.ClientParams,
        body: contract.IssueLicense,
        response: { 201: contract.Renewal, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.issueToClient(
            deps,
            principalOf(request),
            request.params.org,
            request.params.client,
            request.body,
          ),
        ),
  );

  app.get(
    issued,
    {
      schema: {
        operationId: 'getIssuedLicenses',
        description: `The licences dealer {org} issued, 200 a page, newest first; filter by status and clientId; search matches code, product and client name. ${DEALER}`,
        params: contract.OrganizationParams,
        querystring: contract.IssuedLicenseListQuery,
        response: { 200: contract.LicensePage, ...errors },
      },
    },
    async (request) => service.listIssued(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${issued}/:id`,
    {
      schema: {
        operationId: 'getIssuedLicense',
        description: `One licence dealer {org} issued. ${DEALER}`,
        params: contract.LicenseParams,
        response: { 200: contract.License, ...errors },
      },
    },
    async (request) => service.getIssued(db, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${issued}/:id/renew`,
    {
      schema: {
        operationId: 'renewIssuedLicense',
        description: `Renews a licence dealer {org} issued by one term, charged to the client (as POST /licenses/{id}/renew). ${DEALER}`,
        params: contract.LicenseParams,
        response: { 200: contract.Renewal, ...refusals },
      },
    },
    async (request) => service.renewIssued(deps, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${issued}/:id/autorenew`,
    {
      schema: {
        operationId: 'setIssuedLicenseAutorenew',
        description: `Sets autorenew on a licence dealer {org} issued; 409 on a REVOKED licence. ${DEALER}`,
        params: contract.LicenseParams,
        body: contract.AutorenewBody,
        response: { 200: contract.License, ...refusals },
      },
    },
    async (request) =>
      service.setIssuedAutorenew(
        deps,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.body.autorenew,
      ),
  );

  app.post(
    `${issued}/:id/revoke`,
    {
      schema: {
        operationId: 'revokeIssuedLicense',
        description: `Revokes a licence dealer {org} issued: REVOKED (final), its device licences EXPIRED and their devices disconnected (MQTT sign-in refused). 409 when already revoked. ${DEALER}`,
        params: contract.LicenseParams,
        response: { 200: contract.License, ...refusals },
      },
    },
    async (request) =>
      service.revokeIssued(deps, principalOf(request), request.params.org, request.params.id),
  );

  // The spec's paths (`/organizations/{id}` of the licence service), and `/account` where the flags were first served.
  for (const { path, hide, operationId } of specPathAndAliases(
    '/api/v1/organizations/:org',
    '/api/v1/organizations/:org/account',
  )) {
    app.get(
      path,
      {
        schema: {
          hide,
          operationId: operationId('getOrganizationAccount'),
          description:
            'The account flags of {org} (spec 7 "/organizations/{id} GET"): dealer, hasOwnResources, ' +
            'inAppPurchases (READ organizations).',
          params: contract.OrganizationParams,
          response: { 200: contract.Account, ...errors },
        },
      },
      async (request) => service.getAccount(db, principalOf(request), request.params.org),
    );

    app.put(
      path,
      {
        schema: {
          hide,
          operationId: operationId('updateOrganizationAccount'),
          description:
            'Sets the account flags of {org} (spec 7 "/organizations/{id} PUT"): dealer, hasOwnResources, ' +
            'inAppPurchases. Only an ANCESTOR organization changes them: `by` names it (id or resourceId), the ' +
            "caller's permission token is for `by` and holds UPDATE organizations there, and {org} lies below it " +
            '(else 404). An organization cannot set its own flags (403).',
          params: contract.OrganizationParams,
          querystring: contract.AccountUpdateQuery,
          body: contract.AccountUpdate,
          response: { 200: contract.Account, ...errors },
        },
      },
      async (request) =>
        service.updateAccount(db, principalOf(request), request.params.org, request.query.by, request.body),
    );
  }
};
