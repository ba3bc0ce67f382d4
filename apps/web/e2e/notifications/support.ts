import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Page, Request } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { e2eMqttPort, e2eSmtpPort } from '../support/environment.ts';

const run = promisify(execFile);

/** Debian's mosquitto_pub publishing a reading as an activated device. */
export function publish(device: { id: string; password?: string }, values: Record<string, unknown>) {
  return run('mosquitto_pub', [
    ...['-h', '127.0.0.1', '-p', String(e2eMqttPort()), '-q', '1', '-V', 'mqttv311'],
    ...['-i', device.id, '-u', device.id, '-P', device.password ?? ''],
    ...['-t', `devices/${device.id}/data`, '-m', JSON.stringify({ values })],
  ]);
}

export type Mail = { to: string[]; data: string };

/** A real SMTP server on the port the browser tests' server sends notification e-mail to. */
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
  await new Promise<void>((resolve) => smtp.listen(e2eSmtpPort(), '127.0.0.1', resolve));
  return { received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

export type Hook = { path: string; headers: Record<string, string | string[] | undefined>; body: string };

/** A free local port (taken and given back at once): the address of a webhook receiver that is not up yet. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A local HTTP receiver for webhooks on `port`: answers 204 and keeps every request. */
export async function startReceiver(port = 0) {
  const received: Hook[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    port: bound,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The permission token of the entered organization, as the portal sends it to a service of `prefix` (a call inside
 * the organization, e.g. `/svc/audit/`; the organization selector's calls carry the plain access token).
 */
export function bearerFrom(page: Page, prefix: string): Promise<string> {
  return page
    .waitForRequest((request: Request) => {
      const header = request.headers().authorization;
      return request.url().includes(prefix) && typeof header === 'string' && header.startsWith('Bearer ');
    })
    .then((request) => request.headers().authorization?.slice('Bearer '.length) ?? '');
}

/** The clock time `hours` from now in UTC, as HH:00 (quiet hours that do not cover the test). */
export function utcHourFromNow(hours: number): string {
  return `${String((new Date().getUTCHours() + hours) % 24).padStart(2, '0')}:00`;
}
