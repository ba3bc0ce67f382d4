import type { Db } from '../../db/index.ts';
import { auditLog } from '../../db/schema.ts';

export type NewAuditRecord = typeof auditLog.$inferInsert;

export async function insertAuditRecord(db: Db, record: NewAuditRecord): Promise<void> {
  await db.insert(auditLog).values(record);
}
