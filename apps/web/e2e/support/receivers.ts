import { SMTPServer } from 'smtp-server';
import { e2eSmtpPort } from './environment.ts';

export type Mail = { to: string[]; data: string };

/**
 * A real SMTP server on the port the browser tests' server sends notification e-mail to. The server sends to that one
 * port, so tests that read e-mail take turns: this waits while another test's receiver holds it.
 */
export async function startSmtp() {
  const received: Mail[] = [];
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
        received.push({ to: session.envelope.rcptTo.map((address) => address.address), data });
        callback();
      });
    },
  });
  await listenWhenFree(smtp);
  return { received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

const SMTP_WAIT_MS = 60_000;

async function listenWhenFree(smtp: SMTPServer): Promise<void> {
  const deadline = Date.now() + SMTP_WAIT_MS;
  for (;;) {
    const failure = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const listening = () => {
        smtp.off('error', failed);
        resolve(null);
      };
      const failed = (error: NodeJS.ErrnoException) => {
        smtp.server.off('listening', listening);
        resolve(error);
      };
      smtp.once('error', failed);
      smtp.server.once('listening', listening);
      smtp.listen(e2eSmtpPort(), '127.0.0.1');
    });
    if (failure === null) return;
    if (failure.code !== 'EADDRINUSE' || Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
