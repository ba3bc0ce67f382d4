import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import {
  apps,
  invoices,
  organizationApps,
  preauthorizedTransactions,
  transactionExecutions,
} from '../../../db/schema.ts';

export type InstallationRow = typeof organizationApps.$inferSelect;
export type AppRow = typeof apps.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type Installation = { installation: InstallationRow; app: AppRow };

/** The purpose (and invoice reference) of the transactions paying for an installation. */
export const purposeOf = (installationId: string) => `app:${installationId}`;

export async function listInstallations(db: Db, organizationId: string): Promise<Installation[]> {
  return db
    .select({ installation: organizationApps, app: apps })
    .from(organizationApps)
    .innerJoin(apps, eq(apps.id, organizationApps.appId))
    .where(eq(organizationApps.organizationId, organizationId))
    .orderBy(asc(apps.name), asc(apps.id));
}

export async function findInstallation(
  db: Db,
  organizationId: string,
  appId: string,
): Promise<Installation | undefined> {
  const [row] = await db
    .select({ installation: organizationApps, app: apps })
    .from(organizationApps)
    .innerJoin(apps, eq(apps.id, organizationApps.appId))
    .where(and(eq(organizationApps.organizationId, organizationId), eq(organizationApps.appId, appId)));
  return row;
}

export async function insertInstallation(
  db: Db,
  values: typeof organizationApps.$inferInsert,
): Promise<InstallationRow> {
  const [row] = await db.insert(organizationApps).values(values).returning();
  if (!row) throw new Error('the installation was not stored');
  return row;
}

export async function updateInstallation(
  db: Db,
  id: string,
  set: Partial<Pick<InstallationRow, 'plan' | 'version' | 'status' | 'transactionId' | 'nextBillingAt'>>,
  now: Date,
): Promise<void> {
  await db
    .update(organizationApps)
    .set({ ...set, updatedAt: now })
    .where(eq(organizationApps.id, id));
}

export async function deleteInstallation(db: Db, id: string): Promise<void> {
  await db.delete(organizationApps).where(eq(organizationApps.id, id));
}

/** The invoice of the latest execution of each transaction (by execution order). */
export async function lastInvoices(db: Db, transactionIds: string[]): Promise<Map<string, InvoiceRow>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .select({ transactionId: transactionExecutions.transactionId, invoice: invoices })
    .from(transactionExecutions)
    .innerJoin(invoices, eq(invoices.id, transactionExecutions.invoiceId))
    .where(inArray(transactionExecutions.transactionId, transactionIds))
    .orderBy(desc(transactionExecutions.n));
  const last = new Map<string, InvoiceRow>();
  for (const row of rows) if (!last.has(row.transactionId)) last.set(row.transactionId, row.invoice);
  return last;
}

/** Every OPEN invoice charged for an installation (through any of its transactions), oldest first. */
export async function openInvoices(
  db: Db,
  organizationId: string,
  installationId: string,
): Promise<InvoiceRow[]> {
  const rows = await db
    .select({ invoice: invoices })
    .from(preauthorizedTransactions)
    .innerJoin(transactionExecutions, eq(transactionExecutions.transactionId, preauthorizedTransactions.id))
    .innerJoin(invoices, eq(invoices.id, transactionExecutions.invoiceId))
    .where(
      and(
        eq(preauthorizedTransactions.organizationId, organizationId),
        eq(preauthorizedTransactions.purpose, purposeOf(installationId)),
        eq(invoices.organizationId, organizationId),
        eq(invoices.status, 'OPEN'),
      ),
    )
    .orderBy(asc(invoices.number));
  return rows.map((row) => row.invoice);
}

/** Voids invoices of the organization that are still OPEN (a forced delete); answers the voided ids. */
export async function voidInvoices(
  db: Db,
  organizationId: string,
  ids: string[],
  now: Date,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(invoices)
    .set({ status: 'VOID' })
    .where(
      and(
        eq(invoices.organizationId, organizationId),
        inArray(invoices.id, ids),
        eq(invoices.status, 'OPEN'),
      ),
    )
    .returning({ id: invoices.id });
  await db
    .update(transactionExecutions)
    .set({ status: 'FAILED', error: 'invoice voided', updatedAt: now })
    .where(and(inArray(transactionExecutions.invoiceId, ids), eq(transactionExecutions.status, 'PENDING')));
  return rows.map((row) => row.id);
}

/** Revokes the installation's transactions that are still ACTIVE (but `keep`); answers their ids. */
export async function revokeTransactions(
  db: Db,
  organizationId: string,
  installationId: string,
  now: Date,
  keep?: string,
): Promise<string[]> {
  const rows = await db
    .update(preauthorizedTransactions)
    .set({ status: 'REVOKED', revokedAt: now })
    .where(
      and(
        eq(preauthorizedTransactions.organizationId, organizationId),
        eq(preauthorizedTransactions.purpose, purposeOf(installationId)),
        eq(preauthorizedTransactions.status, 'ACTIVE'),
        keep ? ne(preauthorizedTransactions.id, keep) : undefined,
      ),
    )
    .returning({ id: preauthorizedTransactions.id });
  return rows.map((row) => row.id);
}
