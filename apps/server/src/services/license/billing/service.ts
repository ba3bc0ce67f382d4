import type { licenseBilling } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { pageWindow } from '../../../db/paging.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import type { PaymentProvider } from './payment-provider.ts';
import * as store from './store.ts';
import { authorizeTransaction, executionStatusOf } from './transactions.ts';

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toInvoice(row: store.InvoiceWithOrg): licenseBilling.Invoice {
  return {
    id: row.id,
    number: row.number,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    description: row.description,
    amountMinor: row.amountMinor,
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    reference: row.reference,
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
    paidBy: row.paidBy,
  };
}

function toTransaction(row: store.TransactionWithCount): licenseBilling.Transaction {
  return {
    id: row.id,
    organizationId: row.organizationId,
    description: row.description,
    purpose: row.purpose,
    currency: row.currency,
    maxAmountMinor: row.maxAmountMinor,
    maxExecutions: row.maxExecutions,
    executions: row.executions,
    result: row.result,
    status: row.status as licenseBilling.TransactionStatus,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    revokedAt: iso(row.revokedAt),
  };
}

function toExecution(row: store.ExecutionWithInvoice): licenseBilling.Execution {
  return {
    transactionId: row.transactionId,
    n: row.n,
    amountMinor: row.amountMinor,
    invoiceId: row.invoiceId,
    invoiceStatus: row.invoiceStatus,
    status: row.status as licenseBilling.ExecutionStatus,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---- invoices ----

export async function listInvoices(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseBilling.InvoiceListQuery,
): Promise<licenseBilling.InvoicePage> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const window = pageWindow(query);
  const page = await store.pageOfInvoices(db, [org.id], { status: query.status }, window);
  return {
    items: page.items.map(toInvoice),
    total: page.total,
    page: window.page,
    pageSize: window.pageSize,
  };
}

/** The operator's view: invoices of the organizations below {org} (READ products there). */
export async function listClientInvoices(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseBilling.ClientInvoiceListQuery,
): Promise<licenseBilling.InvoicePage> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'products');
  const window = pageWindow(query);
  let ids = await store.descendantIds(db, org.id);
  if (query.organizationId) ids = ids.filter((id) => id === query.organizationId?.toLowerCase());
  const page = await store.pageOfInvoices(db, ids, { status: query.status }, window);
  return {
    items: page.items.map(toInvoice),
    total: page.total,
    page: window.page,
    pageSize: window.pageSize,
  };
}

/**
 * An operator marks an OPEN invoice paid: {org} must be a strict ancestor of the invoice's organization and the
 * caller needs UPDATE products there. An invoice outside {org}'s descendants answers 404 (as an unknown one). The
 * execution the invoice pays becomes PAID; the other references (licences, apps) read the invoice's status.
 */
export async function markInvoicePaid(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<licenseBilling.Invoice> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'products');
  const invoice = await store.findInvoice(db, id);
  if (!invoice) throw notFound(`invoice '${id}' not found`);
  const ancestors = await store.ancestorIds(db, invoice.organizationId);
  if (!ancestors.includes(org.id)) throw notFound(`invoice '${id}' not found`);
  if (invoice.status !== 'OPEN') throw conflict(`invoice '${id}' is ${invoice.status}, not OPEN`);
  const now = new Date();
  const paidBy = principal.userId;
  const execution = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (!(await store.markInvoicePaid(tx, id, now, paidBy)))
      throw conflict(`invoice '${id}' is no longer OPEN`);
    return store.markExecutionOfInvoicePaid(tx, id, now);
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'invoices.paid',
    resourceType: 'invoices',
    resourceId: id,
    resourceName: `#${invoice.number}`,
    detail: {
      invoiceOrganizationId: invoice.organizationId,
      amountMinor: invoice.amountMinor,
      currency: invoice.currency,
      reference: invoice.reference,
      ...(execution && { transactionId: execution.transactionId, execution: execution.n }),
    },
  });
  const after = await store.findInvoice(db, id);
  if (!after) throw notFound(`invoice '${id}' not found`);
  return toInvoice(after);
}

// ---- preauthorized transactions ----

export async function createTransaction(
  db: Db,
  principal: Principal,
  ref: string,
  input: licenseBilling.TransactionCreate,
): Promise<licenseBilling.Transaction> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const { id, result } = await authorizeTransaction(db, {
    organizationId: org.id,
    description: input.description.trim(),
    purpose: input.purpose.trim(),
    currency: input.currency,
    maxAmountMinor: input.maxAmountMinor,
    maxExecutions: input.maxExecutions,
    approved: input.approved,
    createdBy: principal.userId,
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'transactions.create',
    resourceType: 'transactions',
    resourceId: id,
    resourceName: input.description.trim(),
    detail: {
      result,
      purpose: input.purpose.trim(),
      currency: input.currency,
      maxAmountMinor: input.maxAmountMinor,
      maxExecutions: input.maxExecutions,
    },
  });
  return toTransaction(await transactionOrNotFound(db, org.id, id));
}

async function transactionOrNotFound(db: Db, organizationId: string, id: string) {
  const row = await store.findTransaction(db, organizationId, id);
  if (!row) throw notFound(`transaction '${id}' not found`);
  return row;
}

export async function listTransactions(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseBilling.TransactionListQuery,
): Promise<licenseBilling.TransactionPage> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const window = pageWindow(query);
  const page = await store.pageOfTransactions(db, org.id, { status: query.status }, window);
  return {
    items: page.items.map(toTransaction),
    total: page.total,
    page: window.page,
    pageSize: window.pageSize,
  };
}

export async function listExecutions(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<licenseBilling.ExecutionList> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  await transactionOrNotFound(db, org.id, id);
  return { items: (await store.executionsOf(db, id)).map(toExecution) };
}

export async function revokeTransaction(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<licenseBilling.Transaction> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const before = await transactionOrNotFound(db, org.id, id);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const row = await store.lockTransaction(tx, id);
    if (row?.status !== 'ACTIVE')
      throw conflict(
        `transaction '${id}' is ${row?.status ?? before.status}; only an ACTIVE one can be revoked`,
      );
    await store.setTransactionStatus(tx, id, 'REVOKED', { revokedAt: new Date() });
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'transactions.revoke',
    resourceType: 'transactions',
    resourceId: id,
    resourceName: before.description,
    detail: { purpose: before.purpose, executions: before.executions },
  });
  return toTransaction(await transactionOrNotFound(db, org.id, id));
}

/**
 * Charges a FAILED or PENDING execution again through the provider: a new invoice, the previous one VOID. 409 for
 * a PAID execution, a revoked transaction, or when the previous invoice was paid meanwhile.
 */
export async function retryExecution(
  db: Db,
  payments: PaymentProvider,
  principal: Principal,
  ref: string,
  id: string,
  n: number,
): Promise<licenseBilling.Execution> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const txRow = await transactionOrNotFound(db, org.id, id);
  const outcome = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const locked = await store.lockTransaction(tx, id);
    if (!locked) throw notFound(`transaction '${id}' not found`);
    if (locked.status === 'REVOKED')
      throw conflict(`transaction '${id}' is REVOKED; its payments cannot be retried`);
    const execution = await store.findExecution(tx, id, n);
    if (!execution) throw notFound(`execution ${n} of transaction '${id}' not found`);
    if (execution.status === 'PAID' || execution.invoiceStatus === 'PAID')
      throw conflict(`execution ${n} of transaction '${id}' is already PAID`);
    if (execution.invoiceId) await store.voidInvoice(tx, execution.invoiceId);
    const charged = await payments.charge(tx, {
      organizationId: locked.organizationId,
      amountMinor: execution.amountMinor,
      currency: locked.currency,
      description: `${locked.description} (execution ${n}, retried)`,
      reference: `transaction:${locked.id}/${n}`,
    });
    const status = executionStatusOf(charged.status);
    await store.updateExecution(
      tx,
      id,
      n,
      {
        invoiceId: charged.invoiceId,
        status,
        error:
          charged.status === 'FAILED' ? (charged.error ?? 'the payment provider refused the charge') : null,
      },
      new Date(),
    );
    return { previousInvoiceId: execution.invoiceId, previousStatus: execution.status, charged, status };
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'transactions.retry',
    resourceType: 'transactions',
    resourceId: id,
    resourceName: txRow.description,
    detail: {
      n,
      previousStatus: outcome.previousStatus,
      previousInvoiceId: outcome.previousInvoiceId,
      invoiceId: outcome.charged.invoiceId,
      status: outcome.status,
    },
  });
  const after = await store.findExecution(db, id, n);
  if (!after) throw notFound(`execution ${n} of transaction '${id}' not found`);
  return toExecution(after);
}
