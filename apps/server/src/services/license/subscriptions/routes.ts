import { licenseSubscriptions as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const base = '/api/v1/organizations/:org/subscriptions';
const READ = 'READ organizations in {org}.';

/** Spec 7 "Licence", subscriptions: the resource journal and what the consumption and resources screens show. */
export const subscriptionsRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, clock },
) => {
  const { db } = database;

  app.get(
    `${base}/resource/:type/journal`,
    {
      schema: {
        operationId: 'getResourceJournal',
        description: `The metered usage of one resource type of {org}, newest first, paged; from inclusive, to exclusive. ${READ}`,
        params: contract.ResourceParams,
        querystring: contract.JournalQuery,
        response: { 200: contract.JournalPage, ...errors },
      },
    },
    async (request) =>
      service.journal(db, principalOf(request), request.params.org, request.params.type, request.query),
  );

  app.get(
    `${base}/resource/:type/journal/sum`,
    {
      schema: {
        operationId: 'getResourceJournalSum',
        description: `The exact sum of the journal deltas (and the number of entries) over the same filters. ${READ}`,
        params: contract.ResourceParams,
        querystring: contract.JournalSumQuery,
        response: { 200: contract.JournalSum, ...errors },
      },
    },
    async (request) =>
      service.journalSum(db, principalOf(request), request.params.org, request.params.type, request.query),
  );

  app.get(
    `${base}/summary`,
    {
      schema: {
        operationId: 'getSubscriptionSummary',
        description:
          'Per resource type: allowance (Σ over ACTIVE licences of licence quantity × product version quantity, ' +
          'null when none grants it), used (journal sum of all time) and available. An organization with ' +
          `hasOwnResources false draws on its parent's allowances (pooledWith). ${READ}`,
        params: contract.OrganizationParams,
        response: { 200: contract.Summary, ...errors },
      },
    },
    async (request) => service.summary(db, clock, principalOf(request), request.params.org),
  );

  app.get(
    `${base}/summaryByOrg`,
    {
      schema: {
        operationId: 'getSubscriptionSummaryByOrg',
        description: `The summary of every direct sub-organization of {org}: what is assigned to each. ${READ}`,
        params: contract.OrganizationParams,
        response: { 200: contract.SummaryByOrg, ...errors },
      },
    },
    async (request) => service.summaryByOrg(db, clock, principalOf(request), request.params.org),
  );

  app.get(
    `${base}/aggregated`,
    {
      schema: {
        operationId: 'getSubscriptionAggregated',
        description:
          'Journal sums per UTC day or month bucket per resource type between from (inclusive) and to ' +
          '(exclusive; default the last 30 days), with the running total at each bucket end (all time). ' +
          `At most 1000 buckets. ${READ}`,
        params: contract.OrganizationParams,
        querystring: contract.AggregatedQuery,
        response: { 200: contract.Aggregated, ...errors },
      },
    },
    async (request) => service.aggregated(db, clock, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${base}/aggregatedByOrg`,
    {
      schema: {
        operationId: 'getSubscriptionAggregatedByOrg',
        description: `As /aggregated, for {org} itself and each direct sub-organization. ${READ}`,
        params: contract.OrganizationParams,
        querystring: contract.AggregatedQuery,
        response: { 200: contract.AggregatedByOrg, ...errors },
      },
    },
    async (request) =>
      service.aggregatedByOrg(db, clock, principalOf(request), request.params.org, request.query),
  );
};
