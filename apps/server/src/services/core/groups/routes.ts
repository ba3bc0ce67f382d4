import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org/userGroups';
const withConflict = { ...errors, 409: common.ErrorResponse };

export const groupRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getUserGroups',
        description: 'One page of the user groups of the organization (READ usergroups); search by name.',
        params: core.OrganizationParams,
        querystring: common.PageQuery,
        response: { 200: common.Paged(core.UserGroup), ...errors },
      },
    },
    async (request) => service.listGroups(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createUserGroup',
        description: 'Creates a user group (CREATE usergroups); names are unique in the organization.',
        params: core.OrganizationParams,
        body: core.UserGroupCreate,
        response: { 200: core.UserGroup, ...withConflict },
      },
    },
    async (request) => service.createGroup(db, principalOf(request), request.params.org, request.body),
  );

  app.get(
    `${base}/mine/members`,
    {
      schema: {
        operationId: 'getMyUserGroupMembers',
        description: 'The members of the groups the caller belongs to in the organization.',
        params: core.OrganizationParams,
        querystring: common.PageQuery,
        response: { 200: common.Paged(core.MyGroupMember), ...errors },
      },
    },
    async (request) =>
      service.listMyGroupMembers(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getUserGroup',
        params: core.UserGroupParams,
        response: { 200: core.UserGroup, ...errors },
      },
    },
    async (request) => service.getGroup(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateUserGroup',
        params: core.UserGroupParams,
        body: core.UserGroupUpdate,
        response: { 200: core.UserGroup, ...withConflict },
      },
    },
    async (request) =>
      service.updateGroup(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteUserGroup',
        description: 'Deletes the group; its members lose the roles it gave them with their next token.',
        params: core.UserGroupParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteGroup(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/members`,
    {
      schema: {
        operationId: 'getUserGroupMembers',
        description:
          'One page of the members of the group with the role each carries in it; search by e-mail or name.',
        params: core.UserGroupParams,
        querystring: common.PageQuery,
        response: { 200: common.Paged(core.UserGroupMember), ...errors },
      },
    },
    async (request) =>
      service.listMembers(db, principalOf(request), request.params.org, request.params.id, request.query),
  );

  app.post(
    `${base}/:id/members/:user`,
    {
      schema: {
        operationId: 'putUserGroupMember',
        description:
          'Adds a member of the organization to the group with an optional role of the organization; posting again changes the role (UPDATE usergroups).',
        params: core.UserGroupMemberParams,
        querystring: core.UserGroupMemberQuery,
        response: { 200: core.UserGroupMember, ...errors },
      },
    },
    async (request) =>
      service.putMember(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.params.user,
        request.query.role,
      ),
  );

  app.delete(
    `${base}/:id/members/:user`,
    {
      schema: {
        operationId: 'deleteUserGroupMember',
        params: core.UserGroupMemberParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteMember(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.params.user,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/roles/:roles`,
    {
      schema: {
        operationId: 'addUserGroupRoles',
        description:
          'Gives the group roles (ids joined by commas, all of this organization, else nothing changes).',
        params: core.UserGroupRolesParams,
        response: { 200: core.UserGroup, ...errors },
      },
    },
    async (request) =>
      service.changeGroupRoles(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.params.roles,
        'add',
      ),
  );

  app.delete(
    `${base}/:id/roles/:roles`,
    {
      schema: {
        operationId: 'removeUserGroupRoles',
        description:
          'Takes roles from the group (ids joined by commas, all of this organization, else nothing changes).',
        params: core.UserGroupRolesParams,
        response: { 200: core.UserGroup, ...errors },
      },
    },
    async (request) =>
      service.changeGroupRoles(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.params.roles,
        'remove',
      ),
  );
};
