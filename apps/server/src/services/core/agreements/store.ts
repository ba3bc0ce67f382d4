import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { agreementAcceptances, agreements } from '../../../db/schema.ts';

export type AgreementRow = typeof agreements.$inferSelect;

/** The newest published version of each agreement type of a service. */
export async function latestAgreements(db: Db, realm: string, serviceName: string): Promise<AgreementRow[]> {
  const rows = await db
    .select()
    .from(agreements)
    .where(and(eq(agreements.realm, realm), eq(agreements.serviceName, serviceName)))
    .orderBy(desc(agreements.publishedAt));
  const newest = new Map<string, AgreementRow>();
  for (const row of rows) if (!newest.has(row.type)) newest.set(row.type, row);
  return [...newest.values()];
}

export async function acceptedAgreementIds(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: agreementAcceptances.agreementId })
    .from(agreementAcceptances)
    .where(and(eq(agreementAcceptances.userId, userId), inArray(agreementAcceptances.agreementId, ids)));
  return new Set(rows.map((row) => row.id));
}

export async function existingAgreementIds(db: Db, realm: string, ids: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: agreements.id })
    .from(agreements)
    .where(and(eq(agreements.realm, realm), inArray(agreements.id, ids)));
  return new Set(rows.map((row) => row.id));
}

export async function recordAcceptance(db: Db, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insert(agreementAcceptances)
    .values(ids.map((agreementId) => ({ userId, agreementId })))
    .onConflictDoNothing();
}

export async function publishAgreement(db: Db, input: Omit<typeof agreements.$inferInsert, 'id'>) {
  const [row] = await db.insert(agreements).values(input).returning();
  if (!row) throw new Error('agreement insert returned nothing');
  return row;
}
