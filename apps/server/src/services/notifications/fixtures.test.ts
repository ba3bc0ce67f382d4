import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { notificationDeliveries, notificationRules, notificationSettings } from '../../db/schema.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ testFixtures: true });
});
afterAll(() => server.close());

const fixture = {
  realm: 'e2e-notify',
  organizations: [{ key: 'plant', name: 'Plant' }],
  users: [
    {
      key: 'op',
      email: 'op@plant.test',
      password: 'a-long-password',
      memberships: [{ org: 'plant', permissions: [{ rsname: 'notifications', scopes: ['READ'] }] }],
    },
  ],
  notificationSettings: [
    { org: 'plant', sender: 'alerts@plant.test', allowedWebhookHosts: ['127.0.0.1:4567'] },
  ],
  notifications: [
    {
      org: 'plant',
      name: 'Critical to ops',
      language: 'de',
      severities: ['CRITICAL'],
      users: ['op'],
      webhooks: ['http://127.0.0.1:4567/hook'],
    },
  ],
  notificationDeliveries: [
    {
      org: 'plant',
      notification: 'Critical to ops',
      channel: 'webhook',
      target: 'http://127.0.0.1:4567/hook',
    },
    { org: 'plant', channel: 'email', target: 'op@plant.test', status: 'SENT', minutesAgo: 5 },
  ],
};

describe('notification fixtures (POST /test-support/tenants)', () => {
  it('seeds rules, deliveries and settings and answers their ids', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: fixture,
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    const ruleId = body.notifications['Critical to ops'];
    const { db } = server.database;
    const [rule] = await db.select().from(notificationRules).where(eq(notificationRules.id, ruleId));
    expect(rule).toMatchObject({
      language: 'de',
      source: { alarmEvents: ['RAISED'], severities: ['CRITICAL'], alarmRuleIds: [] },
      recipients: { userIds: [body.users.op.id], webhooks: ['http://127.0.0.1:4567/hook'] },
    });
    expect(body.notificationDeliveries).toHaveLength(2);
    const [failed] = await db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, body.notificationDeliveries[0]));
    expect(failed).toMatchObject({
      status: 'FAILED',
      notificationId: ruleId,
      lastError: 'the webhook answered HTTP 503',
    });
    const [settings] = await db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.organizationId, body.organizations.plant.id));
    expect(settings).toMatchObject({ sender: 'alerts@plant.test', allowedWebhookHosts: ['127.0.0.1:4567'] });
  });

  it('refuses a rule naming a user that was not seeded', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: {
        ...fixture,
        realm: 'e2e-notify-two',
        notificationDeliveries: [],
        notifications: [{ org: 'plant', name: 'x', users: ['ghost'] }],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain("'ghost'");
  });
});
