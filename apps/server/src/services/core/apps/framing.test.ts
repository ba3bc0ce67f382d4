import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { portalFramingHook, withDirectives } from './framing.ts';
import { registerApp } from './service.ts';

let webDist: string;
let embedded: TestServer;

function directive(policy: unknown, name: string): string | undefined {
  return String(policy)
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'edgeport-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Edgeport</title>');
  embedded = await startTestServer({ webDist, embedHostOrigins: ['https://intranet.example.com'] });
  await registerApp(embedded.database.db, {
    id: 'weather',
    name: 'Weather',
    entryUrl: 'https://weather.example.com/app/',
  });
});
afterAll(async () => {
  await embedded.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('framing policy of the portal document', () => {
  it('frames the catalogue apps and is framed by the configured host pages only', async () => {
    const response = await embedded.app.inject('/');
    expect(response.statusCode).toBe(200);
    const policy = response.headers['content-security-policy'];
    // http://apps.localhost:8080: the sample store apps, registered when the server starts.
    expect(directive(policy, 'frame-src')).toBe(
      "frame-src 'self' https: http://apps.localhost:8080 https://weather.example.com",
    );
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'self' https://intranet.example.com");
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
    expect(String(policy).match(/frame-src/g)).toHaveLength(1);
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it('allows a newly registered app on the next load', async () => {
    await registerApp(embedded.database.db, {
      id: 'later',
      name: 'Later',
      entryUrl: 'http://later.localhost:8080/later/',
    });
    const policy = (await embedded.app.inject('/index.html')).headers['content-security-policy'];
    expect(directive(policy, 'frame-src')).toBe(
      "frame-src 'self' https: http://apps.localhost:8080 http://later.localhost:8080 https://weather.example.com",
    );
  });

  it("lets dashboards' iframe widgets frame https pages, but no plain http or other scheme beyond the apps", async () => {
    const policy = (await embedded.app.inject('/')).headers['content-security-policy'];
    const sources = directive(policy, 'frame-src')?.split(/\s+/).slice(1) ?? [];
    expect(sources).toContain('https:');
    expect(sources).not.toContain('http:');
    expect(sources).not.toContain('*');
    expect(sources.filter((source) => source.endsWith(':'))).toEqual(['https:']);
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
  });

  it("keeps frame-ancestors 'self' and X-Frame-Options without configured host pages", async () => {
    const plain = Fastify();
    await plain.register(helmet);
    plain.addHook('onSend', portalFramingHook({ appOrigins: async () => [], embedHostOrigins: [] }));
    plain.get('/', (_request, reply) => reply.type('text/html').send('<!doctype html>'));
    const response = await plain.inject('/');
    expect(directive(response.headers['content-security-policy'], 'frame-ancestors')).toBe(
      "frame-ancestors 'self'",
    );
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('leaves every other response with the global policy', async () => {
    const response = await embedded.app.inject('/healthz');
    expect(directive(response.headers['content-security-policy'], 'frame-src')).toBe("frame-src 'self'");
    expect(directive(response.headers['content-security-policy'], 'frame-ancestors')).toBe(
      "frame-ancestors 'self'",
    );
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('withDirectives', () => {
  it('replaces named directives and keeps the others', () => {
    expect(
      withDirectives("default-src 'self';frame-src 'self'; img-src data:", { 'frame-src': ['a', 'b'] }),
    ).toBe("default-src 'self';img-src data:;frame-src a b");
    expect(withDirectives('', { 'frame-ancestors': ["'self'"] })).toBe("frame-ancestors 'self'");
  });
});
