import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { alarms } from '../db/schema.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ testFixtures: true });
});
afterAll(() => server.close());

describe('alarm rule fixtures', () => {
  it('seeds alarm rules that the engine evaluates at once', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: {
        realm: 'e2e-alarm-rules',
        organizations: [{ key: 'plant', name: 'Plant' }],
        users: [],
        devices: [{ org: 'plant', label: 'Press 1' }],
        alarmRules: [
          {
            org: 'plant',
            name: 'Press hot',
            device: 'Press 1',
            condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
            severity: 'MAJOR',
            ackRequired: true,
            message: '{device} is hot: {value}',
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    const ruleId = body.alarmRules['Press hot'] as string;
    expect(ruleId).toEqual(expect.any(String));
    server.app.ingest.events.emit('values', {
      organizationId: body.organizations.plant.id,
      deviceId: body.devices['Press 1'],
      ts: Date.now(),
      values: { '/motor/temperature': 91 },
    });
    await server.app.alarms.settled();
    const [alarm] = await server.database.db.select().from(alarms).where(eq(alarms.ruleId, ruleId));
    expect(alarm).toMatchObject({ status: 'ACTIVE', ack: 'REQUIRED', message: 'Press 1 is hot: 91' });

    const unknownDevice = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: {
        realm: 'e2e-alarm-rules-2',
        organizations: [{ key: 'plant', name: 'Plant' }],
        users: [],
        alarmRules: [
          { org: 'plant', name: 'x', device: 'nope', condition: { kind: 'offline' }, severity: 'INFO' },
        ],
      },
    });
    expect(unknownDevice.statusCode).toBe(400);
  });
});
