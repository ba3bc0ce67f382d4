import { core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf, realmOfHost } from '../../../http/principal.ts';
import { API_VERSION, type ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

export const organizationRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { config, database },
) => {
  const { db } = database;

  app.get(
    '/api/v1/instance',
    { config: { public: true }, schema: { operationId: 'getInstance', response: { 200: core.Instance } } },
    async (request) => ({
      product: 'edgeport',
      version: API_VERSION,
      realm: realmOfHost(request.headers.host),
    }),
  );

  app.get(
    '/api/v1/organizations/mine',
    {
      schema: {
        operationId: 'getMyOrganizations',
        response: { 200: Type.Array(core.Organization), ...errors },
      },
    },
    async (request) => service.myOrganizations(db, principalOf(request)),
  );

  app.get(
    '/api/v1/organizations/mineRealms',
    { schema: { operationId: 'getMyRealms', response: { 200: Type.Array(core.RealmEntry), ...errors } } },
    async (request) => service.myRealms(db, config, principalOf(request)),
  );

  app.get(
    '/api/v1/organizations/loginInfo',
    {
      config: { public: true },
      schema: {
        operationId: 'getLoginInfo',
        querystring: core.LoginInfoQuery,
        response: { 200: core.LoginInfo, ...errors },
      },
    },
    async (request) => service.loginInfo(db, request.query.hostname),
  );

  app.get(
    '/api/v1/organizations/:org',
    {
      schema: {
        operationId: 'getOrganization',
        params: core.OrganizationParams,
        response: { 200: core.Organization, ...errors },
      },
    },
    async (request) => service.getOrganization(db, principalOf(request), request.params.org),
  );

  app.put(
    '/api/v1/organizations/:org',
    {
      schema: {
        operationId: 'updateOrganization',
        params: core.OrganizationParams,
        body: core.OrganizationUpdate,
        response: { 200: core.Organization, ...errors },
      },
    },
    async (request) => service.changeOrganization(db, principalOf(request), request.params.org, request.body),
  );
};
