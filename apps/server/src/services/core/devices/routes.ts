import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

/** Spec 7 Core "Devices": the core device calls (listing, search, label lookup, changes, moves). */
export const deviceRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/organizations/:org/devices',
    {
      schema: {
        operationId: 'getDevices',
        description:
          'The devices of {org}, paged; search matches label, alias and serial number (READ devices).',
        params: core.OrganizationParams,
        querystring: core.DeviceListQuery,
        response: { 200: core.CoreDevicePage, ...errors },
      },
    },
    async (request) => service.listDevices(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    '/api/v1/organizations/:org/devices/search',
    {
      schema: {
        operationId: 'searchDevices',
        description: 'A small first page of the devices whose label, alias or serial number contains q.',
        params: core.OrganizationParams,
        querystring: core.DeviceSearchQuery,
        response: { 200: core.CoreDevicePage, ...errors },
      },
    },
    async (request) =>
      service.searchDevices(
        db,
        principalOf(request),
        request.params.org,
        request.query.q,
        request.query.pageSize ?? 20,
      ),
  );

  app.get(
    '/api/v1/organizations/:org/devices/label/:label',
    {
      schema: {
        operationId: 'getDeviceByLabel',
        params: core.DeviceLabelParams,
        response: { 200: core.CoreDevice, ...errors },
      },
    },
    async (request) =>
      service.getDeviceByLabel(db, principalOf(request), request.params.org, request.params.label),
  );

  app.get(
    '/api/v1/organizations/:org/devices/:id',
    {
      schema: {
        operationId: 'getDevice',
        params: core.DeviceParams,
        response: { 200: core.CoreDevice, ...errors },
      },
    },
    async (request) => service.getDevice(db, principalOf(request), request.params.org, request.params.id),
  );

  app.patch(
    '/api/v1/organizations/:org/devices/:id',
    {
      schema: {
        operationId: 'patchDevice',
        description: 'Changes label, alias, description or tags (UPDATE devices); 409 for a label in use.',
        params: core.DeviceParams,
        body: core.CoreDevicePatch,
        response: { 200: core.CoreDevice, ...refusals },
      },
    },
    async (request) =>
      service.patchDevice(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.post(
    '/api/v1/organizations/:org/devices/:id/move',
    {
      schema: {
        operationId: 'moveDevice',
        description:
          "Moves the device into the import token's organization (UPDATE devices in {org}); the token is used " +
          "up and the device's security-policy assignments are dropped. 409 when the target has the label.",
        params: core.DeviceParams,
        body: core.MoveRequest,
        response: { 200: core.CoreDevice, ...refusals },
      },
    },
    async (request) =>
      service.moveDevice(db, principalOf(request), request.params.org, request.params.id, request.body),
  );
};
