import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { auditLog, devices, presetJobs, presets } from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../core/organizations/provisioning.ts';
import { presetBindingOf } from './binding.ts';
import { DEMO_PRESET_MAPPINGS, seedDemoModel } from './demo.ts';
import { checkMappingsStepwise, PRESET_TIMEOUT_MS } from './presets.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const rpt: Record<string, string> = {};
let orgC: { id: string };
let modelId: string;
let otherModelId: string;

const api = (org: string) => `/svc/mappings/api/v1/organizations/${org}`;

const PATHS = [
  { path: '/line/speed', type: 'number', unit: 'pcs/min' },
  { path: '/line/running', type: 'boolean' },
  { path: '/line/count', type: 'integer' },
  { path: '/motor/temperature', type: 'number', unit: '°C' },
  { path: '/setpoints/speed', type: 'number', writable: true, min: 0, max: 200 },
  { path: '/status/message', type: 'string' },
];

const MAPPINGS = [
  { tag: 'LineSpeed', path: '/line/speed' },
  { tag: 'Running', path: '/line/running' },
  { tag: 'MotorTemp', path: '/motor/temperature', formula: 'value / 10' },
  { tag: 'SpeedSetpoint', path: '/setpoints/speed' },
];

async function presetsOf(organizationId: string) {
  return server.database.db.select().from(presets).where(eq(presets.organizationId, organizationId));
}

async function waitForJob(org: string, id: string, token: string | undefined) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const job = (await call('GET', `${api(org)}/presets/async/${id}`, token)).json();
    if (job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the preset job did not finish');
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const c = await createOrganization(db, { realm: 'acme', name: 'Org C', resourceId: 'acme-c' });
  orgC = c;
  const rolesC = await addDefaultRoles(db, c.id);
  const adminC = await createUser(db, {
    realm: 'acme',
    email: 'admin@acme-c.test',
    password: 'correct horse battery',
  });
  await addMember(db, c.id, adminC.id, [rolesC.administrator.id]);
  rpt.A = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rpt.C = (await rptFor(server, 'acme', adminC.email, c.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'models', scopes: ['READ'] },
  ]);
  rpt.reader = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
  const sub = await userWithRole(server, 'acme', tenants.orgA1.id, 'modeller@acme-a1.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'models', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
    { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
  ]);
  rpt.A1 = (await rptFor(server, 'acme', sub.email, tenants.orgA1.resourceId)).rpt;
  const created = await call('POST', `${api(tenants.orgA.id)}/models`, rpt.A, { name: 'Line', paths: PATHS });
  modelId = created.json().id;
  // Version 2 drops /status/message.
  await call('PUT', `${api(tenants.orgA.id)}/models/${modelId}`, rpt.A, { paths: PATHS.slice(0, 5) });
  const other = await call('POST', `${api(orgC.id)}/models`, rpt.C, {
    name: 'C model',
    paths: [{ path: '/c', type: 'number' }],
  });
  otherModelId = other.json().id;
});
afterAll(() => server.close());

let presetId: string;

describe('POST /presets', () => {
  it('creates a preset on the current model version and records it', async () => {
    const response = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'PLC',
      modelId,
      mappings: MAPPINGS,
      deviceConfiguration: { publishIntervalMs: 1000 },
    });
    expect(response.statusCode).toBe(200);
    const preset = response.json();
    presetId = preset.id;
    expect(preset).toMatchObject({
      name: 'PLC',
      modelId,
      modelName: 'Line',
      modelVersion: 2,
      mappings: MAPPINGS,
      deviceConfiguration: { publishIntervalMs: 1000 },
      inherited: false,
      deviceCount: 0,
    });
    const [entry] = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, presetId));
    expect(entry).toMatchObject({ action: 'presets.create', resourceType: 'models', resourceName: 'PLC' });
  });

  it('binds an older version when asked, and checks paths against that version', async () => {
    const v1 = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'PLC v1',
      modelId,
      modelVersion: 1,
      mappings: [{ tag: 'Status', path: '/status/message' }],
    });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().modelVersion).toBe(1);
    const v2 = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'PLC v2',
      modelId,
      mappings: [{ tag: 'Status', path: '/status/message' }],
    });
    expect(v2.statusCode).toBe(400);
    expect(v2.json().message).toContain(
      "body/mappings/0/path: '/status/message' is not a path of the model version",
    );
    const v9 = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'PLC v9',
      modelId,
      modelVersion: 9,
      mappings: [],
    });
    expect(v9.statusCode).toBe(400);
    expect(v9.json().message).toContain('modelVersion');
  });

  it('validates every mapping and stores nothing when one is wrong', async () => {
    const bad = async (mappings: unknown[]) =>
      call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, { name: 'Bad', modelId, mappings });
    const cases: [unknown[], string][] = [
      [[{ tag: ' ', path: '/line/speed' }], 'body/mappings/0/tag: must not be blank'],
      [
        [
          { tag: 'A', path: '/line/speed' },
          { tag: 'A', path: '/line/count' },
        ],
        "body/mappings/1/tag: 'A' is mapped twice",
      ],
      [
        [
          { tag: 'A', path: '/line/speed' },
          { tag: 'B', path: '/line/speed' },
        ],
        'already bound by mappings/0',
      ],
      [[{ tag: 'A', path: '/nowhere' }], 'not a path of the model version'],
      [[{ tag: 'A', path: '/line/running', formula: 'value * 2' }], 'number and integer paths only'],
      [
        [{ tag: 'A', path: '/line/speed', formula: 'value +' }],
        'body/mappings/0/formula: formula does not parse',
      ],
      [[{ tag: 'A', path: '/line/speed', formula: 'other * 2' }], 'body/mappings/0/formula'],
    ];
    for (const [mappings, message] of cases) {
      const response = await bad(mappings);
      expect(response.statusCode, JSON.stringify(mappings)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect((await bad([{ tag: 'A', path: '/line/speed', extra: 1 }])).statusCode).toBe(400);
    expect((await presetsOf(tenants.orgA.id)).map((p) => p.name).sort()).toEqual(['PLC', 'PLC v1']);
  });

  it('refuses a taken name, a foreign model and a caller without CREATE models', async () => {
    const taken = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'PLC',
      modelId,
      mappings: [],
    });
    expect(taken.statusCode).toBe(409);
    const foreign = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.A, {
      name: 'Foreign',
      modelId: otherModelId,
      mappings: [],
    });
    expect(foreign.statusCode).toBe(404);
    const reader = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.reader, {
      name: 'R',
      modelId,
      mappings: [],
    });
    expect(reader.statusCode).toBe(403);
    const cross = await call('POST', `${api(tenants.orgA.id)}/presets`, rpt.C, {
      name: 'X',
      modelId,
      mappings: [],
    });
    expect(cross.statusCode).toBe(403);
    const viaC = await call('POST', `${api(orgC.id)}/presets`, rpt.C, { name: 'X', modelId, mappings: [] });
    expect(viaC.statusCode).toBe(404);
    expect(await presetsOf(orgC.id)).toEqual([]);
  });
});

describe('POST /presets/async', () => {
  it('answers a job id at once and reports progress up to 100 with the preset', async () => {
    const paths = Array.from({ length: 400 }, (_, index) => ({ path: `/p/v${index}`, type: 'number' }));
    const big = await call('POST', `${api(tenants.orgA.id)}/models`, rpt.A, { name: 'Big', paths });
    const mappings = paths.map((entry, index) => ({
      tag: `T${index}`,
      path: entry.path,
      formula: 'value * 2',
    }));
    const started = await call('POST', `${api(tenants.orgA.id)}/presets/async`, rpt.A, {
      name: 'Big preset',
      modelId: big.json().id,
      mappings,
    });
    expect(started.statusCode).toBe(200);
    const { id } = started.json();
    const first = (await call('GET', `${api(tenants.orgA.id)}/presets/async/${id}`, rpt.reader)).json();
    expect(['RUNNING', 'DONE']).toContain(first.status);
    const job = await waitForJob(tenants.orgA.id, id, rpt.reader);
    expect(job).toMatchObject({ status: 'DONE', progress: 100, error: null });
    const preset = (await call('GET', `${api(tenants.orgA.id)}/presets/${job.presetId}`, rpt.reader)).json();
    expect(preset.mappings).toHaveLength(400);
    expect(preset.name).toBe('Big preset');
    // Another organization cannot read the job.
    expect((await call('GET', `${api(orgC.id)}/presets/async/${id}`, rpt.C)).statusCode).toBe(404);
  });

  it('ends FAILED with the error when a mapping is wrong, and stores no preset', async () => {
    const started = await call('POST', `${api(tenants.orgA.id)}/presets/async`, rpt.A, {
      name: 'Broken',
      modelId,
      mappings: [...MAPPINGS, { tag: 'Ghost', path: '/ghost' }],
    });
    expect(started.statusCode).toBe(200);
    const job = await waitForJob(tenants.orgA.id, started.json().id, rpt.A);
    expect(job.status).toBe('FAILED');
    expect(job.presetId).toBeNull();
    expect(job.error).toContain("body/mappings/4/path: '/ghost' is not a path");
    expect((await presetsOf(tenants.orgA.id)).map((p) => p.name)).not.toContain('Broken');
  });

  it('refuses at once what it can check at once: permission, model, name', async () => {
    const jobsBefore = (await server.database.db.select().from(presetJobs)).length;
    expect(
      (
        await call('POST', `${api(tenants.orgA.id)}/presets/async`, rpt.reader, {
          name: 'R',
          modelId,
          mappings: [],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `${api(tenants.orgA.id)}/presets/async`, rpt.A, {
          name: 'R',
          modelId: otherModelId,
          mappings: [],
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call('POST', `${api(tenants.orgA.id)}/presets/async`, rpt.A, {
          name: 'PLC',
          modelId,
          mappings: [],
        })
      ).statusCode,
    ).toBe(409);
    expect((await server.database.db.select().from(presetJobs)).length).toBe(jobsBefore);
  });

  it('reports a job left RUNNING by a stopped server as interrupted after the time-out', async () => {
    const [stale] = await server.database.db
      .insert(presetJobs)
      .values({ organizationId: tenants.orgA.id, createdAt: new Date(Date.now() - PRESET_TIMEOUT_MS - 1000) })
      .returning();
    const job = (await call('GET', `${api(tenants.orgA.id)}/presets/async/${stale?.id}`, rpt.A)).json();
    expect(job.status).toBe('FAILED');
    expect(job.error).toContain('interrupted');
  });

  it('checks mappings stepwise with rising progress', async () => {
    const shares: number[] = [];
    const paths = Array.from({ length: 100 }, (_, index) => ({
      path: `/v${index}`,
      type: 'number' as const,
    }));
    const result = await checkMappingsStepwise(
      paths.map((entry, index) => ({ tag: `t${index}`, path: entry.path })),
      paths,
      async (share) => {
        shares.push(share);
      },
      10,
    );
    expect(result.errors).toEqual([]);
    expect(result.stored).toHaveLength(100);
    expect(shares).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
  });
});

describe('reading presets', () => {
  it('lists presets with model name, mapping and device counts; searches and filters by model', async () => {
    const page = (
      await call('GET', `${api(tenants.orgA.id)}/presets?search=plc&sort=name`, rpt.reader)
    ).json();
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({ name: 'PLC', modelName: 'Line', mappingCount: 4, deviceCount: 0 });
    const byModel = (
      await call('GET', `${api(tenants.orgA.id)}/presets?modelId=${modelId}`, rpt.reader)
    ).json();
    expect(byModel.items.map((p: { name: string }) => p.name)).toEqual(['PLC', 'PLC v1']);
    expect((await call('GET', `${api(orgC.id)}/presets`, rpt.C)).json().total).toBe(0);
    expect((await call('GET', `${api(orgC.id)}/presets/${presetId}`, rpt.C)).statusCode).toBe(404);
    expect((await call('GET', `${api(tenants.orgA.id)}/presets/${presetId}`, rpt.C)).statusCode).toBe(403);
  });

  it('answers the device configuration: the preset configuration and the tags to publish with their types', async () => {
    const response = await call(
      'GET',
      `${api(tenants.orgA.id)}/presets/${presetId}/deviceConfiguration`,
      rpt.reader,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      presetId,
      presetName: 'PLC',
      modelId,
      modelName: 'Line',
      modelVersion: 2,
      configuration: { publishIntervalMs: 1000 },
      tags: [
        {
          tag: 'LineSpeed',
          path: '/line/speed',
          type: 'number',
          unit: 'pcs/min',
          writable: false,
          min: null,
          max: null,
          formula: null,
        },
        {
          tag: 'Running',
          path: '/line/running',
          type: 'boolean',
          unit: null,
          writable: false,
          min: null,
          max: null,
          formula: null,
        },
        {
          tag: 'MotorTemp',
          path: '/motor/temperature',
          type: 'number',
          unit: '°C',
          writable: false,
          min: null,
          max: null,
          formula: 'value / 10',
        },
        {
          tag: 'SpeedSetpoint',
          path: '/setpoints/speed',
          type: 'number',
          unit: null,
          writable: true,
          min: 0,
          max: 200,
          formula: null,
        },
      ],
    });
    expect(
      (await call('GET', `${api(orgC.id)}/presets/${presetId}/deviceConfiguration`, rpt.C)).statusCode,
    ).toBe(404);
  });
});

describe('sharing presets with sub-organizations', () => {
  it('a shared preset (on a shared model) is usable in the sub-organization, never changed there', async () => {
    expect((await call('GET', `${api(tenants.orgA1.id)}/presets/${presetId}`, rpt.A1)).statusCode).toBe(404);
    const shared = await call(
      'PUT',
      `${api(tenants.orgA.id)}/mappings/${presetId}/subOrgsEnabledToView`,
      rpt.A,
      {
        enabled: true,
      },
    );
    expect(shared.statusCode).toBe(200);
    expect(shared.json().subOrgsEnabledToView).toBe(true);
    const list = (await call('GET', `${api(tenants.orgA1.id)}/presets`, rpt.A1)).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: presetId, inherited: true });
    expect((await call('GET', `${api(tenants.orgA1.id)}/presets/${presetId}`, rpt.A1)).json().inherited).toBe(
      true,
    );
    expect((await call('DELETE', `${api(tenants.orgA1.id)}/presets/${presetId}`, rpt.A1)).statusCode).toBe(
      403,
    );
    expect(
      (
        await call('PUT', `${api(tenants.orgA1.id)}/mappings/${presetId}/subOrgsEnabledToView`, rpt.A1, {
          enabled: false,
        })
      ).statusCode,
    ).toBe(403);
    // A device of the sub-organization may use the shared preset.
    const device = await createDevice(server.database.db, tenants.orgA1.id, 'a1-device');
    const bound = await call('PUT', `${api(tenants.orgA1.id)}/devices/${device.id}`, rpt.A1, { presetId });
    expect(bound.statusCode).toBe(200);
    expect(bound.json()).toMatchObject({ presetId, presetName: 'PLC' });
    // The model is not shared, but presets made on a shared model can be created in the sub-organization.
    expect(
      (await call('POST', `${api(tenants.orgA1.id)}/presets`, rpt.A1, { name: 'Sub', modelId, mappings: [] }))
        .statusCode,
    ).toBe(404);
    await call('PUT', `${api(tenants.orgA.id)}/models/name/Line/subOrgsEnabledToView`, rpt.A, {
      enabled: true,
    });
    const sub = await call('POST', `${api(tenants.orgA1.id)}/presets`, rpt.A1, {
      name: 'Sub',
      modelId,
      mappings: [{ tag: 'S', path: '/line/speed' }],
    });
    expect(sub.statusCode).toBe(200);
    expect(sub.json()).toMatchObject({ organizationId: tenants.orgA1.id, inherited: false, modelVersion: 2 });
  });
});

describe('DELETE /presets/{id}', () => {
  it('is refused with the count while devices use it, then deletes it', async () => {
    const refused = await call('DELETE', `${api(tenants.orgA.id)}/presets/${presetId}`, rpt.A);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('used by 1 device');
    await server.database.db.update(devices).set({ presetId: null }).where(eq(devices.presetId, presetId));
    expect((await call('DELETE', `${api(orgC.id)}/presets/${presetId}`, rpt.C)).statusCode).toBe(404);
    expect((await call('DELETE', `${api(tenants.orgA.id)}/presets/${presetId}`, rpt.reader)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `${api(tenants.orgA.id)}/presets/${presetId}`, rpt.A)).statusCode).toBe(204);
    expect((await call('GET', `${api(tenants.orgA.id)}/presets/${presetId}`, rpt.A)).statusCode).toBe(404);
    const actions = (
      await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, presetId))
    ).map((entry) => entry.action);
    expect(actions).toEqual(['presets.create', 'presets.share', 'presets.delete']);
  });
});

describe('POST /svc/platform/.../preset/formula/validate', () => {
  const url = (org: string) => `/svc/platform/api/v1/organizations/${org}/preset/formula/validate`;
  it('answers whether a formula of value is valid, with the error', async () => {
    expect(
      (await call('POST', url(tenants.orgA.id), rpt.reader, { formula: 'value / 10 - 40' })).json(),
    ).toEqual({
      valid: true,
    });
    const bad = (await call('POST', url(tenants.orgA.id), rpt.reader, { formula: 'value +' })).json();
    expect(bad.valid).toBe(false);
    expect(bad.error).toContain('does not parse');
    expect((await call('POST', url(tenants.orgA.id), rpt.reader, { formula: '' })).json().valid).toBe(false);
    expect((await call('POST', url(tenants.orgA.id), rpt.reader, {})).statusCode).toBe(400);
    expect((await call('POST', url(tenants.orgA.id), rpt.C, { formula: 'value' })).statusCode).toBe(403);
    expect((await call('POST', url(tenants.orgB.id), rpt.A, { formula: 'value' })).statusCode).toBe(403);
  });
});

describe('seedDemoModel', () => {
  it('creates the packaging line model and PLC preset once, and ingest can bind its tags', async () => {
    const { db } = server.database;
    const first = await seedDemoModel(db, orgC.id);
    const again = await seedDemoModel(db, orgC.id);
    expect(again).toEqual(first);
    const binding = await presetBindingOf(db, first.presetId);
    expect(binding?.modelId).toBe(first.modelId);
    expect([...(binding?.tags.keys() ?? [])].sort()).toEqual(DEMO_PRESET_MAPPINGS.map((m) => m.tag).sort());
    expect(binding?.tags.get('MotorTemp')?.formula?.(652)).toBeCloseTo(65.2);
    expect(binding?.tags.get('SpeedSetpoint')).toMatchObject({ writable: true, min: 0, max: 200 });
    const config = await call('GET', `${api(orgC.id)}/presets/${first.presetId}/deviceConfiguration`, rpt.C);
    expect(config.json().tags).toHaveLength(DEMO_PRESET_MAPPINGS.length);
  });
});
