import { platform } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

/** Latest values of a device and set-point writes back to it. */
export const valueRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database, ingest }) => {
  const { db } = database;
  const path = '/api/v1/organizations/:org/devices/:id/values';

  app.get(
    path,
    {
      schema: {
        operationId: 'getLatestValues',
        description: 'The latest value of every model path of the device the caller may read (READ devices).',
        params: platform.DeviceParams,
        response: { 200: platform.LatestValues, ...errors },
      },
    },
    async (request) =>
      service.latestValues(db, ingest, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    path,
    {
      schema: {
        operationId: 'writeSetpoint',
        description:
          "Sends a set-point to the device (UPDATE devices; the path must be writable and the caller's data roles must allow writing it).",
        params: platform.DeviceParams,
        body: platform.SetpointWrite,
        response: { 202: platform.SetpointSent, ...errors },
      },
    },
    async (request, reply) => {
      const sent = await service.writeSetpoint(
        db,
        ingest,
        principalOf(request),
        request.params.org,
        request.params.id,
        request.body,
      );
      return reply.code(202).send(sent);
    },
  );
};
