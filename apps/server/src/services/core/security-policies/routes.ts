import { common, core } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const base = '/api/v1/organizations/:org/securityPolicies';

/**
 * Security policy groups (spec 3): rules for the users and devices they are assigned to; groups nest. Reading needs
 * READ organizations, changing UPDATE organizations. Users are assigned under /users/{id}/securityPolicies.
 */
export const securityPolicyRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    base,
    {
      schema: {
        operationId: 'getSecurityPolicies',
        description: 'The security policy groups of {org}, paged; search matches name and description.',
        params: core.OrganizationParams,
        querystring: core.SecurityPolicyListQuery,
        response: { 200: core.SecurityPolicyPage, ...errors },
      },
    },
    async (request) => service.listPolicies(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createSecurityPolicy',
        description:
          'A new security policy group; parentId nests it in another group of {org}. 409 for a name in use.',
        params: core.OrganizationParams,
        body: core.SecurityPolicyCreate,
        response: { 201: core.SecurityPolicy, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createPolicy(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        operationId: 'getSecurityPolicy',
        params: core.SecurityPolicyParams,
        response: { 200: core.SecurityPolicy, ...errors },
      },
    },
    async (request) => service.getPolicy(db, principalOf(request), request.params.org, request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        operationId: 'updateSecurityPolicy',
        description:
          'Changes name, description, rules or nesting (parentId null: top level). A parent that is the policy ' +
          'itself or nested inside it (a cycle) is refused with 400.',
        params: core.SecurityPolicyParams,
        body: core.SecurityPolicyUpdate,
        response: { 200: core.SecurityPolicy, ...refusals },
      },
    },
    async (request) =>
      service.updatePolicy(db, principalOf(request), request.params.org, request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        operationId: 'deleteSecurityPolicy',
        description: 'Deletes the group and its assignments; 409 while other groups are nested in it.',
        params: core.SecurityPolicyParams,
        response: { 204: Type.Null(), ...refusals },
      },
    },
    async (request, reply) => {
      await service.deletePolicy(db, principalOf(request), request.params.org, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:id/securityPolicies`,
    {
      schema: {
        operationId: 'getNestedSecurityPolicies',
        description: 'The groups nested directly in the group, paged.',
        params: core.SecurityPolicyParams,
        querystring: core.SecurityPolicyListQuery,
        response: { 200: core.SecurityPolicyPage, ...errors },
      },
    },
    async (request) =>
      service.listNestedPolicies(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.query,
      ),
  );

  app.get(
    `${base}/:id/devices`,
    {
      schema: {
        operationId: 'getSecurityPolicyDevices',
        description: 'The devices the group is assigned to, paged.',
        params: core.SecurityPolicyParams,
        querystring: core.SecurityPolicyListQuery,
        response: { 200: common.Paged(core.SecurityPolicyDevice), ...errors },
      },
    },
    async (request) =>
      service.listPolicyDevices(
        db,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.query,
      ),
  );

  app.post(
    `${base}/:id/devices/:dev`,
    {
      schema: {
        operationId: 'assignSecurityPolicyDevice',
        description: 'Assigns a device of {org} to the group (assigning it again changes nothing).',
        params: core.SecurityPolicyDeviceParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const { org, id, dev } = request.params;
      await service.assignDevice(db, principalOf(request), org, id, dev);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${base}/:id/devices/:dev`,
    {
      schema: {
        operationId: 'unassignSecurityPolicyDevice',
        description: 'Removes the device from the group; 404 when it is not assigned.',
        params: core.SecurityPolicyDeviceParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const { org, id, dev } = request.params;
      await service.unassignDevice(db, principalOf(request), org, id, dev);
      return reply.code(204).send(null);
    },
  );
};
