import nodemailer from 'nodemailer';
import type { Db } from '../../db/index.ts';
import { recordMail } from '../../mail/outbox.ts';

export type OutgoingEmail = { realm: string; from: string; to: string; subject: string; text: string };

/** Sends one notification e-mail; throws when it was not accepted, so that the delivery is retried. */
export type EmailSender = (message: OutgoingEmail) => Promise<void>;

/**
 * Notification e-mail: through the SMTP server of `SMTP_URL` when set (a copy is kept in the outbox once it was
 * accepted), else into the outbox only, which counts as sent. Unlike the account mail transport, a refused or failed
 * SMTP delivery throws.
 */
export function emailSender(db: Db, smtpUrl: string | undefined): { send: EmailSender; close(): void } {
  if (!smtpUrl) {
    return {
      send: async (message) => {
        await recordMail(db, message, { sentAt: new Date(), attempts: 1 });
      },
      close: () => {},
    };
  }
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    send: async (message) => {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      await recordMail(db, message, { sentAt: new Date(), attempts: 1 });
    },
    close: () => transporter.close(),
  };
}
