import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../test-support/fake-fetch.ts';

const server = fakeFetch();
let api: typeof import('./api.ts');

beforeAll(async () => {
  api = await import('./api.ts');
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  server.calls.length = 0;
});

const PRODUCTS_PATH = '/svc/license/api/v1/organizations/dealer-1/products';

/** The products a dealer sells, as the list answers them (only the code matters here). */
function products(total: number) {
  return Array.from({ length: total }, (_, index) => ({ code: `P-${String(index).padStart(5, '0')}` }));
}

/** The fake product list: `total` products, paged as the query asks. */
function serveProducts(total: number) {
  const all = products(total);
  server.answer((call) => {
    if (call.path !== PRODUCTS_PATH) return new Response(null, { status: 404 });
    const page = Number(call.query.get('page') ?? 0);
    const pageSize = Number(call.query.get('pageSize') ?? 10_000);
    return Response.json({ items: all.slice(page * pageSize, (page + 1) * pageSize), total });
  });
}

describe('the dealer’s products (spec 9)', () => {
  it('fetches every product 200 a page, by code, until the last page', async () => {
    serveProducts(450);
    const all = await api.fetchAllProducts('the-token', 'dealer-1');
    expect(all.map((product) => product.code)).toEqual(products(450).map((product) => product.code));
    expect(server.calls.map((call) => Object.fromEntries(call.query))).toEqual(
      [0, 1, 2].map((page) => ({ page: String(page), pageSize: '200', sort: 'code', order: 'asc' })),
    );
    expect(server.calls.every((call) => call.headers.get('authorization') === 'Bearer the-token')).toBe(true);
  });

  it('stops after a full last page when the total is reached', async () => {
    serveProducts(400);
    expect(await api.fetchAllProducts('the-token', 'dealer-1')).toHaveLength(400);
    expect(server.calls.map((call) => call.query.get('page'))).toEqual(['0', '1']);
  });

  it('reads one page when the dealer sells none', async () => {
    serveProducts(0);
    expect(await api.fetchAllProducts('the-token', 'dealer-1')).toEqual([]);
    expect(server.calls).toHaveLength(1);
  });

  it('lists the products to issue from in one call of 10000', async () => {
    serveProducts(3);
    expect((await api.fetchProducts('the-token', 'dealer-1')).items).toHaveLength(3);
    expect(server.calls.map((call) => Object.fromEntries(call.query))).toEqual([
      { pageSize: '10000', sort: 'code', order: 'asc' },
    ]);
  });
});
