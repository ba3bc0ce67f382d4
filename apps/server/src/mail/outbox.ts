import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { mailOutbox } from '../db/schema.ts';
import type { MailMessage } from './transport.ts';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export async function recordMail(
  db: Db,
  message: MailMessage,
  outcome: { sentAt: Date | null; attempts: number; lastError?: string },
): Promise<void> {
  await db.insert(mailOutbox).values({
    realm: message.realm ?? null,
    recipient: message.to.toLowerCase(),
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    attempts: outcome.attempts,
    sentAt: outcome.sentAt,
    lastError: outcome.lastError ?? null,
  });
}

/** The newest mails to one address, newest first. */
export async function recentMail(db: Db, recipient: string, limit = 20): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient.trim().toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}
