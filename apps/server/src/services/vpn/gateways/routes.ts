import { common, vpn } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as endpoints from './endpoints.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

/** Remote access: the gateway and endpoint calls of spec 7 "Gateway/VPN service". */
export const gatewaysRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, config, tunnels, clock },
) => {
  const { db } = database;

  // --- endpoints (`/endpoints` lists, `/endpoints/` creates: two routes, as the spec calls them) ------------------

  app.post(
    '/api/v1/endpoints',
    {
      schema: {
        operationId: 'listEndpoints',
        description:
          'The endpoints (machines on gateway LANs) of body.domain, or of one gateway of it, paged by gateway ' +
          'then endpoint name; search matches names, address and description (READ devices, VPN enabled).',
        body: vpn.EndpointListRequest,
        response: { 200: vpn.EndpointPage, ...errors },
      },
    },
    async (request) => endpoints.listEndpoints(db, principalOf(request), request.body),
  );

  app.post(
    '/api/v1/endpoints/',
    {
      schema: {
        operationId: 'createEndpoint',
        description:
          "Adds an endpoint to a gateway (CREATE devices): its address must be an IPv4 host inside the gateway's " +
          'LAN, never loopback, link-local, multicast, reserved, the network or the broadcast address (400 ' +
          "'body/address: ...'); a name the gateway already has is 409.",
        body: vpn.EndpointCreate,
        response: { 201: vpn.Endpoint, ...refusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await endpoints.createEndpoint(db, principalOf(request), request.body)),
  );

  app.delete(
    '/api/v1/endpoints/:endpointName/:gateway/:domain',
    {
      schema: {
        operationId: 'deleteEndpoint',
        description: 'Removes an endpoint of a gateway (DELETE devices).',
        params: vpn.EndpointDeleteParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await endpoints.deleteEndpoint(db, principalOf(request), request.params);
      return reply.code(204).send(null);
    },
  );

  // --- gateways -------------------------------------------------------------------------------------------------

  app.get(
    '/api/v1/gateways/:domain',
    {
      schema: {
        operationId: 'listGateways',
        description:
          "The gateways of {domain}, paged by name, with status, LAN, position (the device's) and endpoint " +
          'count; search matches name and description; the Date header is the server time the portal compares ' +
          'lastSeenAt with (READ devices, VPN enabled).',
        params: vpn.DomainParams,
        querystring: vpn.GatewayListQuery,
        response: { 200: vpn.GatewayPage, ...errors },
      },
    },
    async (request) => service.listGateways(db, principalOf(request), request.params.domain, request.query),
  );

  app.get(
    '/api/v1/gateways/:domain/:gateway',
    {
      schema: {
        operationId: 'getGateway',
        description: 'One gateway of {domain} by name (READ devices).',
        params: vpn.GatewayParams,
        response: { 200: vpn.Gateway, ...errors },
      },
    },
    async (request) =>
      service.getGateway(db, principalOf(request), request.params.domain, request.params.gateway),
  );

  app.post(
    '/api/v1/gateways/:domain/:gateway/position',
    {
      schema: {
        operationId: 'setGatewayPosition',
        description:
          "Sets the gateway's map position, which is its device's latitude and longitude (UPDATE devices).",
        params: vpn.GatewayParams,
        querystring: vpn.PositionQuery,
        response: { 200: vpn.Gateway, ...errors },
      },
    },
    async (request) =>
      service.setPosition(
        db,
        principalOf(request),
        request.params.domain,
        request.params.gateway,
        request.query,
      ),
  );

  app.patch(
    '/api/v1/gateways/:domain/:gateway',
    {
      schema: {
        operationId: 'patchGateway',
        description:
          'Changes description, lanNetwork (an IPv4 CIDR with prefix 8..30; 409 while endpoints would lie ' +
          'outside it), profileId (a profile of {domain}, else 404; null: none) or ipFilter (the client networks ' +
          'allowed to open sessions; empty: any) (UPDATE devices).',
        params: vpn.GatewayParams,
        body: vpn.GatewayPatch,
        response: { 200: vpn.Gateway, ...refusals },
      },
    },
    async (request) =>
      service.patchGateway(
        db,
        tunnels,
        principalOf(request),
        request.params.domain,
        request.params.gateway,
        request.body,
      ),
  );

  app.post(
    '/api/v1/gateways/:domain/:gateway/clone/:target',
    {
      schema: {
        operationId: 'cloneGateway',
        description:
          "Copies the gateway's profile, IP filter and portal-made endpoints onto {target} (endpoints outside the " +
          "target's LAN or whose name it already has are left out); answers the target (UPDATE devices).",
        params: vpn.CloneParams,
        response: { 200: vpn.Gateway, ...errors },
      },
    },
    async (request) =>
      service.cloneGateway(
        db,
        principalOf(request),
        request.params.domain,
        request.params.gateway,
        request.params.target,
      ),
  );

  app.post(
    '/api/v1/gateways/:domain/:gateway/edge-config-file',
    {
      schema: {
        operationId: 'getGatewayEdgeConfigFile',
        description:
          "The gateway agent's edge configuration file, named by the content-disposition header. activationKey " +
          "must be the VPN device licence of the gateway's device (404 otherwise). Every call issues a new agent " +
          'secret: the previous file stops working and its tunnel is dropped (UPDATE devices).',
        params: vpn.GatewayParams,
        body: vpn.EdgeConfigRequest,
        response: { 200: vpn.EdgeConfigFile, ...errors },
      },
    },
    async (request, reply) => {
      const { filename, file } = await service.edgeConfigFile(
        db,
        config,
        tunnels,
        principalOf(request),
        request.params.domain,
        request.params.gateway,
        request.body.activationKey,
        clock.now(),
      );
      return reply
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  app.get(
    '/api/v1/gateways/:domain/:gateway/logs',
    {
      schema: {
        operationId: 'getGatewayLogs',
        description:
          "The gateway's log, newest first: tunnel up and down, resets, configuration, sessions. System lines " +
          'only with showSystem=true; fromTimestamp inclusive, toTimestamp exclusive (epoch ms); at most limit ' +
          '(default and maximum 1000) (READ devices).',
        params: vpn.GatewayParams,
        querystring: vpn.GatewayLogQuery,
        response: { 200: vpn.GatewayLogList, ...errors },
      },
    },
    async (request) =>
      service.gatewayLogs(
        db,
        principalOf(request),
        request.params.domain,
        request.params.gateway,
        request.query,
      ),
  );

  app.get(
    '/api/v1/gateways/:gateway/:orgResourceId/resetVpnConnection',
    {
      schema: {
        operationId: 'resetVpnConnection',
        description:
          "Drops the gateway's live tunnel and the sessions through it; the agent reconnects by itself. `reset` " +
          'says whether a tunnel was up (UPDATE devices).',
        params: vpn.ResetParams,
        response: { 200: vpn.ResetAnswer, ...errors },
      },
    },
    async (request) =>
      service.resetConnection(
        db,
        tunnels,
        principalOf(request),
        request.params.gateway,
        request.params.orgResourceId,
      ),
  );
};
