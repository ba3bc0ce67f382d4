import { common, dashboards as contract } from '@edgeport/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { badRequest } from '../../../http/errors.ts';
import { principalOf } from '../../../http/principal.ts';
import { answerError } from '../../../http/request-guards.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import {
  downloadHeaders,
  fileTooLarge,
  IMAGE_TYPES,
  MAX_FILE_BYTES,
  MAX_FILE_TEXT,
} from '../assets/content.ts';
import { fileResponse } from '../assets/routes.ts';
import { assetContext } from '../assets/service.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse, 413: common.ErrorResponse };
const FIELDS = 'the fields manifest (JSON) and file';

/** The multipart errors as answers naming what was wrong. */
function uploadError(error: FastifyError): FastifyError {
  const named = (message: string, statusCode = 400) =>
    Object.assign(badRequest(message), { code: error.code, statusCode });
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return Object.assign(fileTooLarge('body/file'), { code: error.code });
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return named('body/manifest must be JSON');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return named(`body must hold only ${FIELDS}, once each`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return named(`body must be multipart/form-data with ${FIELDS}`);
    case 'FST_MP_PREMATURE_CLOSE':
      return named('body ended before the multipart upload was complete');
    default:
      return error;
  }
}

/** Reads the multipart upload: the `manifest` field and the `file` part; anything else is refused. */
async function readUpload(request: FastifyRequest): Promise<service.GalleryUpload> {
  if (!request.isMultipart()) throw badRequest(`body must be multipart/form-data with ${FIELDS}`);
  const upload: service.GalleryUpload = { manifest: undefined, file: undefined };
  for await (const part of request.parts()) {
    if (part.fieldname === 'manifest' && upload.manifest === undefined) {
      if (part.type === 'file') upload.manifest = (await part.toBuffer()).toString('utf8');
      else upload.manifest = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    } else if (part.fieldname === 'file' && part.type === 'file' && upload.file === undefined) {
      upload.file = { contentType: part.mimetype, bytes: await part.toBuffer() };
    } else {
      throw badRequest(
        `body/${part.fieldname.slice(0, 60)} is not expected: the upload holds ${FIELDS}, once each`,
      );
    }
  }
  return upload;
}

/** Spec 7 "Dashboard" organization gallery: manifests, gallery widgets, multipart upload, download, delete. */
export const galleryRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (app, options) => {
  const ctx = assetContext(options);
  // Scoped to this plugin: only the gallery upload reads multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: MAX_FILE_BYTES,
      files: 2,
      fields: 2,
      parts: 3,
      fieldSize: 1024 * 1024,
      headerPairs: 100,
    },
  });
  app.setErrorHandler((error: FastifyError, request, reply) =>
    answerError(uploadError(error), request, reply),
  );

  app.get(
    '/api/v1/organizations/manifest',
    {
      schema: {
        operationId: 'getOrganizationManifest',
        description:
          "The gallery of the caller's organization (the permission token's): every asset with its manifest " +
          '(READ dashboards).',
        response: { 200: contract.OrganizationManifest, ...errors },
      },
    },
    async (request) => service.organizationManifest(ctx, principalOf(request)),
  );

  app.get(
    '/api/v1/organizations/gallery/widgets',
    {
      schema: {
        operationId: 'getGalleryWidgets',
        description:
          "Every widget of every manifest of the organization's gallery, its document in the current widget " +
          'schema version (READ dashboards).',
        response: { 200: contract.GalleryWidgetList, ...errors },
      },
    },
    async (request) => service.galleryWidgets(ctx, principalOf(request)),
  );

  app.get(
    '/api/v1/gallery/assets/:a/manifest',
    {
      schema: {
        operationId: 'getGalleryAssetManifest',
        description: 'The manifest of the gallery asset {a} (READ dashboards).',
        params: contract.GalleryParams,
        response: { 200: contract.GalleryManifest, ...errors },
      },
    },
    async (request) => service.galleryManifest(ctx, principalOf(request), request.params.a),
  );

  app.get(
    '/api/v1/gallery/assets/:a/download',
    {
      schema: {
        operationId: 'downloadGalleryAsset',
        description:
          "The gallery asset's file with its Content-Type, sent with nosniff and a sandboxing " +
          'Content-Security-Policy, SVGs as attachments (READ dashboards).',
        params: contract.GalleryParams,
        response: { 200: fileResponse('the file'), ...errors },
      },
    },
    async (request, reply) => {
      const { asset, body } = await service.downloadGalleryAsset(ctx, principalOf(request), request.params.a);
      return reply.headers(downloadHeaders({ ...asset, filename: asset.name })).send(body);
    },
  );

  app.put(
    '/api/v1/gallery/assets/:a/upload',
    {
      schema: {
        operationId: 'uploadGalleryAsset',
        description:
          'Adds or replaces the gallery asset {a}: a multipart/form-data body with the field `manifest` (JSON: ' +
          'name, description, widgets [{name, description, document (a widget document)}]) and the part `file` ' +
          `(one image: ${IMAGE_TYPES.join(', ')}; at most ${MAX_FILE_TEXT}) (UPDATE dashboards). 400 names the ` +
          "field; 409: the organization's asset storage is full; 413: the file is too large.",
        params: contract.GalleryParams,
        response: { 200: contract.GalleryAsset, ...refusals },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // The permission first: a caller who may not upload learns nothing about the body.
      await service.mayUpload(ctx, principal);
      return service.uploadGalleryAsset(ctx, principal, request.params.a, await readUpload(request));
    },
  );

  app.delete(
    '/api/v1/gallery/assets/:a',
    {
      schema: {
        operationId: 'deleteGalleryAsset',
        description: 'Deletes the gallery asset {a} and its file (UPDATE dashboards).',
        params: contract.GalleryParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteGalleryAsset(ctx, principalOf(request), request.params.a);
      return reply.code(204).send(null);
    },
  );
};
