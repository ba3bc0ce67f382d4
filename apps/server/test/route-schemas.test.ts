import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('route schemas', () => {
  // They compile on a route's first use (http/lazy-schemas.ts); Fastify would otherwise have compiled them at start.
  it('every route’s request and response schemas compile', () => {
    expect(() => server.app.compileAllSchemas()).not.toThrow();
  });
});
