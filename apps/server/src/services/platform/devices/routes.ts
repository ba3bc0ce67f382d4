import { platform } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org';

/** Spec 7 Platform: device data tags, labelling tags, status history and sync, configuration, device lookups. */
export const platformDeviceRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    `${base}/devices`,
    {
      schema: {
        operationId: 'getPlatformDevices',
        description:
          'The devices of {org}, paged (READ devices); search matches label, alias and serial number, status and ' +
          'tag filter. details=true adds the preset name and the device groups of each device.',
        params: platform.OrganizationParams,
        querystring: platform.DeviceListQuery,
        response: { 200: platform.PlatformDevicePage, ...errors },
      },
    },
    async (request) => service.listDevices(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${base}/deviceByAlias`,
    {
      schema: {
        operationId: 'getDeviceByAlias',
        description:
          'The device of {org} with this alias, with details (READ devices); 404 when none has it.',
        params: platform.OrganizationParams,
        querystring: platform.AliasQuery,
        response: { 200: platform.PlatformDevice, ...errors },
      },
    },
    async (request) =>
      service.deviceByAlias(db, principalOf(request), request.params.org, request.query.alias),
  );

  app.post(
    `${base}/devices/tags/query`,
    {
      schema: {
        operationId: 'queryDevicesByTags',
        description:
          'The devices of {org} carrying any (match=any, the default) or all (match=all) of the labelling tags, ' +
          'paged (READ devices).',
        params: platform.OrganizationParams,
        querystring: platform.TagsQueryPaging,
        body: platform.TagsQueryBody,
        response: { 200: platform.PlatformDevicePage, ...errors },
      },
    },
    async (request) =>
      service.devicesByTags(db, principalOf(request), request.params.org, request.body, request.query),
  );

  app.get(
    `${base}/devices/:id/availableTags`,
    {
      schema: {
        operationId: 'getDeviceAvailableTags',
        description:
          'The data tags the device has reported over MQTT and whether its preset maps each (and to which path); ' +
          'missing lists mapped tags the device has not reported.',
        params: platform.DeviceParams,
        response: { 200: platform.AvailableTags, ...errors },
      },
    },
    async (request) => service.availableTags(db, principalOf(request), request.params.org, request.params.id),
  );

  app.get(
    `${base}/devices/:id/tags`,
    {
      schema: {
        operationId: 'getDeviceTags',
        description: "The device's labelling tags (READ devices).",
        params: platform.DeviceParams,
        response: { 200: platform.DeviceTags, ...errors },
      },
    },
    async (request) => service.deviceTags(db, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${base}/devices/:id/tags`,
    {
      schema: {
        operationId: 'setDeviceTags',
        description: "Replaces the device's labelling tags with the list given (UPDATE devices).",
        params: platform.DeviceParams,
        body: platform.DeviceTagsUpdate,
        response: { 200: platform.DeviceTags, ...errors },
      },
    },
    async (request) =>
      service.replaceTags(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.get(
    `${base}/devicesByName/:name/tags`,
    {
      schema: {
        operationId: 'getDeviceTagsByName',
        description: 'The labelling tags of the device with this label (READ devices).',
        params: platform.DeviceNameParams,
        response: { 200: platform.DeviceTags, ...errors },
      },
    },
    async (request) =>
      service.deviceTagsByName(db, principalOf(request), request.params.org, request.params.name),
  );

  app.get(
    `${base}/deviceGroups/:g/tags`,
    {
      schema: {
        operationId: 'getDeviceGroupTags',
        description:
          "The union of the labelling tags of the group's devices (READ devices and READ devicegroups).",
        params: platform.DeviceGroupParams,
        response: { 200: platform.GroupTags, ...errors },
      },
    },
    async (request) => service.groupTags(db, principalOf(request), request.params.org, request.params.g),
  );

  app.get(
    `${base}/devices/:id/status`,
    {
      schema: {
        operationId: 'getDeviceStatusHistory',
        description:
          "The device's connection history (ONLINE/OFFLINE changes), newest first, between since and to (ISO " +
          'date-times, inclusive); limit defaults to and caps at 1000.',
        params: platform.DeviceParams,
        querystring: platform.StatusHistoryQuery,
        response: { 200: platform.StatusHistory, ...errors },
      },
    },
    async (request) =>
      service.statusHistory(db, principalOf(request), request.params.org, request.params.id, request.query),
  );

  app.get(
    `${base}/devices/:id/status/sync`,
    {
      schema: {
        operationId: 'getDeviceStatusSync',
        description: "The device's current status, when it was last seen, and its ingest counters.",
        params: platform.DeviceParams,
        response: { 200: platform.StatusSync, ...errors },
      },
    },
    async (request) => service.statusSync(db, principalOf(request), request.params.org, request.params.id),
  );

  app.get(
    `${base}/devices/:id/configuration`,
    {
      schema: {
        operationId: 'getDeviceConfiguration',
        description:
          "The device's configuration merged over its preset's deviceConfiguration (objects key by key), with " +
          'both parts.',
        params: platform.DeviceParams,
        response: { 200: platform.DeviceConfiguration, ...errors },
      },
    },
    async (request) => service.configuration(db, principalOf(request), request.params.org, request.params.id),
  );
};
