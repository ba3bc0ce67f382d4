import { platform } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { csvResponse, errorResponses as errors, sendCsv } from '../../responses.ts';
import * as service from './service.ts';

/** Stored device values for data exploration (decimated series, the devices' paths, CSV export). */
export const dataRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, { database }) => {
  const { db } = database;

  app.get(
    '/api/v1/organizations/:org/data/paths',
    {
      schema: {
        operationId: 'getDataPaths',
        description:
          "The model paths the devices' presets give them that the caller's data roles let them read, with type " +
          'and unit (READ models and READ devices); 404 names a device that is not in {org}.',
        params: platform.DataOrgParams,
        querystring: platform.DataPathsQuery,
        response: { 200: platform.DataPaths, ...errors },
      },
    },
    async (request) => service.pathsOf(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    '/api/v1/organizations/:org/data/query',
    {
      schema: {
        operationId: 'queryData',
        description:
          'A series per (device, path) in the range (READ models and READ devices). Above maxPoints stored values ' +
          'the server keeps the minimum and maximum of each time bucket, so peaks survive. Booleans answer 0/1; ' +
          'string paths list their raw values in `text`. 403 for a path the data roles do not let the caller read.',
        params: platform.DataOrgParams,
        body: platform.DataQueryRequest,
        response: { 200: platform.DataQueryResult, ...errors },
      },
    },
    async (request) => service.queryData(db, principalOf(request), request.params.org, request.body),
  );

  app.post(
    '/api/v1/organizations/:org/data/summary',
    {
      schema: {
        operationId: 'summarizeData',
        description:
          'Every device of {org} with values of the path in the range, each with its count, minimum, maximum, ' +
          'average and newest value, from the hourly rollups: the range is widened to whole hours (READ models ' +
          'and READ devices). 403 for a path the data roles do not let the caller read.',
        params: platform.DataOrgParams,
        body: platform.DataSummaryRequest,
        response: { 200: platform.DataSummary, ...errors },
      },
    },
    async (request) => service.summarizeData(db, principalOf(request), request.params.org, request.body),
  );

  app.get(
    '/api/v1/organizations/:org/data/export.csv',
    {
      schema: {
        operationId: 'exportData',
        description:
          'Every stored value of the paths in the range as CSV (device,label,path,ts,value), device by device, ' +
          `oldest first, at most ${platform.DATA_EXPORT_ROW_LIMIT} records (READ models and READ devices).`,
        params: platform.DataOrgParams,
        querystring: platform.DataExportQuery,
        response: {
          200: csvResponse('RFC 4180 CSV with a header row; formula-like text cells start with a quote'),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { filename, body } = await service.exportData(
        db,
        principalOf(request),
        request.params.org,
        request.query,
      );
      return sendCsv(reply, { filename, body });
    },
  );
};
