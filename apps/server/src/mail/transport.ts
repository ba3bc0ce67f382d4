import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/index.ts';
import { recordMail } from './outbox.ts';

/** One e-mail to one recipient. `realm` only files it in the outbox. */
export type MailMessage = {
  realm?: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/** How the server sends mail (the architecture's `MailTransport`): the outbox table by default, SMTP when configured. */
export type MailTransport = {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
};

export type MailLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

const silent: MailLog = { info: () => {}, warn: () => {} };

/**
 * The embedded default: every message is kept in `mail_outbox` as sent, and a line is logged. Nothing leaves the
 * machine; an operator reads invitations there (or sets SMTP_URL).
 */
export function outboxTransport(db: Db, log: MailLog = silent): MailTransport {
  return {
    kind: 'outbox',
    async send(message) {
      await recordMail(db, message, { sentAt: new Date(), attempts: 1 });
      log.info({ to: message.to, subject: message.subject }, 'mail kept in the outbox (no SMTP_URL set)');
    },
  };
}

/**
 * Delivery through an SMTP server (`SMTP_URL`, for example `smtps://user:pass@mail.example.com:465` or
 * `smtp://127.0.0.1:2525`) with nodemailer. Each message is also recorded in `mail_outbox`, with the time it was
 * accepted or the error the server gave; a failed delivery is logged and does not fail the change that sent it.
 */
export function smtpTransport(db: Db, url: string, options: { from: string; log?: MailLog }): MailTransport {
  const log = options.log ?? silent;
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        await transporter.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        await recordMail(db, message, { sentAt: new Date(), attempts: 1 });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await recordMail(db, message, { sentAt: null, attempts: 1, lastError: reason.slice(0, 1000) });
        log.warn({ to: message.to, error: reason }, 'mail delivery over SMTP failed');
      }
    },
  };
}

/** The transport the configuration asks for. */
export function mailTransportFor(
  config: { smtpUrl: string | undefined; baseDomain: string },
  db: Db,
  log?: MailLog,
): MailTransport {
  if (!config.smtpUrl) return outboxTransport(db, log);
  return smtpTransport(db, config.smtpUrl, { from: `no-reply@${config.baseDomain}`, log });
}
