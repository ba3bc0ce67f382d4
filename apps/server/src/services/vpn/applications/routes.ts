import { common, vpn } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const profiles = '/api/v1/domains/:domain/actionProfiles';
const actions = '/api/v1/domains/:domain/actions';
const preferences = '/api/v1/preferences/applications';

/** Remote access: application profiles, applications and the caller's application shortcuts (spec 7). */
export const applicationsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  // --- application profiles ---------------------------------------------------------------------------------------

  app.get(
    profiles,
    {
      schema: {
        operationId: 'listActionProfiles',
        description:
          'The application profiles of {domain} by name, with their application and gateway counts (READ devices).',
        params: vpn.DomainParams,
        response: { 200: vpn.ActionProfileList, ...errors },
      },
    },
    async (request) => service.listProfiles(db, principalOf(request), request.params.domain),
  );

  app.post(
    profiles,
    {
      schema: {
        operationId: 'saveActionProfile',
        description:
          'Creates an application profile (201, CREATE devices), or edits the one named by body.id (200, UPDATE ' +
          'devices). otpRequired: connecting to gateways with this profile needs a one-time password. A name ' +
          '{domain} already has is 409.',
        params: vpn.DomainParams,
        body: vpn.ActionProfileInput,
        response: { 200: vpn.ActionProfile, 201: vpn.ActionProfile, ...refusals },
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (body.id !== undefined)
        return service.editProfile(db, principalOf(request), request.params.domain, body.id, body);
      return reply
        .code(201)
        .send(await service.createProfile(db, principalOf(request), request.params.domain, body));
    },
  );

  app.post(
    `${profiles}/:id`,
    {
      schema: {
        operationId: 'editActionProfile',
        description:
          'Edits an application profile: name (409 when taken), description, otpRequired (UPDATE devices).',
        params: vpn.DomainIdParams,
        body: vpn.ActionProfileInput,
        response: { 200: vpn.ActionProfile, ...refusals },
      },
    },
    async (request) =>
      service.editProfile(db, principalOf(request), request.params.domain, request.params.id, request.body),
  );

  app.get(
    `${profiles}/:id`,
    {
      schema: {
        operationId: 'getActionProfile',
        description: 'One application profile (READ devices).',
        params: vpn.DomainIdParams,
        response: { 200: vpn.ActionProfile, ...errors },
      },
    },
    async (request) => service.getProfile(db, principalOf(request), request.params.domain, request.params.id),
  );

  app.delete(
    `${profiles}/:id`,
    {
      schema: {
        operationId: 'deleteActionProfile',
        description:
          'Deletes an application profile (DELETE devices); 409 while gateways use it. Its applications stay, ' +
          'without a profile.',
        params: vpn.DomainIdParams,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await service.deleteProfile(db, principalOf(request), request.params.domain, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // --- applications (actions) -------------------------------------------------------------------------------------

  app.get(
    actions,
    {
      schema: {
        operationId: 'listActions',
        description: 'The applications of {domain} by name (READ devices).',
        params: vpn.DomainParams,
        response: { 200: vpn.ActionList, ...errors },
      },
    },
    async (request) => service.listActions(db, principalOf(request), request.params.domain),
  );

  app.post(
    actions,
    {
      schema: {
        operationId: 'createAction',
        description:
          'Creates an application (201, CREATE devices): how an endpoint is opened (protocol, port, first path ' +
          'for HTTP(S)) and on which client systems; profileId must be a profile of {domain} (404); a name ' +
          '{domain} already has is 409. With body.id it edits that application instead, as PUT does (200, ' +
          'UPDATE devices).',
        params: vpn.DomainParams,
        body: vpn.ActionInput,
        response: { 200: vpn.Action, 201: vpn.Action, ...refusals },
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (body.id !== undefined)
        return service.editAction(db, principalOf(request), request.params.domain, body);
      return reply
        .code(201)
        .send(await service.createAction(db, principalOf(request), request.params.domain, body));
    },
  );

  app.put(
    actions,
    {
      schema: {
        operationId: 'editAction',
        description: 'Edits the application named by body.id (required) (UPDATE devices).',
        params: vpn.DomainParams,
        body: vpn.ActionInput,
        response: { 200: vpn.Action, ...refusals },
      },
    },
    async (request) => service.editAction(db, principalOf(request), request.params.domain, request.body),
  );

  app.get(
    `${actions}/:id`,
    {
      schema: {
        operationId: 'getAction',
        description: 'One application (READ devices).',
        params: vpn.DomainIdParams,
        response: { 200: vpn.Action, ...errors },
      },
    },
    async (request) => service.getAction(db, principalOf(request), request.params.domain, request.params.id),
  );

  app.delete(
    `${actions}/:id`,
    {
      schema: {
        operationId: 'deleteAction',
        description: "Deletes an application, with the users' saved passwords of it (DELETE devices).",
        params: vpn.DomainIdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteAction(db, principalOf(request), request.params.domain, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // --- application preferences (the caller's own shortcuts) -------------------------------------------------------

  app.get(
    `${preferences}/:orgResourceId/:x`,
    {
      schema: {
        operationId: 'listApplicationPreferences',
        description:
          "The caller's application shortcuts in {orgResourceId}: of the gateway named {x}, or of every gateway " +
          'with x=all; newest first, 200 per page (READ devices).',
        params: vpn.ApplicationPreferenceListParams,
        querystring: vpn.ApplicationPreferenceQuery,
        response: { 200: vpn.ApplicationPreferencePage, ...errors },
      },
    },
    async (request) =>
      service.listPreferences(
        db,
        principalOf(request),
        request.params.orgResourceId,
        request.params.x,
        request.query,
      ),
  );

  app.post(
    `${preferences}/:orgResourceId/:gateway/:endpoint/:action/:clientOs/:label`,
    {
      schema: {
        operationId: 'createApplicationPreference',
        description:
          'Saves a shortcut of the caller: open {action} on {endpoint} of {gateway} from {clientOs}, shown as ' +
          '{label}. The gateway, endpoint and application must exist (404 naming the missing one); at most 200 ' +
          'per user (409) (READ devices).',
        params: vpn.ApplicationPreferenceCreateParams,
        response: { 201: vpn.ApplicationPreference, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createPreference(db, principalOf(request), request.params)),
  );

  app.delete(
    `${preferences}/:orgResourceId/:id`,
    {
      schema: {
        operationId: 'deleteApplicationPreference',
        description: "Deletes one of the caller's shortcuts; another user's is 404 (READ devices).",
        params: vpn.ApplicationPreferenceDeleteParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deletePreference(
        db,
        principalOf(request),
        request.params.orgResourceId,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );
};
