import { and, desc, eq, gte, isNull, or } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { statusIssues } from '../../../db/schema.ts';

export type StatusIssueRow = typeof statusIssues.$inferSelect;
type IssueFields = Pick<StatusIssueRow, 'type' | 'status' | 'title' | 'date'>;

/** Issues of the realm and of every realm, updated since the given time. */
export function recentIssues(db: Db, realm: string | undefined, since: Date, limit: number) {
  const scope = realm
    ? or(isNull(statusIssues.realm), eq(statusIssues.realm, realm))
    : isNull(statusIssues.realm);
  return db
    .select()
    .from(statusIssues)
    .where(and(scope, gte(statusIssues.updatedAt, since)))
    .orderBy(desc(statusIssues.date))
    .limit(limit);
}

export async function insertIssue(db: Db, realm: string | null, fields: IssueFields) {
  const [row] = await db
    .insert(statusIssues)
    .values({ realm, ...fields })
    .returning();
  if (!row) throw new Error('status issue insert returned nothing');
  return row;
}

export async function updateIssue(db: Db, realm: string, id: string, fields: IssueFields) {
  const [row] = await db
    .update(statusIssues)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(statusIssues.id, id), eq(statusIssues.realm, realm)))
    .returning();
  return row;
}

export async function deleteIssue(db: Db, realm: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(statusIssues)
    .where(and(eq(statusIssues.id, id), eq(statusIssues.realm, realm)))
    .returning({ id: statusIssues.id });
  return deleted.length > 0;
}
