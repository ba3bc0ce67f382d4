import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Written by the global setup, read by the tests. */
export const LOGINS_FILE = path.join(REPO_ROOT, '.tmp', 'e2e-logins.json');
export const DEFAULT_E2E_PORT = 18080;

export function e2ePort(): number {
  const raw = process.env.E2E_PORT;
  if (raw === undefined || raw === '') return DEFAULT_E2E_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`E2E_PORT is not a port: ${raw}`);
  return port;
}

/** The embedded MQTT broker of the browser-test server: well away from the HTTP ports parallel runs use. */
export function e2eMqttPort(): number {
  return e2ePort() + 10_000;
}

/** The SMTP port the browser tests' server delivers notification e-mail to (a test starts a server there). */
export function e2eSmtpPort(): number {
  return e2ePort() + 20_000;
}

export type DemoLogin = { email: string; password: string; url: string };
export type E2eEnvironment = { port: number; logins: DemoLogin[] };

/** `http://{realm}.app.localhost:{port}`: Chromium resolves every *.localhost name to loopback. */
export function realmOrigin(realm: string): string {
  return `http://${realm}.app.localhost:${e2ePort()}`;
}

/** `http://localhost:{port}`: the server without any realm in the host name. */
export function bareOrigin(): string {
  return `http://localhost:${e2ePort()}`;
}

export function readEnvironment(): E2eEnvironment {
  let text: string;
  try {
    text = readFileSync(LOGINS_FILE, 'utf8');
  } catch {
    throw new Error(
      `${LOGINS_FILE} is missing: run the tests through playwright.config.ts (its global setup)`,
    );
  }
  return JSON.parse(text) as E2eEnvironment;
}

/** A demo account printed by the server at start (`Sign in at … as … with password …`). */
export function demoLogin(email: string): DemoLogin {
  const login = readEnvironment().logins.find((candidate) => candidate.email === email);
  if (!login) throw new Error(`the server printed no login for ${email}`);
  return login;
}
