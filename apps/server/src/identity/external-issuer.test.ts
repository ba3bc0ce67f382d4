import { once } from 'node:events';
import http from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { signWith } from '../../test/support/tokens.ts';
import { realms } from '../db/schema.ts';
import { addDefaultRoles, createOrganization } from '../services/core/organizations/provisioning.ts';

/** A stand-in for a real Keycloak: only its JWKS endpoint is needed to verify tokens. */
let keycloak: http.Server;
let issuerBase: string;
let key: JWK;
let server: TestServer;
let orgId: string;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  key = { ...(await exportJWK(privateKey)), kid: 'kc-1', alg: 'RS256' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'kc-1', alg: 'RS256', use: 'sig' };
  keycloak = http.createServer((request, response) => {
    if (request.url === '/realms/plant/protocol/openid-connect/certs') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  keycloak.listen(0, '127.0.0.1');
  await once(keycloak, 'listening');
  issuerBase = `http://127.0.0.1:${(keycloak.address() as { port: number }).port}/realms`;
  server = await startTestServer({ oidcIssuerUrl: `${issuerBase}/{realm}` });
  await server.database.db.insert(realms).values({ name: 'plant', displayName: 'Plant' });
  const org = await createOrganization(server.database.db, {
    realm: 'plant',
    name: 'Plant',
    resourceId: 'plant',
  });
  await addDefaultRoles(server.database.db, org.id);
  orgId = org.id;
});
afterAll(async () => {
  await server.close();
  keycloak.close();
});

function rptClaims(issuer: string) {
  return {
    iss: issuer,
    typ: 'Bearer',
    sub: '6b0c7c1e-3c55-4d0e-9a53-6f1d2c1a0b9e',
    scope: `org:${orgId} app:*`,
    authorization: { permissions: [{ rsname: 'organizations', scopes: ['READ'] }] },
  };
}

describe('an external Keycloak (OIDC_ISSUER_URL)', () => {
  it('does not mount the built-in identity server', async () => {
    const response = await server.app.inject('/auth/realms/plant/.well-known/openid-configuration');
    expect(response.statusCode).toBe(404);
  });

  it("accepts tokens signed with that Keycloak's keys and applies their permissions", async () => {
    const token = await signWith(key, rptClaims(`${issuerBase}/plant`), Math.floor(Date.now() / 1000) + 60);
    const response = await server.app.inject({
      url: `/svc/core/api/v1/organizations/${orgId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().resourceId).toBe('plant');
  });

  it("refuses that Keycloak's ID and refresh tokens, and tokens without a type", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const { typ: _, ...untyped } = rptClaims(`${issuerBase}/plant`);
    for (const claims of [
      { ...untyped, typ: 'ID', aud: 'web-portal' },
      { ...untyped, typ: 'Refresh' },
      untyped,
    ]) {
      const response = await server.app.inject({
        url: `/svc/core/api/v1/organizations/${orgId}`,
        headers: { authorization: `Bearer ${await signWith(key, claims, expiresAt)}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('token is not an access token');
    }
  });

  it('refuses tokens of another issuer or realm', async () => {
    const otherIssuer = await signWith(
      key,
      rptClaims('https://evil.example.com/realms/plant'),
      Math.floor(Date.now() / 1000) + 60,
    );
    const otherRealm = await signWith(
      key,
      rptClaims(`${issuerBase}/elsewhere`),
      Math.floor(Date.now() / 1000) + 60,
    );
    for (const token of [otherIssuer, otherRealm]) {
      const response = await server.app.inject({
        url: `/svc/core/api/v1/organizations/${orgId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
    }
  });
});
