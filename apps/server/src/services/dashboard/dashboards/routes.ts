import { common, dashboards as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { DashboardKind } from '../../../db/schema.ts';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { csvResponse, errorResponses as errors, sendCsv } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };

/** Each collection with the kind of its rows and the word its operation ids use. */
const COLLECTIONS: { path: contract.Collection; kind: DashboardKind; one: string; many: string }[] = [
  { path: 'dashboards', kind: 'dashboard', one: 'Dashboard', many: 'Dashboards' },
  { path: 'flows', kind: 'flow', one: 'Flow', many: 'Flows' },
  { path: 'widgets', kind: 'widget', one: 'Widget', many: 'Widgets' },
];

/**
 * Spec 7 "Dashboard": `/api/v1/dashboards`, `/api/v1/flows` and `/api/v1/widgets`, one implementation for the three
 * kinds. The organization is the permission token's; READ on dashboards (and IoT) to use them at all.
 */
export const dashboardsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, blobs },
) => {
  const { db } = database;

  for (const { path, kind, one, many } of COLLECTIONS) {
    const base = `/api/v1/${path}`;
    const access =
      `Access: the owner, users it is shared with (readers 'r' view, editors 'r/w' also edit), and holders of ` +
      `UPDATE on dashboards (act as owners); anyone else gets 404.`;

    app.post(
      base,
      {
        schema: {
          operationId: `create${one}`,
          description:
            `Creates a ${kind} owned by the caller with version 1: the document given (checked and migrated; 400 ` +
            `names the field) or an empty one (CREATE dashboards).`,
          body: contract.DashboardCreate,
          response: { 201: contract.Dashboard, ...errors },
        },
      },
      async (request, reply) => {
        const created = await service.createDashboard(db, principalOf(request), kind, request.body);
        return reply.code(201).send(created);
      },
    );

    app.patch(
      base,
      {
        schema: {
          operationId: `patch${one}`,
          description: `Renames or describes the ${kind} whose id is in the body (r/w). ${access}`,
          body: contract.DashboardPatch,
          response: { 200: contract.Dashboard, ...errors },
        },
      },
      async (request) => service.patchDashboard(db, principalOf(request), kind, request.body),
    );

    app.get(
      base,
      {
        schema: {
          operationId: `get${many}`,
          description:
            `The ${path} the caller can open: their own, those shared with them, or all of the organization for ` +
            `holders of UPDATE on dashboards. Search by name; sort by name (default) or updatedAt.`,
          querystring: contract.DashboardListQuery,
          response: { 200: contract.DashboardList, ...errors },
        },
      },
      async (request) => service.listDashboards(db, principalOf(request), kind, 'visible', request.query),
    );

    app.get(
      `${base}/mine`,
      {
        schema: {
          operationId: `getMy${many}`,
          description: `The ${path} the caller owns, paged like the list.`,
          querystring: contract.DashboardListQuery,
          response: { 200: contract.DashboardList, ...errors },
        },
      },
      async (request) => service.listDashboards(db, principalOf(request), kind, 'mine', request.query),
    );

    app.get(
      `${base}/sharedWithMe`,
      {
        schema: {
          operationId: `get${many}SharedWithMe`,
          description: `The ${path} other users shared with the caller (as reader or editor), paged like the list.`,
          querystring: contract.DashboardListQuery,
          response: { 200: contract.DashboardList, ...errors },
        },
      },
      async (request) => service.listDashboards(db, principalOf(request), kind, 'shared', request.query),
    );

    app.get(
      `${base}/:id`,
      {
        schema: {
          operationId: `get${one}`,
          description: `One ${kind} with its readers, editors and the caller's access. ${access}`,
          params: contract.DashboardParams,
          response: { 200: contract.Dashboard, ...errors },
        },
      },
      async (request) => service.getDashboard(db, principalOf(request), kind, request.params.id),
    );

    app.delete(
      `${base}/:id`,
      {
        schema: {
          operationId: `delete${one}`,
          description: `Deletes the ${kind} with its versions, shares, assets and preferences (owner).`,
          params: contract.DashboardParams,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.deleteDashboard(db, blobs, principalOf(request), kind, request.params.id);
        return reply.code(204).send(null);
      },
    );

    // --- Versions ---------------------------------------------------------------------------------------------------

    app.get(
      `${base}/:id/versions`,
      {
        schema: {
          operationId: `get${one}Versions`,
          description: `The versions of the ${kind}, newest first, without their documents (r).`,
          params: contract.DashboardParams,
          response: { 200: contract.DashboardVersionList, ...errors },
        },
      },
      async (request) => service.listVersions(db, principalOf(request), kind, request.params.id),
    );

    app.post(
      `${base}/:id/versions`,
      {
        schema: {
          operationId: `create${one}Version`,
          description:
            `Saves a new version (the highest number + 1) with the document given (checked; 400 names the ` +
            `field); it becomes the current version unless current is false (r/w).`,
          params: contract.DashboardParams,
          body: contract.VersionCreate,
          response: { 201: contract.DashboardVersion, ...errors },
        },
      },
      async (request, reply) => {
        const created = await service.createVersion(
          db,
          principalOf(request),
          kind,
          request.params.id,
          request.body,
        );
        return reply.code(201).send(created);
      },
    );

    app.get(
      `${base}/:id/versions/:v`,
      {
        schema: {
          operationId: `get${one}Version`,
          description: `One version with its document in the current schema version (older ones are migrated) (r).`,
          params: contract.VersionParams,
          response: { 200: contract.DashboardVersion, ...errors },
        },
      },
      async (request) =>
        service.getVersion(db, principalOf(request), kind, request.params.id, request.params.v),
    );

    app.delete(
      `${base}/:id/versions/:v`,
      {
        schema: {
          operationId: `delete${one}Version`,
          description: `Deletes a version (owner); the current version cannot be deleted (409).`,
          params: contract.VersionParams,
          response: { 204: Type.Null(), ...refusals },
        },
      },
      async (request, reply) => {
        await service.deleteVersion(db, principalOf(request), kind, request.params.id, request.params.v);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:id/versions/:v/current`,
      {
        schema: {
          operationId: `make${one}VersionCurrent`,
          description: `Makes version v the one the viewer opens by default (owner).`,
          params: contract.VersionParams,
          response: { 200: contract.Dashboard, ...errors },
        },
      },
      async (request) =>
        service.makeCurrent(db, principalOf(request), kind, request.params.id, request.params.v),
    );

    app.post(
      `${base}/:id/versions/:v/versions/:v2`,
      {
        schema: {
          operationId: `derive${one}Version`,
          description:
            `Derives version v2 from version v (a copy of its document, derivedFrom v, not current) (r/w); v2 ` +
            `must be the next free version number, else 409.`,
          params: contract.DeriveParams,
          response: { 201: contract.DashboardVersion, ...refusals },
        },
      },
      async (request, reply) => {
        const { id, v, v2 } = request.params;
        const created = await service.deriveVersion(db, principalOf(request), kind, id, v, v2);
        return reply.code(201).send(created);
      },
    );

    // --- Sharing (spec 4) -------------------------------------------------------------------------------------------

    for (const [list, level, word] of [
      ['readers', 'r', 'Reader'],
      ['editors', 'r/w', 'Editor'],
    ] as const) {
      app.post(
        `${base}/:id/${list}/:user`,
        {
          schema: {
            operationId: `share${one}With${word}`,
            description:
              `Shares the ${kind} with a member of the organization as ${list === 'readers' ? 'reader (r)' : 'editor (r/w)'}; ` +
              `a user is in one list only (owner).`,
            params: contract.ShareParams,
            response: { 200: contract.Dashboard, ...errors },
          },
        },
        async (request) =>
          service.shareOne(db, principalOf(request), kind, request.params.id, request.params.user, level),
      );

      app.delete(
        `${base}/:id/${list}/:user`,
        {
          schema: {
            operationId: `unshare${one}${word}`,
            description: `Removes the user from the readers AND the editors of the ${kind} (owner); 404 when the user is neither.`,
            params: contract.ShareParams,
            response: { 200: contract.Dashboard, ...errors },
          },
        },
        async (request) =>
          service.unshare(db, principalOf(request), kind, request.params.id, [request.params.user], true),
      );

      app.post(
        `${base}/:id/${list}`,
        {
          schema: {
            operationId: `share${one}With${word}s`,
            description:
              `Shares with a list of members: each user gets the level given (default ${level}); a user without a ` +
              `level in the list is removed from both lists (owner).`,
            params: contract.DashboardParams,
            body: contract.ShareList,
            response: { 200: contract.Dashboard, ...errors },
          },
        },
        async (request) =>
          service.shareList(db, principalOf(request), kind, request.params.id, request.body, level),
      );

      app.delete(
        `${base}/:id/${list}`,
        {
          schema: {
            operationId: `unshare${one}${word}s`,
            description: `Removes each listed user from the readers AND the editors of the ${kind} (owner).`,
            params: contract.DashboardParams,
            body: contract.UnshareList,
            response: { 200: contract.Dashboard, ...errors },
          },
        },
        async (request) =>
          service.unshare(db, principalOf(request), kind, request.params.id, request.body.users),
      );
    }
  }

  // --- Data export (dashboards only: flows and widgets have no data of their own) -----------------------------------

  app.post(
    '/api/v1/dashboards/:id/version/LATEST/data',
    {
      schema: {
        operationId: 'exportDashboardData',
        description:
          "CSV of the values the current version's widgets are bound to, between from and to: one row per time, " +
          'columns time then {slot}:{path}: the stored values, or the averages of the 1-minute or 1-hour rollups ' +
          '(resolution; auto picks from the range, header x-data-resolution says which). ' +
          'Each slot shows the device given in slots (else its default device); ' +
          "devices must belong to the organization (400 naming the slot); paths the caller's data roles hide are " +
          'left out (r).',
        params: contract.DashboardParams,
        body: contract.DataExport,
        response: {
          200: csvResponse('RFC 4180 CSV with a header row; formula-like text cells start with a quote'),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const download = await service.exportData(db, principalOf(request), request.params.id, request.body);
      return sendCsv(reply.header('x-data-resolution', download.resolution), download);
    },
  );
};
