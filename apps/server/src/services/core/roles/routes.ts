import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org/roles';
const withConflict = { ...errors, 409: common.ErrorResponse };

export const roleRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getRoles',
        description:
          'One page of the roles of the organization (READ roles), with how many users and groups use each.',
        params: core.OrganizationParams,
        querystring: core.RoleListQuery,
        response: { 200: common.Paged(core.Role), ...errors },
      },
    },
    async (request) => service.listRoles(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createRole',
        description:
          'Creates a role (CREATE roles); resource types, actions and application permissions are checked.',
        params: core.OrganizationParams,
        body: core.RoleCreate,
        response: { 200: core.Role, ...withConflict },
      },
    },
    async (request) => service.createRole(db, principalOf(request), request.params.org, request.body),
  );

  app.get(
    `${base}/isAuthorized`,
    {
      schema: {
        operationId: 'isAuthorizedForDevice',
        description:
          'Whether the caller may reach a device, device group or VPN: READ devices, and a device role covering it when they hold any device role.',
        params: core.OrganizationParams,
        querystring: core.DeviceAuthorizationQuery,
        response: { 200: core.DeviceAuthorization, ...errors },
      },
    },
    async (request) => service.isAuthorized(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    `${base}/areAuthorized`,
    {
      schema: {
        operationId: 'areAuthorizedForDevices',
        description: 'isAuthorized for several devices, device groups or VPNs at once.',
        params: core.OrganizationParams,
        body: core.DeviceAuthorizationRequests,
        response: { 200: core.DeviceAuthorizationResults, ...errors },
      },
    },
    async (request) => service.areAuthorized(db, principalOf(request), request.params.org, request.body),
  );

  app.post(
    `${base}/testApplicationPermissions`,
    {
      schema: {
        operationId: 'testApplicationPermissions',
        description:
          'The application permissions a user (default: the caller) holds now compared with after adding or removing groups and roles.',
        params: core.OrganizationParams,
        body: core.ApplicationPermissionTest,
        response: { 200: Type.Array(core.ApplicationPermissionChange), ...errors },
      },
    },
    async (request) =>
      service.testApplicationPermissions(db, principalOf(request), request.params.org, request.body),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getRole',
        params: core.RoleParams,
        response: { 200: core.Role, ...errors },
      },
    },
    async (request) => service.getRole(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateRole',
        description:
          'Changes a role (UPDATE roles); fields left out stay. Members get the change with their next token.',
        params: core.RoleParams,
        body: core.RoleUpdate,
        response: { 200: core.Role, ...withConflict },
      },
    },
    async (request) =>
      service.updateRole(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteRole',
        description: 'Deletes a role (DELETE roles); refused with 409 while users or groups use it.',
        params: core.RoleParams,
        response: { 204: Type.Null(), ...withConflict },
      },
    },
    async (request, reply) => {
      await service.deleteRole(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/exists`,
    {
      schema: {
        operationId: 'roleExists',
        description: 'Whether a role with this NAME exists in the organization (READ roles).',
        params: core.RoleNameParams,
        response: { 200: core.RoleExists, ...errors },
      },
    },
    async (request) =>
      service.roleNameExists(db, principalOf(request), request.params.org, request.params.id),
  );

  app.get(
    `${base}/:id/modelPathPermissions`,
    {
      schema: {
        operationId: 'getRoleModelPathPermissions',
        params: core.RoleParams,
        response: { 200: Type.Array(core.RoleModelPathPermission), ...errors },
      },
    },
    async (request) =>
      service.modelPathPermissionsOf(db, principalOf(request), request.params.org, request.params.id),
  );

  app.get(
    '/api/v1/applicationpermissions/all',
    {
      schema: {
        operationId: 'getApplicationPermissions',
        description:
          'The application-permission catalogue, by name ascending (500 a page at most); any signed-in user.',
        querystring: core.ApplicationPermissionQuery,
        response: { 200: common.Paged(core.ApplicationPermission), ...errors },
      },
    },
    async (request) => service.listApplicationPermissions(db, request.query),
  );
};
