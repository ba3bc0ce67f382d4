import { common, licenseBilling as contract } from '@edgeport/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../http/principal.ts';
import { specPathAndAliases } from '../../../http/spec-paths.ts';
import type { ServiceContext } from '../../mount.ts';
import { errorResponses as errors } from '../../responses.ts';
import * as service from './service.ts';

const refusals = { ...errors, 409: common.ErrorResponse };
const orgBase = '/api/v1/organizations/:org';

/**
 * Spec 7 "Licence": preauthorized transactions with execution orders, and invoices (the default payment provider). A
 * transaction's calls are at the spec's singular paths, and at the plural ones first served.
 */
export const billingRoutes: FastifyPluginAsyncTypebox<ServiceContext> = async (
  app,
  { database, payments },
) => {
  const { db } = database;

  app.get(
    `${orgBase}/invoices`,
    {
      schema: {
        operationId: 'getInvoices',
        description: 'The invoices of {org}, newest first, paged; filter by status (READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.InvoiceListQuery,
        response: { 200: contract.InvoicePage, ...errors },
      },
    },
    async (request) => service.listInvoices(db, principalOf(request), request.params.org, request.query),
  );

  app.get(
    `${orgBase}/clientInvoices`,
    {
      schema: {
        operationId: 'getClientInvoices',
        description:
          'The operator view: invoices of every organization below {org} (not its own), newest first, paged ' +
          '(READ products in {org}).',
        params: contract.OrganizationParams,
        querystring: contract.ClientInvoiceListQuery,
        response: { 200: contract.InvoicePage, ...errors },
      },
    },
    async (request) =>
      service.listClientInvoices(db, principalOf(request), request.params.org, request.query),
  );

  app.post(
    `${orgBase}/invoices/:id/paid`,
    {
      schema: {
        operationId: 'markInvoicePaid',
        description:
          'The operator marks an OPEN invoice PAID (no body). {org} is the OPERATOR organization: it must be a ' +
          "strict ancestor of the invoice's organization and the caller needs UPDATE products there; an " +
          'organization cannot mark its own invoice paid (404). The execution it pays (transaction:{id}/{n}) ' +
          'becomes PAID. 409 when the invoice is not OPEN.',
        params: contract.InvoiceParams,
        response: { 200: contract.Invoice, ...refusals },
      },
    },
    async (request) =>
      service.markInvoicePaid(db, principalOf(request), request.params.org, request.params.id),
  );

  app.post(
    `${orgBase}/transactions`,
    {
      schema: {
        operationId: 'createPreauthorizedTransaction',
        description:
          'Requests a preauthorized transaction (UPDATE organizations). Always recorded and answered 201 with its ' +
          'result: ERROR_NO_IN_APP_PURCHASES when the organization has in-app purchases off, ' +
          'ERROR_NO_EMPTY_TRANSACTIONS when maxAmountMinor or maxExecutions is 0, USER_REJECTED when approved is ' +
          'false, else AUTHORIZED (status ACTIVE). Refused ones have status REFUSED.',
        params: contract.OrganizationParams,
        body: contract.TransactionCreate,
        response: { 201: contract.Transaction, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createTransaction(db, principalOf(request), request.params.org, request.body)),
  );

  app.get(
    `${orgBase}/transactions`,
    {
      schema: {
        operationId: 'getPreauthorizedTransactions',
        description: 'The preauthorized transactions of {org}, newest first, paged (READ organizations).',
        params: contract.OrganizationParams,
        querystring: contract.TransactionListQuery,
        response: { 200: contract.TransactionPage, ...errors },
      },
    },
    async (request) => service.listTransactions(db, principalOf(request), request.params.org, request.query),
  );

  for (const { path, hide, operationId } of specPathAndAliases(
    `${orgBase}/transaction/:id/executions`,
    `${orgBase}/transactions/:id/executions`,
  ))
    app.get(
      path,
      {
        schema: {
          hide,
          operationId: operationId('getTransactionExecutions'),
          description:
            'The execution orders of a transaction of {org}, in order, with their invoices (READ organizations).',
          params: contract.TransactionParams,
          response: { 200: contract.ExecutionList, ...errors },
        },
      },
      async (request) =>
        service.listExecutions(db, principalOf(request), request.params.org, request.params.id),
    );

  for (const { path, hide, operationId } of specPathAndAliases(
    `${orgBase}/transaction/:id`,
    `${orgBase}/transactions/:id`,
  ))
    app.delete(
      path,
      {
        schema: {
          hide,
          operationId: operationId('revokePreauthorizedTransaction'),
          description:
            'Revokes an ACTIVE transaction (UPDATE organizations): status REVOKED, later executions are refused. ' +
            '409 when it is not ACTIVE.',
          params: contract.TransactionParams,
          response: { 200: contract.Transaction, ...refusals },
        },
      },
      async (request) =>
        service.revokeTransaction(db, principalOf(request), request.params.org, request.params.id),
    );

  for (const { path, hide, operationId } of specPathAndAliases(
    `${orgBase}/transaction/:id/execution/:n`,
    `${orgBase}/transactions/:id/executions/:n`,
  ))
    app.post(
      path,
      {
        schema: {
          hide,
          operationId: operationId('retryTransactionExecution'),
          description:
            'Retries the payment of a FAILED or PENDING execution (UPDATE organizations): charges it again through ' +
            'the payment provider with a new invoice; the previous open invoice becomes VOID. 409 for a PAID ' +
            'execution or a revoked transaction.',
          params: contract.ExecutionParams,
          response: { 200: contract.Execution, ...refusals },
        },
      },
      async (request) =>
        service.retryExecution(
          db,
          payments,
          principalOf(request),
          request.params.org,
          request.params.id,
          request.params.n,
        ),
    );
};
