import { audit } from '@edgeport/contract';
import { principalOf } from '../../http/principal.ts';
import type { ServiceDefinition } from '../mount.ts';
import { csvResponse, errorResponses as errors, sendCsv } from '../responses.ts';
import * as service from './service.ts';

/** The audit service: the organization's log of every change (the /log screen). */
export const auditService: ServiceDefinition = {
  name: 'audit',
  title: 'Edgeport audit service',
  routes: async (app, { database }) => {
    const { db } = database;

    app.get(
      '/api/v1/organizations/:org/entries',
      {
        schema: {
          operationId: 'getAuditEntries',
          description: 'One page of the organization log (needs ACCESS on audit); newest first by default.',
          params: audit.OrganizationParams,
          querystring: audit.EntryQuery,
          response: { 200: audit.EntryPage, ...errors },
        },
      },
      async (request) => service.listEntries(db, principalOf(request), request.params.org, request.query),
    );

    app.get(
      '/api/v1/organizations/:org/entries.csv',
      {
        schema: {
          operationId: 'exportAuditEntries',
          description: `Every matching record (at most ${service.EXPORT_LIMIT}) as CSV, with the filters of the list.`,
          params: audit.OrganizationParams,
          querystring: audit.EntryFilter,
          response: {
            200: csvResponse('RFC 4180 CSV with a header row; formula-like cells start with a quote'),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { filename, body } = await service.exportEntries(
          db,
          principalOf(request),
          request.params.org,
          request.query,
        );
        return sendCsv(reply, { filename, body });
      },
    );

    app.get(
      '/api/v1/organizations/:org/facets',
      {
        schema: {
          operationId: 'getAuditFacets',
          description: 'The actions and resource types present in the organization log (for filters).',
          params: audit.OrganizationParams,
          response: { 200: audit.Facets, ...errors },
        },
      },
      async (request) => service.entryFacets(db, principalOf(request), request.params.org),
    );
  },
};
