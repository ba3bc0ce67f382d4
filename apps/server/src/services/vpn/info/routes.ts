import { vpn } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import { companionAppInfo, regions } from './service.ts';

/** Remote access: the companion app information and the regions (spec 7); any signed-in caller. */
export const infoRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { config }) => {
  app.get(
    '/api/v1/companionApp/info',
    {
      schema: {
        operationId: 'getCompanionAppInfo',
        description:
          'The companion CLI that forwards a local TCP port through the server to an endpoint: its version, ' +
          'where to download it (one JavaScript file for Node 22+), and the command line per client system.',
        response: { 200: vpn.CompanionAppInfo, ...errors },
      },
    },
    async () => companionAppInfo(config),
  );

  app.get(
    '/api/v1/regions',
    {
      schema: {
        operationId: 'getRegions',
        description: 'The regions remote access runs in: this server, with its public origin.',
        response: { 200: vpn.RegionList, ...errors },
      },
    },
    async () => regions(config),
  );
};
