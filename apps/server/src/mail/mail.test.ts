import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../test/support/calls.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { recentMail } from './outbox.ts';
import { invitationMail, MAIL_LANGUAGES, mailLanguage, passwordChangeMail } from './templates.ts';
import { smtpTransport } from './transport.ts';

/** The message bodies nodemailer sends as quoted-printable, readable again. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}

type Received = { from: string; to: string[]; data: string };

/** A real SMTP server on a free port that keeps what it receives. */
async function startSmtp() {
  const received: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        data += chunk;
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((address) => address.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { smtp, port, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

describe('SMTP delivery (SMTP_URL)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  let rpt: string;
  let orgId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    const tenants = await seedTenants(server);
    orgId = tenants.orgA.id;
    rpt = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('delivers the invitation to a real SMTP server and records it as sent', async () => {
    expect(server.app.mail.kind).toBe('smtp');
    const response = await caller(server)('POST', `/svc/core/api/v1/organizations/${orgId}/users`, rpt, {
      email: 'smtp.person@example.test',
      firstName: 'Sam',
      locale: 'fr-FR',
    });
    expect(response.statusCode).toBe(201);
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.to).toEqual(['smtp.person@example.test']);
    expect(message?.from).toBe('no-reply@localhost');
    expect(message?.data).toContain('Subject: =?UTF-8?Q?Invitation_=C3=A0_Org_A_sur_Edgeport?=');
    const body = decodeQuotedPrintable(message?.data ?? '');
    expect(body).toContain('Vous avez été invité');
    expect(body).toMatch(
      /http:\/\/acme\.app\.localhost:8080\/auth\/realms\/acme\/login-actions\/action-token\?key=\S{20,}/,
    );
    const [row] = await recentMail(server.database.db, 'smtp.person@example.test');
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBeNull();
  });

  it('records a failed delivery with its error in the outbox, without failing the sender', async () => {
    const closed = await startSmtp();
    await closed.close();
    const transport = smtpTransport(server.database.db, `smtp://127.0.0.1:${closed.port}`, {
      from: 'no-reply@localhost',
    });
    await expect(
      transport.send({ realm: 'acme', to: 'Unlucky@example.test', subject: 'Hi', text: 'text' }),
    ).resolves.toBeUndefined();
    const [row] = await recentMail(server.database.db, 'unlucky@example.test');
    expect(row?.sentAt).toBeNull();
    expect(row?.lastError).toMatch(/ECONNREFUSED/);
  });
});

describe('mail texts', () => {
  const recipient = { email: 'a@example.test', firstName: 'Ada', lastName: 'Lovelace', locale: null };

  it('speaks the five languages and falls back to English', () => {
    expect(mailLanguage('de-DE')).toBe('de');
    expect(mailLanguage('it')).toBe('it');
    expect(mailLanguage('ja-JP')).toBe('en');
    expect(mailLanguage(null)).toBe('en');
    const subjects = MAIL_LANGUAGES.map(
      (language) =>
        invitationMail({
          recipient: { ...recipient, locale: language },
          organizationName: 'Plant',
          brandName: 'Brand',
          link: 'https://x.test/l?key=1',
          validHours: 72,
        }).subject,
    );
    expect(new Set(subjects).size).toBe(5);
    for (const subject of subjects) expect(subject).toContain('Plant');
  });

  it('escapes names in the HTML part and carries the link in both parts', () => {
    const mail = passwordChangeMail({
      recipient: { ...recipient, firstName: '<script>x</script>' },
      brandName: 'Brand & Co',
      link: 'https://x.test/l?key=1&a=2',
      validHours: 72,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;');
    expect(mail.text).toContain('https://x.test/l?key=1&a=2');
    expect(mail.html).toContain('https://x.test/l?key=1&#38;a=2');
    expect(mail.text).toContain('72');
  });
});
