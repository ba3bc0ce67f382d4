import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../test-support/fake-fetch.ts';

const server = fakeFetch();
let api: typeof import('./api.ts');

beforeAll(async () => {
  api = await import('./api.ts');
});
afterAll(() => vi.unstubAllGlobals());

const COUNT_PATH = '/svc/license/api/v1/organizations/org-1/licenses/count';
const BY_STATUS: Record<string, number> = { ACTIVE: 3, ISSUED: 1, EXPIRED: 2, REVOKED: 0 };

describe('counting the licences (spec 7 and 9)', () => {
  it('makes the licence count call with page size 1000, once per status, with the bearer token', async () => {
    server.answer((call) =>
      call.path === COUNT_PATH
        ? Response.json({ count: BY_STATUS[call.query.get('status') ?? ''] ?? 0 })
        : new Response(null, { status: 404 }),
    );
    await expect(api.fetchLicenseCounts('the-token', 'org-1')).resolves.toEqual(BY_STATUS);
    expect(server.calls).toHaveLength(4);
    for (const call of server.calls) {
      expect(call.method).toBe('GET');
      expect(call.path).toBe(COUNT_PATH);
      expect(call.query.get('pageSize')).toBe('1000');
      expect(call.headers.get('authorization')).toBe('Bearer the-token');
    }
    expect(server.calls.map((call) => call.query.get('status')).sort()).toEqual([
      'ACTIVE',
      'EXPIRED',
      'ISSUED',
      'REVOKED',
    ]);
    expect(api.LICENSE_COUNT_PAGE_SIZE).toBe(1000);
  });
});
