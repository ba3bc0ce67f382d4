import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { dashboardShares, dashboards, dashboardVersions } from '../db/schema.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ testFixtures: true });
});
afterAll(() => server.close());

const seed = (payload: Record<string, unknown>) =>
  server.app.inject({ method: 'POST', url: '/test-support/tenants', payload });

const person = (key: string) => ({
  key,
  email: `${key}@fixture.test`,
  password: 'correct horse battery',
  memberships: [{ org: 'plant', permissions: [{ rsname: 'dashboards', scopes: ['READ'] }] }],
});

describe('dashboard fixtures', () => {
  it('seeds dashboards and flows with placeholders for seeded ids, and shares', async () => {
    const response = await seed({
      realm: 'e2e-dashboards',
      organizations: [{ key: 'plant', name: 'Plant' }],
      users: [person('owner'), person('reader')],
      telemetry: [
        {
          org: 'plant',
          model: 'Line',
          paths: [{ path: '/line/speed', type: 'number' }],
          preset: 'Line PLC',
          devices: ['Line 1'],
          points: 0,
          intervalMs: 1000,
        },
      ],
      dashboards: [
        {
          name: 'Board',
          owner: 'owner',
          document: {
            schemaVersion: 2,
            rootPageId: 'p1',
            slots: [
              {
                name: 'line',
                label: 'Line',
                modelId: '{{model:Line}}',
                defaultDeviceId: '{{device:Line 1}}',
              },
            ],
            variables: [],
            pages: [
              {
                id: 'p1',
                title: 'Main',
                widgets: [
                  {
                    id: 'v',
                    type: 'value',
                    layout: { x: 0, y: 0, w: 4, h: 2 },
                    binding: { slot: 'line', path: '/line/speed' },
                    options: {},
                  },
                ],
              },
            ],
          },
          shares: [{ user: 'reader', level: 'r' }],
        },
        { name: 'Empty', owner: 'owner' },
        {
          name: 'Flow',
          kind: 'flow',
          owner: 'owner',
          document: {
            schemaVersion: 1,
            entries: [
              {
                id: 'e',
                alias: 'Board',
                icon: 'gauge',
                color: '#112233',
                target: { kind: 'dashboard', dashboardId: '{{dashboard:Board}}' },
                position: { x: 0, y: 0 },
              },
            ],
          },
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    const { db } = server.database;
    const boardId = body.dashboards.Board as string;
    const [board] = await db.select().from(dashboards).where(eq(dashboards.id, boardId));
    expect(board).toMatchObject({ kind: 'dashboard', ownerId: body.users.owner.id, currentVersion: 1 });
    const [version] = await db
      .select()
      .from(dashboardVersions)
      .where(eq(dashboardVersions.dashboardId, boardId));
    const slot = ((version?.document.slots ?? []) as { defaultDeviceId: string }[])[0];
    expect(slot?.defaultDeviceId).toBe(body.telemetryDevices['Line 1'].id);
    const shares = await db.select().from(dashboardShares).where(eq(dashboardShares.dashboardId, boardId));
    expect(shares.map((share) => [share.userId, share.level])).toEqual([[body.users.reader.id, 'r']]);
    const [flow] = await db
      .select()
      .from(dashboardVersions)
      .where(eq(dashboardVersions.dashboardId, body.dashboards.Flow));
    expect(JSON.stringify(flow?.document)).toContain(boardId);
    expect(body.dashboards.Empty).toEqual(expect.any(String));
  });

  it('refuses an invalid document or an unknown placeholder with 400', async () => {
    const base = {
      organizations: [{ key: 'plant', name: 'Plant' }],
      users: [person('owner')],
    };
    const invalid = await seed({
      ...base,
      realm: 'e2e-dashboards-bad',
      dashboards: [{ name: 'Bad', owner: 'owner', document: { schemaVersion: 2 } }],
    });
    expect(invalid.statusCode).toBe(400);
    const unknown = await seed({
      ...base,
      realm: 'e2e-dashboards-bad2',
      dashboards: [
        {
          name: 'Bad',
          kind: 'flow',
          owner: 'owner',
          document: {
            schemaVersion: 1,
            entries: [
              {
                id: 'e',
                alias: 'x',
                icon: 'gauge',
                color: '#112233',
                target: { kind: 'flow', flowId: '{{dashboard:Nope}}' },
                position: { x: 0, y: 0 },
              },
            ],
          },
        },
      ],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Nope');
  });
});
