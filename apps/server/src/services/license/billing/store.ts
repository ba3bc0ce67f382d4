import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import type { PageWindow } from '../../../db/paging.ts';
import { rowsOf } from '../../../db/rows.ts';
import {
  type InvoiceStatus,
  invoices,
  organizations,
  preauthorizedTransactions,
  transactionExecutions,
} from '../../../db/schema.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceWithOrg = InvoiceRow & { organizationName: string };
export type TransactionRow = typeof preauthorizedTransactions.$inferSelect;
export type ExecutionRow = typeof transactionExecutions.$inferSelect;
export type ExecutionWithInvoice = ExecutionRow & { invoiceStatus: InvoiceStatus | null };

export async function insertInvoice(db: Db, values: typeof invoices.$inferInsert): Promise<InvoiceRow> {
  const [row] = await db.insert(invoices).values(values).returning();
  if (!row) throw new Error('invoice insert returned nothing');
  return row;
}

const invoiceColumns = {
  id: invoices.id,
  number: invoices.number,
  organizationId: invoices.organizationId,
  description: invoices.description,
  amountMinor: invoices.amountMinor,
  currency: invoices.currency,
  status: invoices.status,
  provider: invoices.provider,
  reference: invoices.reference,
  createdAt: invoices.createdAt,
  paidAt: invoices.paidAt,
  paidBy: invoices.paidBy,
  organizationName: organizations.name,
};

/** A page of invoices of the given organizations, newest first. */
export async function pageOfInvoices(
  db: Db,
  organizationIds: string[],
  filter: { status?: InvoiceStatus | undefined },
  window: PageWindow,
): Promise<{ items: InvoiceWithOrg[]; total: number }> {
  if (organizationIds.length === 0) return { items: [], total: 0 };
  const conditions: SQL[] = [inArray(invoices.organizationId, organizationIds)];
  if (filter.status) conditions.push(eq(invoices.status, filter.status));
  const where = and(...conditions);
  const items = await db
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(organizations, eq(organizations.id, invoices.organizationId))
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.number))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db.select({ value: count() }).from(invoices).where(where);
  return { items, total: total?.value ?? 0 };
}

export async function findInvoice(db: Db, id: string): Promise<InvoiceWithOrg | undefined> {
  const [row] = await db
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(organizations, eq(organizations.id, invoices.organizationId))
    .where(eq(invoices.id, id));
  return row;
}

/** Marks an OPEN invoice paid; undefined when it was not OPEN any more. */
export async function markInvoicePaid(db: Db, id: string, paidAt: Date, paidBy: string) {
  const [row] = await db
    .update(invoices)
    .set({ status: 'PAID', paidAt, paidBy })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'OPEN')))
    .returning();
  return row;
}

export async function voidInvoice(db: Db, id: string): Promise<void> {
  await db
    .update(invoices)
    .set({ status: 'VOID' })
    .where(and(eq(invoices.id, id), inArray(invoices.status, ['OPEN', 'FAILED'])));
}

/** The organizations below the given one, at any depth (ids), walking parent links. */
export async function descendantIds(db: Db, organizationId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive tree(id) as (
      select id from organizations where parent_id = ${organizationId}
      union
      select o.id from organizations o join tree t on o.parent_id = t.id
    )
    select id from tree`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/** The ancestors of an organization (ids, nearest first), not the organization itself. */
export async function ancestorIds(db: Db, organizationId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from organizations where id = ${organizationId}
      union
      select o.id, o.parent_id, c.depth + 1 from organizations o join chain c on o.id = c.parent_id
      where c.depth < 64
    )
    select id, depth from chain where depth > 0 order by depth`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

// ---- transactions ----

export async function insertTransaction(
  db: Db,
  values: typeof preauthorizedTransactions.$inferInsert,
): Promise<TransactionRow> {
  const [row] = await db.insert(preauthorizedTransactions).values(values).returning();
  if (!row) throw new Error('transaction insert returned nothing');
  return row;
}

const executionCount = sql<number>`(select count(*)::int from ${transactionExecutions} where ${transactionExecutions.transactionId} = ${preauthorizedTransactions.id})`;

export type TransactionWithCount = TransactionRow & { executions: number };

export async function pageOfTransactions(
  db: Db,
  organizationId: string,
  filter: { status?: string | undefined },
  window: PageWindow,
): Promise<{ items: TransactionWithCount[]; total: number }> {
  const conditions: SQL[] = [eq(preauthorizedTransactions.organizationId, organizationId)];
  if (filter.status) conditions.push(eq(preauthorizedTransactions.status, filter.status));
  const where = and(...conditions);
  const rows = await db
    .select({ row: preauthorizedTransactions, executions: executionCount })
    .from(preauthorizedTransactions)
    .where(where)
    .orderBy(desc(preauthorizedTransactions.createdAt), desc(preauthorizedTransactions.id))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db.select({ value: count() }).from(preauthorizedTransactions).where(where);
  return {
    items: rows.map(({ row, executions }) => ({ ...row, executions: Number(executions) })),
    total: total?.value ?? 0,
  };
}

/** A transaction of the organization (with how many executions it has). */
export async function findTransaction(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TransactionWithCount | undefined> {
  const [found] = await db
    .select({ row: preauthorizedTransactions, executions: executionCount })
    .from(preauthorizedTransactions)
    .where(
      and(eq(preauthorizedTransactions.id, id), eq(preauthorizedTransactions.organizationId, organizationId)),
    );
  return found && { ...found.row, executions: Number(found.executions) };
}

/** The transaction row, locked for the rest of the database transaction (executions are numbered under it). */
export async function lockTransaction(db: Db, id: string): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(preauthorizedTransactions)
    .where(eq(preauthorizedTransactions.id, id))
    .for('update');
  return row;
}

export async function setTransactionStatus(
  db: Db,
  id: string,
  status: string,
  extra: { revokedAt?: Date } = {},
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(preauthorizedTransactions)
    .set({ status, ...extra })
    .where(eq(preauthorizedTransactions.id, id))
    .returning();
  return row;
}

export async function executionsOf(db: Db, transactionId: string): Promise<ExecutionWithInvoice[]> {
  const rows = await db
    .select({ row: transactionExecutions, invoiceStatus: invoices.status })
    .from(transactionExecutions)
    .leftJoin(invoices, eq(invoices.id, transactionExecutions.invoiceId))
    .where(eq(transactionExecutions.transactionId, transactionId))
    .orderBy(transactionExecutions.n);
  return rows.map(({ row, invoiceStatus }) => ({ ...row, invoiceStatus }));
}

export async function findExecution(
  db: Db,
  transactionId: string,
  n: number,
): Promise<ExecutionWithInvoice | undefined> {
  const [found] = await db
    .select({ row: transactionExecutions, invoiceStatus: invoices.status })
    .from(transactionExecutions)
    .leftJoin(invoices, eq(invoices.id, transactionExecutions.invoiceId))
    .where(and(eq(transactionExecutions.transactionId, transactionId), eq(transactionExecutions.n, n)));
  return found && { ...found.row, invoiceStatus: found.invoiceStatus };
}

export async function countExecutions(db: Db, transactionId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(transactionExecutions)
    .where(eq(transactionExecutions.transactionId, transactionId));
  return row?.value ?? 0;
}

export async function insertExecution(
  db: Db,
  values: typeof transactionExecutions.$inferInsert,
): Promise<ExecutionRow> {
  const [row] = await db.insert(transactionExecutions).values(values).returning();
  if (!row) throw new Error('execution insert returned nothing');
  return row;
}

export async function updateExecution(
  db: Db,
  transactionId: string,
  n: number,
  changes: Partial<Pick<ExecutionRow, 'invoiceId' | 'status' | 'error'>>,
  now: Date,
): Promise<void> {
  await db
    .update(transactionExecutions)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(transactionExecutions.transactionId, transactionId), eq(transactionExecutions.n, n)));
}

/** The execution an invoice pays becomes PAID (no-op when the invoice pays something else). */
export async function markExecutionOfInvoicePaid(db: Db, invoiceId: string, now: Date) {
  const [row] = await db
    .update(transactionExecutions)
    .set({ status: 'PAID', error: null, updatedAt: now })
    .where(eq(transactionExecutions.invoiceId, invoiceId))
    .returning();
  return row;
}

export async function findOrganizationFlags(db: Db, id: string) {
  const [row] = await db
    .select({ id: organizations.id, inAppPurchases: organizations.inAppPurchases })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}
