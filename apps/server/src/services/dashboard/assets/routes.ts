import type { Readable } from 'node:stream';
import { common, dashboards as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../../../http/principal.ts';
import { answerError } from '../../../http/request-guards.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import { downloadHeaders, fileTooLarge, IMAGE_TYPES, MAX_FILE_BYTES, MAX_FILE_TEXT } from './content.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse, 413: common.ErrorResponse };

/** The OpenAPI answer of a file download: binary, of one of the image types. */
export const fileResponse = (description: string) => ({
  description,
  content: Object.fromEntries(
    IMAGE_TYPES.map((type) => [
      type,
      { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) },
    ]),
  ),
});

/** Spec 7 "Dashboard" assets: one-time upload URLs, the PUT of the bytes, download, list, delete, storage usage. */
export const assetsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, options) => {
  const ctx = service.assetContext(options);
  // Scoped to this plugin: any body other than JSON or text arrives as raw bytes (the image upload); the service
  // checks the declared type against the bytes.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error: FastifyError, request, reply) =>
    answerError(
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? Object.assign(fileTooLarge('body'), { code: error.code })
        : error,
      request,
      reply,
    ),
  );

  app.get(
    '/api/v1/dashboards/:id/assets',
    {
      schema: {
        operationId: 'getDashboardAssets',
        description: "The dashboard's assets (images), by name (readers too).",
        params: contract.DashboardParams,
        response: { 200: contract.AssetList, ...errors },
      },
    },
    async (request) => service.listAssets(ctx, principalOf(request), request.params.id),
  );

  app.get(
    '/api/v1/dashboards/:id/assets/:name/upload',
    {
      schema: {
        operationId: 'getDashboardAssetUploadUrl',
        description:
          'A one-time URL (valid 10 minutes, for the caller only) to upload the asset {name} of the dashboard ' +
          '(editors and owners). The browser PUTs the file to it with its bearer token and the Content-Type of the ' +
          `image (${IMAGE_TYPES.join(', ')}); at most ${MAX_FILE_TEXT}. An asset of the same name is replaced.`,
        params: contract.AssetParams,
        response: { 200: contract.UploadUrl, ...errors },
      },
    },
    async (request) => service.uploadUrl(ctx, principalOf(request), request.params.id, request.params.name),
  );

  app.put(
    '/api/v1/dashboards/:id/assets/:name',
    {
      schema: {
        operationId: 'putDashboardAsset',
        description:
          'The upload of an asset through the URL of getDashboardAssetUploadUrl: the raw bytes of one image ' +
          `(${IMAGE_TYPES.join(', ')}; the Content-Type must match the content; at most ${MAX_FILE_TEXT}) with ` +
          'the bearer token of the user the URL was given to, who must still be an editor. The token is used ' +
          "up when the asset is saved. 400: not such an image; 403: token unknown, used or expired; 409: the organization's " +
          'asset storage is full; 413: the file is too large.',
        params: contract.AssetParams,
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: contract.Asset, ...refusals },
      },
    },
    async (request) =>
      service.putAsset(ctx, principalOf(request), request.params.id, request.params.name, {
        token: request.query.token,
        contentType: request.headers['content-type'],
        body: request.body,
      }),
  );

  app.get(
    '/api/v1/dashboards/:id/assets/:name/download',
    {
      schema: {
        operationId: 'downloadDashboardAsset',
        description:
          "The asset's bytes with its Content-Type (readers too); sent with nosniff and a sandboxing " +
          'Content-Security-Policy, SVGs as attachments.',
        params: contract.AssetParams,
        response: { 200: fileResponse('the image'), ...errors },
      },
    },
    async (request, reply) => {
      const { asset, body } = await service.downloadAsset(
        ctx,
        principalOf(request),
        request.params.id,
        request.params.name,
      );
      const headers = downloadHeaders({ ...asset, filename: asset.name });
      return reply.headers(headers).send(body);
    },
  );

  app.delete(
    '/api/v1/dashboards/:id/assets/:name',
    {
      schema: {
        operationId: 'deleteDashboardAsset',
        description: 'Deletes the asset and its file (editors and owners).',
        params: contract.AssetParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteAsset(ctx, principalOf(request), request.params.id, request.params.name);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/assetstorage',
    {
      schema: {
        operationId: 'getAssetStorage',
        description:
          "How much of its asset storage the caller's organization (the permission token's) uses: dashboard " +
          'assets and gallery files together, against the limit (READ dashboards).',
        response: { 200: contract.AssetStorage, ...errors },
      },
    },
    async (request) => service.assetStorage(ctx, principalOf(request)),
  );
};
