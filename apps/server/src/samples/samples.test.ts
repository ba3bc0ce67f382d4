import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { registerSampleApp, SAMPLE_APP_ID } from './routes.ts';

let server: TestServer;
let webDist: string;

function directive(policy: unknown, name: string): string | undefined {
  return String(policy)
    .split(';')
    .find((part) => part.startsWith(`${name} `));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'edgeport-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Edgeport</title>');
  server = await startTestServer({ samples: true, webDist });
  await registerSampleApp(server.database.db, server.config);
});
afterAll(async () => {
  await server.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('bridge samples (EDGEPORT_SAMPLES)', () => {
  it('serves each sample page with its bundled script (the SDK inside)', async () => {
    for (const sample of ['bridge-app', 'bridge-host', 'bridge-probe']) {
      const page = await server.app.inject({
        url: `/samples/${sample}/`,
        headers: { host: 'apps.localhost:8080' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<script type="module" src="main.js"></script>');
      const script = await server.app.inject(`/samples/${sample}/main.js`);
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.body).toContain('edgeport-bridge');
      expect(script.body).not.toMatch(/^import .* from '@edgeport\/bridge'/m);
      expect((await server.app.inject(`/samples/${sample}/style.css`)).statusCode).toBe(200);
    }
  });

  it('lets the product hosts frame the samples, and nobody else', async () => {
    const page = await server.app.inject('/samples/bridge-app/');
    const policy = page.headers['content-security-policy'];
    expect(directive(policy, 'frame-ancestors')).toBe(
      "frame-ancestors 'self' http://localhost:8080 http://*.localhost:8080",
    );
    expect(directive(policy, 'frame-src')).toBe(
      "frame-src 'self' http://localhost:8080 http://*.localhost:8080",
    );
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('redirects to the folder (keeping the query) and answers 404 for anything else', async () => {
    const redirect = await server.app.inject('/samples/bridge-host?mode=silent');
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/samples/bridge-host/?mode=silent');
    for (const url of [
      '/samples/nope/',
      '/samples/bridge-app/main.ts',
      '/samples/bridge-app/..%2F..%2Fpackage.json',
      '/samples/bridge-app/../tsconfig.json',
      '/samples/bridge-app/missing.html',
      '/samples/nope',
    ])
      expect((await server.app.inject(url)).statusCode, url).toBe(404);
    expect((await server.app.inject('/samples/')).body).toContain(
      'http://apps.localhost:8080/samples/bridge-app/',
    );
  });

  it('registers the sample app in the store catalogue and lets the sample host frame the portal', async () => {
    const portal = await server.app.inject('/');
    const policy = portal.headers['content-security-policy'];
    expect(directive(policy, 'frame-src')).toBe("frame-src 'self' https: http://apps.localhost:8080");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'self' http://host.localhost:8080");
    const apps = await server.database.db.query.apps.findMany();
    expect(apps.map((app) => [app.id, app.entryUrl]).sort()).toEqual([
      [SAMPLE_APP_ID, 'http://apps.localhost:8080/samples/bridge-app/'],
      ['energy-cost', 'http://apps.localhost:8080/store-apps/energy-cost/'],
      ['shift-report', 'http://apps.localhost:8080/store-apps/shift-report/'],
    ]);
  });
});
