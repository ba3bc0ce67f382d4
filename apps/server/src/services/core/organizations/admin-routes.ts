import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as admin from './admin-service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

/** Organization administration: creating, listing, deleting and moving organizations, import tokens, grants. */
export const organizationAdminRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database },
) => {
  const { db } = database;

  app.post(
    '/api/v1/organizations',
    {
      schema: {
        operationId: 'createOrganization',
        description:
          'A new top-level organization with the Administrator and Operator roles; the caller becomes its member ' +
          'with Administrator. Any signed-in user of the realm. IoT and VPN default to on.',
        body: core.OrganizationCreate,
        response: { 201: core.Organization, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await admin.createTopLevelOrganization(db, principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/organizations/myIp',
    { schema: { operationId: 'getMyIp', response: { 200: core.MyIp, ...errors } } },
    async (request) => ({ ip: request.ip }),
  );

  app.get(
    '/api/v1/organizations/importToken/:token',
    {
      schema: {
        operationId: 'getImportToken',
        description:
          'The organization an import token moves things into. Any signed-in user of the same realm; unknown, ' +
          'used and expired tokens answer 404.',
        params: core.ImportTokenParams,
        response: { 200: core.ImportTokenInfo, ...errors },
      },
    },
    async (request) => admin.importTokenInfo(db, principalOf(request), request.params.token),
  );

  app.post(
    '/api/v1/organizations/:org',
    {
      schema: {
        operationId: 'createSubOrganization',
        description:
          'A sub-organization of {org} (CREATE organizations in {org}). The creator is not made a member: ' +
          "administrators of {org} reach it through their roles' INHERIT entries. IoT and VPN default to the " +
          "parent's flags. waitLicenseManager is accepted for compatibility and has no effect yet (there is no " +
          'licence manager to wait for).',
        params: core.OrganizationParams,
        querystring: core.SubOrganizationQuery,
        body: core.OrganizationCreate,
        response: { 201: core.Organization, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await admin.createSubOrganization(db, principalOf(request), request.params.org, request.body, {
          addDefaultRoles: request.query.addDefaultRoles ?? true,
        }),
      ),
  );

  app.get(
    '/api/v1/organizations/:org/organizations',
    {
      schema: {
        operationId: 'getSubOrganizations',
        description:
          'The direct sub-organizations of {org} (READ organizations), or every descendant with recursive=true.',
        params: core.OrganizationParams,
        querystring: core.SubOrganizationListQuery,
        response: { 200: Type.Array(core.Organization), ...errors },
      },
    },
    async (request) =>
      admin.listSubOrganizations(
        db,
        principalOf(request),
        request.params.org,
        request.query.recursive ?? false,
      ),
  );

  app.delete(
    '/api/v1/organizations/:org',
    {
      schema: {
        operationId: 'deleteOrganization',
        description:
          'Deletes {org} with its roles, groups, memberships, security policies, clients and API keys (DELETE ' +
          'organizations in {org}, so with a permission token of {org} itself). 409 while it has ' +
          'sub-organizations or devices, and for the last top-level organization of the realm.',
        params: core.OrganizationParams,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await admin.deleteOrganization(db, principalOf(request), request.params.org);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/organizations/:org/importToken',
    {
      schema: {
        operationId: 'createImportToken',
        description:
          'A one-time token (valid 24 h, shown once, stored as a SHA-256 hash) with which devices or ' +
          'organizations are moved into {org} (UPDATE organizations).',
        params: core.OrganizationParams,
        response: { 200: core.ImportToken, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return admin.createImportToken(db, principalOf(request), request.params.org);
    },
  );

  app.post(
    '/api/v1/organizations/:org/move',
    {
      schema: {
        operationId: 'moveOrganization',
        description:
          "Moves {org} under the import token's organization (DELETE organizations in {org}); the token is used " +
          'up. 400 when the token is unknown, used, expired or of another realm, or leads to {org} itself or ' +
          'one of its sub-organizations.',
        params: core.OrganizationParams,
        body: core.MoveRequest,
        response: { 200: core.Organization, ...errors },
      },
    },
    async (request) => admin.moveOrganization(db, principalOf(request), request.params.org, request.body),
  );

  app.get(
    '/api/v1/organizations/:org/grants',
    {
      schema: {
        operationId: 'getOrganizationGrants',
        description:
          'What the caller is granted in {org}: the entries of their permission token there, each marked ' +
          'whether it is inherited from an ancestor organization. 404 for an organization the caller cannot enter.',
        params: core.OrganizationParams,
        response: { 200: core.OrganizationGrants, ...errors },
      },
    },
    async (request) => admin.organizationGrants(db, principalOf(request), request.params.org),
  );
};
