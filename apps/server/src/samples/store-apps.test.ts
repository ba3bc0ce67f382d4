import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  costCents,
  formatCents,
  formatKwh,
  parseKwh,
  parseTariff,
} from '../../../../samples/energy-cost/cost.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import { STORE_APPS } from './store-apps.ts';

let server: TestServer;

function directive(policy: unknown, name: string): string | undefined {
  return String(policy)
    .split(';')
    .find((part) => part.startsWith(`${name} `));
}

// Without EDGEPORT_SAMPLES: the store apps are served and registered anyway.
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('sample store apps (always served)', () => {
  it('are in the catalogue at apps.{BASE_DOMAIN} with their plans', async () => {
    const rows = await server.database.db.query.apps.findMany();
    expect(rows.map((row) => [row.id, row.entryUrl, row.version, row.plans]).sort()).toEqual([
      [
        'energy-cost',
        'http://apps.localhost:8080/store-apps/energy-cost/',
        '1.0.0',
        [
          { id: 'basic', name: 'Basic', priceMinor: 900, currency: 'EUR', period: 'MONTH' },
          { id: 'pro', name: 'Pro', priceMinor: 2900, currency: 'EUR', period: 'MONTH' },
        ],
      ],
      [
        'shift-report',
        'http://apps.localhost:8080/store-apps/shift-report/',
        '1.1.0',
        [
          { id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' },
          { id: 'team', name: 'Team', priceMinor: 1900, currency: 'EUR', period: 'MONTH' },
        ],
      ],
    ]);
  });

  it('serves each page, its bundled script (with the bridge SDK) and style, framable by the product hosts only', async () => {
    for (const id of Object.keys(STORE_APPS)) {
      const page = await server.app.inject({
        url: `/store-apps/${id}/`,
        headers: { host: 'apps.localhost:8080' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<script type="module" src="main.js"></script>');
      const policy = page.headers['content-security-policy'];
      expect(directive(policy, 'frame-ancestors')).toBe(
        "frame-ancestors 'self' http://localhost:8080 http://*.localhost:8080",
      );
      expect(directive(policy, 'script-src')).toBe("script-src 'self'");
      expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
      expect(page.headers['x-frame-options']).toBeUndefined();

      const script = await server.app.inject(`/store-apps/${id}/main.js`);
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.body).toContain('edgeport-bridge');
      expect(script.body).not.toMatch(/^import /m);
      expect(page.body).toContain('href="/store-apps/kit/style.css"');
    }
    const style = await server.app.inject('/store-apps/kit/style.css');
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    const shift = await server.app.inject('/store-apps/shift-report/main.js');
    expect(shift.body).toContain('device-manage');
    expect(shift.body).toContain('lastShift');
    const energy = await server.app.inject('/store-apps/energy-cost/main.js');
    expect(energy.body).toContain('data-explore');
    expect(energy.body).toContain('tariffCentsPerKwh');
  });

  it('redirects to the folder and answers 404 for anything else', async () => {
    const redirect = await server.app.inject('/store-apps/energy-cost?x=1');
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/store-apps/energy-cost/?x=1');
    for (const url of [
      '/store-apps/nope/',
      '/store-apps/nope',
      '/store-apps/energy-cost/main.ts',
      '/store-apps/energy-cost/cost.ts',
      '/store-apps/energy-cost/..%2F..%2Fpackage.json',
      '/store-apps/shift-report/missing.html',
      '/store-apps/kit/index.html',
      '/store-apps/kit/page.ts',
      '/store-apps/bridge-app/index.html',
    ])
      expect((await server.app.inject(url)).statusCode, url).toBe(404);
  });

  it("reads the organization's devices the way shift-report does (its own origin, the bridge's token)", async () => {
    const tenants = await seedTenants(server);
    await createDevice(server.database.db, tenants.orgA.id, 'press-01');
    const { rpt } = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
    const response = await server.app.inject({
      url: `/svc/core/api/v1/organizations/${tenants.orgA.id}/devices?pageSize=20&sort=label`,
      headers: { host: 'apps.localhost:8080', authorization: `Bearer ${rpt}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ total: 1, items: [{ label: 'press-01', status: 'OFFLINE' }] });
  });
});

describe('energy-cost arithmetic (integer cents, no floating point)', () => {
  it('parses kWh to watt-hours and tariffs to whole cents', () => {
    expect(parseKwh('12')).toBe(12_000n);
    expect(parseKwh(' 12.5 ')).toBe(12_500n);
    expect(parseKwh('0,125')).toBe(125n);
    for (const bad of ['', '-1', '1.2345', '1e3', 'abc', '1.', '.5'])
      expect(parseKwh(bad), bad).toBeUndefined();
    expect(parseTariff('27')).toBe(27n);
    for (const bad of ['', '2.5', '-3', 'x']) expect(parseTariff(bad), bad).toBeUndefined();
  });

  it('rounds half up to a whole cent and formats exactly', () => {
    expect(costCents(12_500n, 27n)).toBe(338n); // 337.5 -> 338
    expect(costCents(1n, 27n)).toBe(0n); // 0.027
    expect(costCents(19n, 27n)).toBe(1n); // 0.513
    expect(costCents(1_000n, 31n)).toBe(31n);
    expect(formatCents(338n)).toBe('3.38');
    expect(formatCents(5n)).toBe('0.05');
    expect(formatKwh(12_500n)).toBe('12.5');
    expect(formatKwh(12_000n)).toBe('12');
    // 0.1 + 0.2 kWh at 10 cents: exact, unlike floating point.
    expect(costCents((parseKwh('0.1') ?? 0n) + (parseKwh('0.2') ?? 0n), 10n)).toBe(costCents(300n, 10n));
  });

  it('matches exact rational arithmetic for any consumption and tariff (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        (wh, tariff) => {
          const cents = costCents(wh, tariff);
          const milli = wh * tariff; // thousandths of a cent
          // cents is the nearest whole cent, halves up: |milli - 1000 * cents| <= 500 and not -500.
          const diff = milli - cents * 1000n;
          expect(diff >= -500n && diff < 500n).toBe(true);
          expect(parseKwh(formatKwh(wh))).toBe(wh);
        },
      ),
    );
  });
});
