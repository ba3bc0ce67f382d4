import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/deviceGroups';

/** Device groups of an organization (READ/CREATE/UPDATE/DELETE devicegroups); devices join and leave by id. */
export const deviceGroupRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getDeviceGroups',
        description:
          'The device groups of {org}, paged; search matches name and description (READ devicegroups).',
        params: core.OrganizationParams,
        querystring: core.DeviceGroupListQuery,
        response: { 200: core.DeviceGroupPage, ...errors },
      },
    },
    async (request) => service.listGroups(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createDeviceGroup',
        description: 'A new device group (CREATE devicegroups); 409 when the name is in use in {org}.',
        params: core.OrganizationParams,
        body: core.DeviceGroupCreate,
        response: { 201: core.DeviceGroup, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createGroup(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getDeviceGroup',
        params: core.DeviceGroupParams,
        response: { 200: core.DeviceGroup, ...errors },
      },
    },
    async (request) => service.getGroup(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateDeviceGroup',
        description: 'Changes name or description (UPDATE devicegroups); 409 when the name is in use.',
        params: core.DeviceGroupParams,
        body: core.DeviceGroupUpdate,
        response: { 200: core.DeviceGroup, ...refusals },
      },
    },
    async (request) =>
      service.updateGroup(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteDeviceGroup',
        description: 'Deletes the group (DELETE devicegroups); its devices stay.',
        params: core.DeviceGroupParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteGroup(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/devices`,
    {
      schema: {
        operationId: 'getDeviceGroupDevices',
        description: "The group's devices, paged; search matches label, alias and serial number.",
        params: core.DeviceGroupParams,
        querystring: core.DeviceGroupListQuery,
        response: { 200: core.DeviceGroupMemberPage, ...errors },
      },
    },
    async (request) =>
      service.listMembers(db, principalOf(request), request.params.org, request.params.id, request.query),
  );

  app.post(
    `${base}/:id/devices/:devices`,
    {
      schema: {
        operationId: 'addDeviceGroupDevices',
        description:
          'Adds devices (ids joined by commas, at most 100) to the group (UPDATE devicegroups). All must be devices ' +
          'of {org}, else 404 naming the first unknown id and nothing changes; members already in stay.',
        params: core.DeviceGroupDevicesParams,
        response: { 200: core.DeviceGroupMembersChanged, ...errors },
      },
    },
    async (request) => {
      const { org, id, devices } = request.params;
      return service.changeMembers(db, principalOf(request), org, id, devices, 'add');
    },
  );

  app.delete(
    `${base}/:id/devices/:devices`,
    {
      schema: {
        operationId: 'removeDeviceGroupDevices',
        description:
          'Removes devices (ids joined by commas, at most 100) from the group (UPDATE devicegroups). All must be ' +
          'devices of {org}, else 404 naming the first unknown id and nothing changes.',
        params: core.DeviceGroupDevicesParams,
        response: { 200: core.DeviceGroupMembersChanged, ...errors },
      },
    },
    async (request) => {
      const { org, id, devices } = request.params;
      return service.changeMembers(db, principalOf(request), org, id, devices, 'remove');
    },
  );
};
