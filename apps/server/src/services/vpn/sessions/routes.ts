import { vpn } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses } from '../../responses.ts';
import * as service from './service.ts';

const errors = { ...errorResponses, 409: errorResponses[404] };

const OTP_TEXT =
  'Where the gateway’s profile requires a one-time password, `otp` (the caller’s TOTP) is checked: missing or ' +
  'wrong 403 naming otp.';

/** Remote access: connections, checks of one-time passwords, and sessions through the tunnel (spec 7). */
export const sessionsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, config, tunnels },
) => {
  const context = service.sessionsContext(database.db, config, tunnels);

  app.get(
    '/api/v1/connections/:org/:gateway/jsonActions',
    {
      schema: {
        operationId: 'getConnectionActions',
        description:
          "What the caller may open on {gateway}: every endpoint with each application of the gateway's profile " +
          'that fits clientOs (an endpoint without one offers its own protocol and port as `default`), whether ' +
          'the gateway is online, needs an OTP and whether the caller has an open connection (READ devices and ' +
          'VPN permission on the gateway).',
        params: vpn.ConnectionParams,
        querystring: vpn.JsonActionsQuery,
        response: { 200: vpn.JsonActions, ...errors },
      },
    },
    async (request) =>
      service.jsonActions(context, principalOf(request), request.params, request.query.clientOs),
  );

  app.get(
    '/api/v1/connections/:org/:gateway/connect',
    {
      schema: {
        operationId: 'connectGateway',
        description:
          'Opens the caller’s connection to {gateway} (or answers the open one). Needs READ devices, VPN ' +
          'permission on the gateway, a client address the gateway’s IP filter allows (403) and the gateway ' +
          `online (409). ${OTP_TEXT}`,
        params: vpn.ConnectionParams,
        querystring: vpn.ConnectQuery,
        response: { 200: vpn.Connection, ...errors },
      },
    },
    async (request) =>
      service.connect(context, principalOf(request), request.params, request.query, request.ip),
  );

  app.get(
    '/api/v1/connections/:org/:gateway/endpoints/:endpoint/connect',
    {
      schema: {
        operationId: 'connectEndpoint',
        description: `Opens the caller’s connection to one endpoint of {gateway}; checks as for connect. ${OTP_TEXT}`,
        params: vpn.EndpointConnectionParams,
        querystring: vpn.ConnectQuery,
        response: { 200: vpn.Connection, ...errors },
      },
    },
    async (request) =>
      service.connect(context, principalOf(request), request.params, request.query, request.ip),
  );

  app.get(
    '/api/v1/connections/:org/:gateway/disconnect',
    {
      schema: {
        operationId: 'disconnectGateway',
        description:
          'Ends the caller’s connections to {gateway} (onlyGateway=true: only the gateway-wide one) and every ' +
          'session opened under them; their live streams are broken (READ devices).',
        params: vpn.ConnectionParams,
        querystring: vpn.DisconnectQuery,
        response: { 200: vpn.DisconnectAnswer, ...errors },
      },
    },
    async (request) =>
      service.disconnect(context, principalOf(request), request.params, request.query.onlyGateway ?? false),
  );

  app.get(
    '/api/v1/connections/:org/:gateway/endpoints/:endpoint/disconnect',
    {
      schema: {
        operationId: 'disconnectEndpoint',
        description:
          'Ends the caller’s connection to one endpoint of {gateway} and every session of the caller on that ' +
          'endpoint (READ devices).',
        params: vpn.EndpointConnectionParams,
        querystring: vpn.DisconnectQuery,
        response: { 200: vpn.DisconnectAnswer, ...errors },
      },
    },
    async (request) =>
      service.disconnect(context, principalOf(request), request.params, request.query.onlyGateway ?? false),
  );

  app.get(
    '/api/v1/connections/:org/:gateway/checkotp',
    {
      schema: {
        operationId: 'checkConnectionOtp',
        description:
          'Whether otp is the caller’s current one-time password; nothing changes (READ devices, {gateway} ' +
          'must exist).',
        params: vpn.ConnectionParams,
        querystring: vpn.CheckOtpQuery,
        response: { 200: vpn.CheckOtpAnswer, ...errors },
      },
    },
    async (request) => service.checkOtp(context, principalOf(request), request.params, request.query.otp),
  );

  const executeDescription =
    'Opens an application (actionName; `default`: the endpoint’s own protocol and port) of the gateway’s profile ' +
    'on endpointName of gatewayName: a browser session (HTTP/HTTPS: `url` with a one-time ticket valid 60 s) or ' +
    'a TCP session (`token` and `command` for the companion CLI), with the caller’s saved application password. ' +
    'Needs READ devices, VPN permission on the gateway, a client address the IP filter allows, the gateway ' +
    'online (409) and, where the profile requires an OTP, an open connection made with one (403 naming otp).';

  app.get(
    '/api/v1/executeAction',
    {
      schema: {
        operationId: 'executeAction',
        description: `${executeDescription} The organization is the one the caller’s token was issued for.`,
        querystring: vpn.ExecuteActionQuery,
        response: { 200: vpn.AccessGrant, ...errors },
      },
    },
    async (request) =>
      service.executeAction(context, principalOf(request), undefined, request.query, request.ip),
  );

  app.get(
    '/api/v1/executeAction/:domain',
    {
      schema: {
        operationId: 'executeActionInDomain',
        description: `${executeDescription} The organization is {domain}.`,
        params: vpn.DomainParams,
        querystring: vpn.ExecuteActionQuery,
        response: { 200: vpn.AccessGrant, ...errors },
      },
    },
    async (request) =>
      service.executeAction(context, principalOf(request), request.params.domain, request.query, request.ip),
  );

  app.post(
    '/api/v1/credentials/request',
    {
      schema: {
        operationId: 'requestCredentials',
        description:
          'A TCP session to any port of an endpoint (the vpnTcpOption flag): `token` and `command` for the ' +
          'companion CLI. Checks as for executeAction; `otp` may connect on the fly where the profile requires one.',
        body: vpn.CredentialsRequest,
        response: { 200: vpn.AccessGrant, ...errors },
      },
    },
    async (request) => service.requestCredentials(context, principalOf(request), request.body, request.ip),
  );

  app.post(
    '/api/v1/setApplicationPassword',
    {
      schema: {
        operationId: 'setApplicationPassword',
        description:
          'Stores the caller’s password of an application of {domain} (encrypted at rest); executeAction hands ' +
          'it back to the caller only (READ devices).',
        body: vpn.SetApplicationPassword,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.setApplicationPassword(context, principalOf(request), request.body);
      return reply.code(204).send(null);
    },
  );
};
