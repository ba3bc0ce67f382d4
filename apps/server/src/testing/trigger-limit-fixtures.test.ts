import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { organizationLimits, triggerRules } from '../db/schema.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ testFixtures: true });
});
afterAll(() => server.close());

describe('limits and trigger fixtures', () => {
  it('seeds limits and trigger rules that the engine runs', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: {
        realm: 'e2e-triggers',
        organizations: [{ key: 'plant', name: 'Plant' }],
        users: [],
        devices: [{ org: 'plant', label: 'Press 1' }],
        limits: [{ org: 'plant', devices: 5, dataPointsPerDay: null }],
        triggers: [
          {
            org: 'plant',
            name: 'Hot press',
            condition: {
              kind: 'data',
              device: 'Press 1',
              path: '/motor/temperature',
              operator: '>',
              value: 80,
            },
            action: { kind: 'alarm', severity: 'MAJOR', message: 'press is hot' },
            runCount: 3,
            lastRunMinutesAgo: 10,
            lastError: 'webhook answered 500',
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    const plant = body.organizations.plant.id as string;
    const { db } = server.database;
    const [limits] = await db
      .select()
      .from(organizationLimits)
      .where(eq(organizationLimits.organizationId, plant));
    expect(limits?.limits).toEqual({ devices: 5, dataPointsPerDay: null });
    const [trigger] = await db
      .select()
      .from(triggerRules)
      .where(eq(triggerRules.id, body.triggers['Hot press']));
    expect(trigger).toMatchObject({
      name: 'Hot press',
      runCount: 3,
      lastError: 'webhook answered 500',
      condition: { kind: 'data', deviceId: body.devices['Press 1'], path: '/motor/temperature' },
    });
    expect(trigger?.lastErrorAt?.getTime()).toBe(trigger?.lastRunAt?.getTime());

    const raise = vi.spyOn(server.app.alarms, 'raise').mockRejectedValue(new Error('not now'));
    server.app.ingest.events.emit('values', {
      organizationId: plant,
      deviceId: body.devices['Press 1'],
      ts: Date.now(),
      values: { '/motor/temperature': 90 },
    });
    await server.app.triggers.settled();
    expect(raise).toHaveBeenCalledTimes(1);
  });
});
