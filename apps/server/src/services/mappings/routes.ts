import { common, mappings } from '@edgeport/contract';
import { Type } from 'typebox';
import { CHANNELS, invalidation } from '../../cluster/invalidation.ts';
import { principalOf } from '../../http/principal.ts';
import type { ServiceDefinition } from '../mount.ts';
import { errorResponses as errors } from '../responses.ts';
import * as devices from './devices.ts';
import * as presets from './presets.ts';
import * as models from './service.ts';

const withConflict = { ...errors, 409: common.ErrorResponse };
const noContent = { 204: Type.Null() };
const base = '/api/v1/organizations/:org';

/** The mappings service: models (typed data paths with versions), presets binding device tags to them, device presets. */
export const mappingsService: ServiceDefinition = {
  name: 'mappings',
  title: 'Edgeport mappings service',
  routes: async (app, { database, ingest, bus }) => {
    const { db } = database;
    const { pipeline } = ingest;
    const deviceChanges = invalidation(bus, CHANNELS.deviceRouting, {
      one: (deviceId) => pipeline.forget(deviceId),
      all: () => pipeline.forgetAllRouting(),
    });
    app.addHook('onClose', async () => deviceChanges.stop());
    const forget = deviceChanges.changed;

    // Models ------------------------------------------------------------------------------------------------------

    app.post(
      `${base}/models`,
      {
        schema: {
          operationId: 'createModel',
          description:
            'Creates a model with its paths as version 1 (CREATE models). Paths are checked like /validate; a name the organization uses answers 409.',
          params: mappings.OrgParams,
          body: mappings.ModelCreate,
          response: { 200: mappings.Model, ...withConflict },
        },
      },
      async (request) => models.createModel(db, principalOf(request), request.params.org, request.body),
    );

    app.get(
      `${base}/models`,
      {
        schema: {
          operationId: 'getModels',
          description:
            "One page of the organization's models and those its ancestors share with it (marked inherited); search matches name and description (READ models).",
          params: mappings.OrgParams,
          querystring: mappings.ModelListQuery,
          response: { 200: mappings.ModelPage, ...errors },
        },
      },
      async (request) => models.listModels(db, principalOf(request), request.params.org, request.query),
    );

    app.get(
      `${base}/models/names`,
      {
        schema: {
          operationId: 'getModelNames',
          description: 'The names (and ids) of every model the organization can use, by name (READ models).',
          params: mappings.OrgParams,
          response: { 200: mappings.ModelNames, ...errors },
        },
      },
      async (request) => models.listModelNames(db, principalOf(request), request.params.org),
    );

    app.post(
      `${base}/models/validate`,
      {
        schema: {
          operationId: 'validateModel',
          description:
            'Checks a model body without storing it (READ models): path syntax, duplicates, types, limits, a path that is also a parent.',
          params: mappings.OrgParams,
          body: mappings.ModelDraft,
          response: { 200: mappings.ValidationResult, ...errors },
        },
      },
      async (request) => models.validateModel(db, principalOf(request), request.params.org, request.body),
    );

    app.post(
      `${base}/models/paths/search`,
      {
        schema: {
          operationId: 'searchModelPaths',
          description:
            "Paths of the current versions of the organization's models (shared ones included) containing query, paged (default page 0, size 100; READ models).",
          params: mappings.OrgParams,
          body: mappings.PathSearch,
          response: { 200: mappings.PathHitPage, ...errors },
        },
      },
      async (request) => models.searchPaths(db, principalOf(request), request.params.org, request.body),
    );

    app.put(
      `${base}/models/name/:name/subOrgsEnabledToView`,
      {
        schema: {
          operationId: 'setModelSubOrgsEnabledToView',
          description:
            'Shares the named model of the organization with its sub-organizations (read-only there) or stops sharing it (UPDATE models).',
          params: mappings.ModelNameParams,
          body: mappings.Visibility,
          response: { 200: mappings.Model, ...errors },
        },
      },
      async (request) =>
        models.setModelVisibility(
          db,
          principalOf(request),
          request.params.org,
          request.params.name,
          request.body,
        ),
    );

    app.get(
      `${base}/models/:id`,
      {
        schema: {
          operationId: 'getModel',
          description: 'A model with the paths of its current version (READ models).',
          params: mappings.IdParams,
          response: { 200: mappings.Model, ...errors },
        },
      },
      async (request) => models.getModel(db, principalOf(request), request.params.org, request.params.id),
    );

    app.put(
      `${base}/models/:id`,
      {
        schema: {
          operationId: 'updateModel',
          description:
            "Changes a model of the organization (UPDATE models). Paths different from the current version's become a new current version; a rename or description alone makes none. Shared models: 403.",
          params: mappings.IdParams,
          body: mappings.ModelUpdate,
          response: { 200: mappings.Model, ...withConflict },
        },
      },
      async (request) =>
        models.updateModel(db, principalOf(request), request.params.org, request.params.id, request.body),
    );

    app.delete(
      `${base}/models/:id`,
      {
        schema: {
          operationId: 'deleteModel',
          description:
            'Deletes a model of the organization (DELETE models); 409 with the count while presets use it.',
          params: mappings.IdParams,
          response: { ...noContent, ...withConflict },
        },
      },
      async (request, reply) => {
        await models.deleteModel(db, principalOf(request), request.params.org, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/models/:id/versions`,
      {
        schema: {
          operationId: 'getModelVersions',
          description: 'Every version of a model with its paths, newest first (READ models).',
          params: mappings.IdParams,
          response: { 200: mappings.ModelVersions, ...errors },
        },
      },
      async (request) =>
        models.modelVersions(db, principalOf(request), request.params.org, request.params.id),
    );

    // Presets -----------------------------------------------------------------------------------------------------

    app.post(
      `${base}/presets`,
      {
        schema: {
          operationId: 'createPreset',
          description:
            'Creates a preset binding data tags to paths of a model version (CREATE models): tags unique and not blank, paths of the version, formulas on number/integer paths only. Clients wait up to 300 s.',
          params: mappings.OrgParams,
          body: mappings.PresetCreate,
          response: { 200: mappings.Preset, ...withConflict },
        },
      },
      async (request) => presets.createPreset(db, principalOf(request), request.params.org, request.body),
    );

    app.post(
      `${base}/presets/async`,
      {
        schema: {
          operationId: 'createPresetAsync',
          description:
            'Starts creating a preset in the background (CREATE models) and answers the job id at once; poll /presets/async/{id} for progress.',
          params: mappings.OrgParams,
          body: mappings.PresetCreate,
          response: { 200: mappings.PresetJobStarted, ...withConflict },
        },
      },
      async (request) => {
        const job = await presets.startPresetJob(
          db,
          principalOf(request),
          request.params.org,
          request.body,
          app.log,
        );
        return { id: job.id };
      },
    );

    app.get(
      `${base}/presets/async/:id`,
      {
        schema: {
          operationId: 'getPresetJob',
          description:
            'Progress (0..100), status, preset id or error of an asynchronous preset creation (READ models).',
          params: mappings.IdParams,
          response: { 200: mappings.PresetJob, ...errors },
        },
      },
      async (request) =>
        presets.getPresetJob(db, principalOf(request), request.params.org, request.params.id),
    );

    app.get(
      `${base}/presets`,
      {
        schema: {
          operationId: 'getPresets',
          description:
            "One page of the organization's presets and those its ancestors share with it; search matches the name (READ models).",
          params: mappings.OrgParams,
          querystring: mappings.PresetListQuery,
          response: { 200: mappings.PresetPage, ...errors },
        },
      },
      async (request) => presets.listPresets(db, principalOf(request), request.params.org, request.query),
    );

    app.get(
      `${base}/presets/:id`,
      {
        schema: {
          operationId: 'getPreset',
          params: mappings.IdParams,
          response: { 200: mappings.Preset, ...errors },
        },
      },
      async (request) => presets.getPreset(db, principalOf(request), request.params.org, request.params.id),
    );

    app.delete(
      `${base}/presets/:id`,
      {
        schema: {
          operationId: 'deletePreset',
          description:
            'Deletes a preset of the organization (DELETE models); 409 with the count while devices use it.',
          params: mappings.IdParams,
          response: { ...noContent, ...withConflict },
        },
      },
      async (request, reply) => {
        await presets.deletePreset(db, principalOf(request), request.params.org, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/presets/:id/deviceConfiguration`,
      {
        schema: {
          operationId: 'getPresetDeviceConfiguration',
          description:
            "What a device of the preset is configured with: the preset's device configuration and the data tags it publishes with their types (READ models).",
          params: mappings.IdParams,
          response: { 200: mappings.DeviceConfiguration, ...errors },
        },
      },
      async (request) =>
        presets.deviceConfiguration(db, principalOf(request), request.params.org, request.params.id),
    );

    app.put(
      `${base}/mappings/:id/subOrgsEnabledToView`,
      {
        schema: {
          operationId: 'setPresetSubOrgsEnabledToView',
          description:
            'Shares a preset of the organization with its sub-organizations (usable, read-only there) or stops sharing it (UPDATE models).',
          params: mappings.IdParams,
          body: mappings.Visibility,
          response: { 200: mappings.Preset, ...errors },
        },
      },
      async (request) =>
        presets.setPresetVisibility(
          db,
          principalOf(request),
          request.params.org,
          request.params.id,
          request.body,
        ),
    );

    // Devices -----------------------------------------------------------------------------------------------------

    app.get(
      `${base}/devices`,
      {
        schema: {
          operationId: 'getMappingDevices',
          description:
            'One page of the devices with their preset; search matches label, alias and serial number (READ devices).',
          params: mappings.OrgParams,
          querystring: mappings.DeviceListQuery,
          response: { 200: mappings.MappingDevicePage, ...errors },
        },
      },
      async (request) => devices.listDevices(db, principalOf(request), request.params.org, request.query),
    );

    app.post(
      `${base}/devices/search`,
      {
        schema: {
          operationId: 'searchMappingDevices',
          description:
            'Devices by text, preset (null: none), status and labelling tags, paged (READ devices).',
          params: mappings.OrgParams,
          body: mappings.DeviceSearch,
          response: { 200: mappings.MappingDevicePage, ...errors },
        },
      },
      async (request) => devices.searchDevices(db, principalOf(request), request.params.org, request.body),
    );

    app.get(
      `${base}/devices/:id`,
      {
        schema: {
          operationId: 'getMappingDevice',
          params: mappings.IdParams,
          response: { 200: mappings.MappingDevice, ...errors },
        },
      },
      async (request) => devices.getDevice(db, principalOf(request), request.params.org, request.params.id),
    );

    app.put(
      `${base}/devices/:id`,
      {
        schema: {
          operationId: 'setDevicePreset',
          description:
            'Gives the device a preset of the organization or one an ancestor shares, or none with null (UPDATE devices).',
          params: mappings.IdParams,
          body: mappings.DevicePreset,
          response: { 200: mappings.MappingDevice, ...errors },
        },
      },
      async (request) =>
        devices.setDevicePreset(
          db,
          principalOf(request),
          request.params.org,
          request.params.id,
          request.body,
          forget,
        ),
    );

    app.patch(
      `${base}/devices/:id`,
      {
        schema: {
          operationId: 'patchMappingDevice',
          description:
            'Changes label, alias, description or configuration (UPDATE devices); 409 for a label or alias in use.',
          params: mappings.IdParams,
          body: mappings.DevicePatch,
          response: { 200: mappings.MappingDevice, ...withConflict },
        },
      },
      async (request) =>
        devices.patchDevice(db, principalOf(request), request.params.org, request.params.id, request.body),
    );

    app.delete(
      `${base}/devices/:id`,
      {
        schema: {
          operationId: 'deleteMappingDevice',
          description: 'Deletes the device with its stored values (DELETE devices).',
          params: mappings.IdParams,
          response: { ...noContent, ...errors },
        },
      },
      async (request, reply) => {
        await devices.deleteDevice(db, principalOf(request), request.params.org, request.params.id, forget);
        return reply.code(204).send(null);
      },
    );
  },
};
