import { createLegacyVpnClient } from '@edgeport/api-client';
import { hasStatus } from '../../shared/http/errors.ts';
import { DEFAULT_TIMEOUT_MS, timedFetch } from '../../shared/http/timed-fetch.ts';
import { LegacyKeepAlive } from './keep-alive.ts';

/** The legacy remote-access login (spec 7, `/svc/vpn`): a cookie session, public calls without a bearer token. */
const legacyClient = createLegacyVpnClient({ fetch: timedFetch(DEFAULT_TIMEOUT_MS) });

/** Spec 7: the original and the new login path; both are posted to. */
const LOGIN_PATHS = ['/svc/vpn/login', '/svc/vpn/api/login'] as const;

function formOf(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** One login path: whether it signed in (spec 7: status 200 or 302). */
async function postLogin(
  path: (typeof LOGIN_PATHS)[number],
  username: string,
  accessToken: string,
): Promise<boolean> {
  try {
    const { response } = await legacyClient.POST(path, {
      body: { username, password: accessToken, ajax: 'true' },
      bodySerializer: formOf,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    return response.status === 200;
  } catch (error) {
    // A redirect the fetch did not follow is a sign-in too; any other failure of one path is ignored (spec 7).
    return hasStatus(error, 302);
  }
}

/**
 * Spec 7: the form login with username `{email}/{org resourceId}`, the user's current access token as password and
 * ajax=true, posted to the original and to the new login path whatever the other answered. Whether either signed in;
 * a refusal is not an error of the screen.
 */
export async function legacyLogin(username: string, accessToken: string): Promise<boolean> {
  let any = false;
  for (const path of LOGIN_PATHS) {
    if (await postLogin(path, username, accessToken)) any = true;
  }
  return any;
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
