import { bindingsOf, readDocument } from '@edgeport/dashboard-schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../test/support/calls.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { dashboards, dashboardVersions } from '../db/schema.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import { DEMO_MODEL_PATHS, seedDemoModel } from '../services/mappings/demo.ts';
import {
  DEMO_COMPARISON,
  DEMO_DASHBOARD,
  DEMO_FLOW,
  lineOverview,
  seedDemoDashboards,
} from './dashboards.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let modelId: string;
const lines: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  const { db } = server.database;
  modelId = (await seedDemoModel(db, tenants.orgA.id)).modelId;
  for (const label of ['Packaging line 1', 'Packaging line 2', 'Packaging line 3'])
    lines.push((await createDevice(db, tenants.orgA.id, label)).id);
});
afterAll(() => server.close());

describe('the demo dashboards', () => {
  it('bind only paths of the demo model, on two pages with a navigate button each way', () => {
    const document = lineOverview(modelId, lines[0]);
    const paths = new Set(DEMO_MODEL_PATHS.map((entry) => entry.path));
    const bound = document.pages.flatMap((page) =>
      page.widgets.flatMap((widget) => bindingsOf(widget).map(([, binding]) => binding)),
    );
    expect(bound.length).toBeGreaterThan(8);
    for (const binding of bound) expect('path' in binding && paths.has(binding.path)).toBe(true);
    expect(document.pages).toHaveLength(2);
    const types = new Set(document.pages.flatMap((page) => page.widgets.map((widget) => widget.type)));
    for (const type of ['value', 'gauge', 'lineChart', 'alarmList', 'setpoint', 'text', 'button'])
      expect(types.has(type as never)).toBe(true);
  });

  it('are seeded once, valid, and visible through the API', async () => {
    const { db } = server.database;
    const first = await seedDemoDashboards(db, { organizationId: tenants.orgA.id, modelId, lines });
    const second = await seedDemoDashboards(db, { organizationId: tenants.orgA.id, modelId, lines });
    expect(second).toEqual(first);
    const rows = await db.select().from(dashboards).where(eq(dashboards.organizationId, tenants.orgA.id));
    expect(rows.map((row) => [row.kind, row.name]).sort()).toEqual(
      [
        ['dashboard', DEMO_COMPARISON],
        ['dashboard', DEMO_DASHBOARD],
        ['flow', DEMO_FLOW],
      ].sort(),
    );
    for (const row of rows) {
      const [version] = await db
        .select()
        .from(dashboardVersions)
        .where(eq(dashboardVersions.dashboardId, row.id));
      expect(readDocument(row.kind, version?.document).ok).toBe(true);
    }
    const [flow] = await db
      .select()
      .from(dashboardVersions)
      .where(eq(dashboardVersions.dashboardId, first.flow));
    const targets = (
      (flow?.document.entries ?? []) as { target: { dashboardId: string; slots?: { line: string } } }[]
    ).map((entry) => entry.target);
    expect(targets.map((target) => target.dashboardId)).toContain(first.overview);
    expect(targets.map((target) => target.dashboardId)).toContain(first.comparison);
    expect(targets.flatMap((target) => (target.slots ? [target.slots.line] : []))).toEqual(lines);

    const rpt = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    const call = caller(server);
    const current = await call('GET', `/svc/dashboard/api/v1/dashboards/${first.overview}/versions/1`, rpt);
    expect(current.statusCode).toBe(200);
    expect(current.json().document.slots[0]).toEqual({
      name: 'line',
      label: 'Packaging line',
      modelId,
      defaultDeviceId: lines[0],
    });
  });
});
