import { importJWK, type JWK, SignJWT } from 'jose';
import { UMA_GRANT_TYPE } from '../../src/identity/rpt.ts';
import { PASSWORD } from './fixtures.ts';
import { decodePayload, passwordLogin, TestBrowser } from './oidc-client.ts';
import type { TestServer } from './server.ts';

/** Logs in and exchanges the access token for an RPT of the organization (by resourceId). */
export async function rptFor(server: TestServer, realm: string, email: string, resourceId: string) {
  const browser = new TestBrowser(server.app, realm);
  const tokens = await passwordLogin(browser, realm, email, PASSWORD);
  const response = await browser.request(
    'POST',
    `/auth/realms/${realm}/protocol/openid-connect/token`,
    { grant_type: UMA_GRANT_TYPE, audience: 'platform', permission: resourceId },
    { authorization: `Bearer ${tokens.access_token}` },
  );
  if (response.statusCode !== 200) throw new Error(`RPT refused: ${response.body}`);
  return { browser, accessToken: tokens.access_token, rpt: response.json().access_token as string };
}

/** Signs arbitrary claims with a realm's key, to build expired or otherwise crafted tokens. */
export async function signWith(key: JWK, claims: Record<string, unknown>, expiresAt: number) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuedAt(expiresAt - 300)
    .setExpirationTime(expiresAt)
    .sign(await importJWK(key, 'RS256'));
}

export { decodePayload };
