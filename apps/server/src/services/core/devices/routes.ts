import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

/** Spec 7 Core "Devices": the core device calls (listing, search, label lookup, changes, moves). */
export const deviceRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database, config }) => {
  const { db } = database;

  app.get(
    '/api/v1/organizations/:org/devices',
    {
      schema: {
        operationId: 'getDevices',
        description:
          'The devices of {org}, paged (without their configuration); search matches label, alias and serial ' +
          'number; filters: status, tag (repeat it: every one must be on the device), groupId, presetId, ' +
          'positioned. Sort by label, alias, serialNumber, status, lastSeenAt (never seen last) or createdAt ' +
          '(READ devices).',
        params: core.OrganizationParams,
        querystring: core.DeviceListQuery,
        response: { 200: core.CoreDevicePage, ...errors },
      },
    },
    async (request) => service.listDevices(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    '/api/v1/organizations/:org/devices/positions',
    {
      schema: {
        operationId: 'getDevicePositions',
        description:
          'The devices of {org} that have a map position, inside the bounding box south/west/north/east (all ' +
          'four or none), at most `limit` (default 2000; `truncated` says more matched) (READ devices).',
        params: core.OrganizationParams,
        querystring: core.DevicePositionsQuery,
        response: { 200: core.DevicePositions, ...errors },
      },
    },
    async (request) => service.devicePositions(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    '/api/v1/organizations/:org/devices/tags',
    {
      schema: {
        operationId: 'getDeviceTagCounts',
        description:
          'The labelling tags the devices of {org} carry, each with its number of devices; the first 500 by ' +
          'name (READ devices).',
        params: core.OrganizationParams,
        response: { 200: core.DeviceTagCounts, ...errors },
      },
    },
    async (request) => service.deviceTags(db, principalOf(request), request.params.org),
  );

  app.get(
    '/api/v1/organizations/:org/devices/mapSettings',
    {
      schema: {
        operationId: 'getDeviceMapSettings',
        description:
          "The device map's background: the tile URL template (the server's MAP_TILE_URL, else OpenStreetMap) " +
          'and its attribution (READ devices).',
        params: core.OrganizationParams,
        response: { 200: core.DeviceMapSettings, ...errors },
      },
    },
    async (request) => service.mapSettings(db, principalOf(request), request.params.org, config),
  );

  app.post(
    '/api/v1/organizations/:org/devices/bulk',
    {
      schema: {
        operationId: 'bulkDevices',
        description:
          'One action on up to 1000 devices: addTags / removeTags (tags; UPDATE devices), setGroup (adds them to ' +
          'groupId; UPDATE devices and UPDATE devicegroups), delete (with their stored data; DELETE devices). ' +
          'Every id must be a device of {org}: otherwise 404 naming it and nothing changes.',
        params: core.OrganizationParams,
        body: core.DeviceBulkRequest,
        response: { 200: core.DeviceBulkResult, ...errors },
      },
    },
    async (request) => service.bulkDevices(db, principalOf(request), request.params.org, request.body),
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
        description: 'One device with its configuration and the device groups it belongs to (READ devices).',
        params: core.DeviceParams,
        response: { 200: core.CoreDeviceDetail, ...errors },
      },
    },
    async (request) => service.getDevice(db, principalOf(request), request.params.org, request.params.id),
  );

  app.patch(
    '/api/v1/organizations/:org/devices/:id',
    {
      schema: {
        operationId: 'patchDevice',
        description:
          'Changes label, alias, description, tags or the map position (latitude -90..90 and longitude ' +
          '-180..180 together, or both null) or the associated service client (serviceClientId, a client of ' +
          '{org} or null; otherwise 404) (UPDATE devices); 409 for a label or alias in use.',
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
