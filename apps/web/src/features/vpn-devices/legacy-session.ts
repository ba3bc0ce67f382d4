import { createLegacyVpnClient } from '@edgeport/api-client';
import { DEFAULT_TIMEOUT_MS, timedFetch } from '../../shared/http/timed-fetch.ts';
import { LegacyKeepAlive } from './keep-alive.ts';

/** The legacy remote-access login (spec 7, `/svc/vpn`): a cookie session, public calls without a bearer token. */
const legacyClient = createLegacyVpnClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });

/** Spec 7: the original and the new login path; both are posted to. */
const LOGIN_PATHS = ['/svc/vpn/login', '/svc/vpn/api/login'] as const;

function formOf(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/**
 * Spec 7: the form login with username `{email}/{org resourceId}`, the user's current access token as password and
 * ajax=true. 200 (or a 302) counts as signed in; a refusal is not an error of the screen.
 */
export async function legacyLogin(username: string, accessToken: string): Promise<void> {
  for (const path of LOGIN_PATHS) {
    await legacyClient.POST(path, {
      body: { username, password: accessToken, ajax: 'true' },
      bodySerializer: formOf,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
}

export async function legacyPing(): Promise<void> {
  await legacyClient.GET('/svc/vpn/ping');
}

/** Spec 7: the logout is a POST; it ends the cookie session (if any). */
export async function legacyLogout(): Promise<void> {
  await legacyClient.POST('/svc/vpn/logout');
}

let shared: LegacyKeepAlive | undefined;

/** The one keep-alive of the page; `accessToken` gives the login token current at the time of signing in. */
export function legacyKeepAlive(accessToken: () => Promise<string>): LegacyKeepAlive {
  shared ??= new LegacyKeepAlive({
    login: async (identity) => legacyLogin(identity, await accessToken()),
    ping: legacyPing,
  });
  return shared;
}
