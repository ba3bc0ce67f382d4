import { expect, test } from '@playwright/test';
import { loginPage, submitLogin, TOKEN_PATH } from '../support/browser.ts';
import { demoLogin, realmOrigin } from '../support/environment.ts';

const DEMO = realmOrigin('demo');
const ADMIN = 'admin@demo.local';
const AUTHORIZATION_PATH = '/auth/realms/demo/protocol/openid-connect/auth';
const FORGED_NONCE = 'not-the-nonce-of-the-request';

type TokenResponse = { access_token: string; refresh_token: string; id_token: string };

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

/** The same JWT with another `nonce`; the signature no longer matches, which keycloak-js does not check. */
function withNonce(jwt: string, nonce: string): string {
  const [header, , signature] = jwt.split('.');
  const claims = { ...claimsOf(jwt), nonce };
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

test.describe("keycloak-js's nonce check (spec 5: the login client clears the token on an invalid nonce)", () => {
  test('an ID token whose nonce is not the request’s is dropped: the portal signs in again instead of using it', async ({
    page,
  }) => {
    /** What happened, in order: authorization requests (with their nonce) and code exchanges. */
    const events: string[] = [];
    const bearers = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === AUTHORIZATION_PATH) events.push(`auth ${url.searchParams.get('nonce')}`);
      const authorization = request.headers().authorization;
      if (authorization) bearers.add(authorization);
    });

    // The first code exchange answers the real tokens, but with an ID token naming another nonce.
    let forged: TokenResponse | undefined;
    let genuineNonce: unknown;
    await page.route(`${DEMO}/auth/realms/demo${TOKEN_PATH}`, async (route) => {
      const grant = new URLSearchParams(route.request().postData() ?? '').get('grant_type');
      if (grant !== 'authorization_code') return route.fallback();
      if (forged) {
        events.push('exchange');
        return route.fallback();
      }
      events.push('exchange (forged nonce)');
      // Node, which sends this fetch, does not resolve *.localhost as Chromium does: ask loopback for the same host.
      const url = new URL(route.request().url());
      const response = await route.fetch({
        url: `${url.protocol}//127.0.0.1:${url.port}${url.pathname}`,
        headers: { ...route.request().headers(), host: url.host },
      });
      const tokens = (await response.json()) as TokenResponse;
      genuineNonce = claimsOf(tokens.id_token).nonce;
      forged = { ...tokens, id_token: withNonce(tokens.id_token, FORGED_NONCE) };
      // The body is sent as it is now: drop the encoding and length of the server's (possibly compressed) one.
      const { 'content-encoding': _encoding, 'content-length': _length, ...headers } = response.headers();
      await route.fulfill({ status: response.status(), headers, json: forged });
    });

    await page.goto(`${DEMO}/`);
    await expect(page).toHaveURL(loginPage('demo'));
    await submitLogin(page, demoLogin(ADMIN));

    // keycloak-js drops the tokens and sends the browser to sign in again; the identity session is still there, so
    // the second round trip brings a code whose tokens are genuine, and only then is the portal signed in.
    await expect(page.getByTestId('organizations')).toBeVisible();
    const [firstAuthorization] = events;
    expect(firstAuthorization).toBe(`auth ${genuineNonce}`);
    const afterForged = events.slice(events.indexOf('exchange (forged nonce)') + 1);
    expect(events).toContain('exchange (forged nonce)');
    expect(afterForged[0]).toMatch(/^auth \S+$/);
    expect(afterForged[0]).not.toBe(firstAuthorization);
    expect(afterForged.filter((event) => event.startsWith('exchange'))).toEqual(['exchange']);
    expect(afterForged.at(-1)).toBe('exchange');

    // The tokens of the forged answer were never used.
    expect(forged?.access_token).toBeTruthy();
    expect([...bearers]).not.toContain(`Bearer ${forged?.access_token}`);
    expect(bearers.size).toBeGreaterThan(0);
  });
});
