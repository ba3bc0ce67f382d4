import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { companionVersion } from './service.ts';

let server: TestServer;
let call: ReturnType<typeof caller>;
let rptA: string;

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server);
  call = caller(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('companion app and regions', () => {
  it('describes the companion CLI with its download and command line', async () => {
    const answer = await call('GET', '/svc/vpn2/api/v1/companionApp/info', rptA);
    expect(answer.statusCode).toBe(200);
    const info = answer.json();
    expect(info.name).toBe('Edgeport companion');
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.version).toBe(companionVersion());
    expect(info.downloadUrl).toBe('http://localhost:8080/downloads/edgeport.mjs');
    expect(info.platforms.map((platform: { os: string }) => platform.os)).toEqual(['Linux', 'Mac', 'Win']);
    expect(info.platforms[0].command).toBe(
      'node edgeport.mjs connect --server http://localhost:8080 --token <token> --local-port <port>',
    );
    expect((await call('GET', '/svc/vpn2/api/v1/companionApp/info')).statusCode).toBe(401);
  });

  it('lists the one default region', async () => {
    const answer = await call('GET', '/svc/vpn2/api/v1/regions', rptA);
    expect(answer.json()).toEqual({
      items: [{ id: 'default', name: 'Default', url: 'http://localhost:8080', default: true }],
    });
    expect((await call('GET', '/svc/vpn2/api/v1/regions')).statusCode).toBe(401);
  });

  it('reads the version from a package file, or 0.0.0', () => {
    expect(companionVersion('/nonexistent/package.json')).toBe('0.0.0');
  });
});
