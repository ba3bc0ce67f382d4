import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const withConflict = { ...errors, 409: common.ErrorResponse };
const orgUsers = '/api/v1/organizations/:org/users';

/** Spec 7 Core "Users" and "User security policies". */
export const userRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { config, database, mail },
) => {
  const { db } = database;
  const context: service.UsersContext = { db, config, mail };

  app.get(
    '/api/v1/organizations/users',
    {
      schema: {
        operationId: 'searchUsersDeep',
        description: "Members of the permission token's organization and all its sub-organizations.",
        querystring: core.UserDeepSearchQuery,
        response: { 200: common.Paged(core.DeepSearchUser), ...errors },
      },
    },
    async (request) => service.deepSearch(db, principalOf(request), request.query),
  );

  app.get(
    '/api/v1/users/mine',
    { schema: { operationId: 'getMyUser', response: { 200: core.MyUser, ...errors } } },
    async (request) => service.myUser(db, principalOf(request)),
  );

  app.get(
    '/api/v1/users/:name/exists',
    {
      schema: {
        operationId: 'userExists',
        params: core.UserNameParams,
        response: { 200: core.UserExists, ...errors },
      },
    },
    async (request) => service.userExists(db, principalOf(request), request.params.name),
  );

  app.get(
    orgUsers,
    {
      schema: {
        operationId: 'getOrganizationUsers',
        params: core.OrganizationUsersParams,
        querystring: core.UserListQuery,
        response: { 200: common.Paged(core.OrganizationUser), ...errors },
      },
    },
    async (request) => service.listUsers(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    orgUsers,
    {
      schema: {
        operationId: 'inviteOrganizationUser',
        params: core.OrganizationUsersParams,
        description:
          'A new e-mail: a new account, now a member (201), mailed a link to set its password. An existing account ' +
          'of the realm: only invited (202); it becomes a member when its owner accepts.',
        body: core.UserInvite,
        response: { 201: core.OrganizationUser, 202: core.OrganizationInvitation, ...withConflict },
      },
    },
    async (request, reply) => {
      const outcome = await service.inviteUser(
        context,
        principalOf(request),
        request.params.org,
        request.body,
      );
      return reply.code(outcome.status).send(outcome.body);
    },
  );

  app.get(
    `${orgUsers}/username/:name`,
    {
      schema: {
        operationId: 'getOrganizationUserByName',
        params: core.OrganizationUsernameParams,
        response: { 200: core.OrganizationUser, ...errors },
      },
    },
    async (request) =>
      service.getUserByName(db, principalOf(request), request.params.org, request.params.name),
  );

  app.get(
    `${orgUsers}/:id`,
    {
      schema: {
        operationId: 'getOrganizationUser',
        params: core.OrganizationUserParams,
        response: { 200: core.OrganizationUser, ...errors },
      },
    },
    async (request) => service.getUser(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${orgUsers}/:id`,
    {
      schema: {
        operationId: 'updateOrganizationUser',
        params: core.OrganizationUserParams,
        body: core.UserUpdate,
        response: { 200: core.OrganizationUser, ...withConflict },
      },
    },
    async (request) =>
      service.updateUser(context, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${orgUsers}/:id`,
    {
      schema: {
        operationId: 'deleteOrganizationUser',
        params: core.OrganizationUserParams,
        response: { 204: Type.Null(), ...withConflict },
      },
    },
    async (request, reply) => {
      await service.removeUser(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${orgUsers}/:id/securityPolicies`,
    {
      schema: {
        operationId: 'getUserSecurityPolicies',
        params: core.OrganizationUserParams,
        response: { 200: Type.Array(core.UserSecurityPolicy), ...errors },
      },
    },
    async (request) =>
      service.userSecurityPolicies(db, principalOf(request), request.params.org, request.params.id),
  );

  for (const [method, change, operationId] of [
    ['POST', 'assign', 'assignUserSecurityPolicies'],
    ['DELETE', 'unassign', 'unassignUserSecurityPolicies'],
  ] as const) {
    app.route({
      method,
      url: `${orgUsers}/:id/securityPolicies/:ids`,
      schema: {
        operationId,
        params: core.UserSecurityPoliciesParams,
        response: { 200: Type.Array(core.UserSecurityPolicy), ...errors },
      },
      handler: async (request) => {
        const { org, id, ids } = request.params;
        return service.changeUserSecurityPolicies(db, principalOf(request), org, id, ids, change);
      },
    });
  }
};
