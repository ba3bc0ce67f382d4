import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyDocument } from '@edgeport/dashboard-schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBlobNames } from '../../../../test/support/blobs.ts';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, galleryAssets } from '../../../db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../../core/organizations/provisioning.ts';

const HOST = 'acme.app.localhost:8080';
const BASE = '/svc/dashboard/api/v1';
const LIMIT = 100_000;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_MAGIC, randomBytes(size - PNG_MAGIC.length)]);

const gaugeWidget = {
  schemaVersion: 2,
  widgets: [
    {
      id: 'g1',
      type: 'gauge',
      title: 'Pressure',
      layout: { x: 0, y: 0, w: 6, h: 6 },
      binding: { slot: 'machine', path: '/pressure' },
      options: { min: 0, max: 10 },
    },
  ],
};

const manifest = {
  name: 'Plant icons',
  description: 'Icons and ready-made widgets',
  widgets: [
    { name: 'Empty text', description: 'a text box', document: emptyDocument('widget') },
    { name: 'Pressure gauge', document: gaugeWidget },
  ],
};

let server: TestServer;
let dataDir: string;
let call: ReturnType<typeof caller>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
const token = { admin: '', reader: '', adminB: '', adminC: '' };

type Part = { name: string; value: string | Buffer; type?: string; filename?: string };

/** A multipart/form-data body built the way a browser's FormData is sent. */
async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === 'string' && !part.type) form.append(part.name, part.value);
    else
      form.append(
        part.name,
        new Blob([typeof part.value === 'string' ? part.value : new Uint8Array(part.value)], {
          type: part.type ?? 'application/octet-stream',
        }),
        part.filename ?? 'file',
      );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

async function uploadGallery(bearer: string, name: string, parts: Part[]) {
  const body = await multipart(parts);
  return server.app.inject({
    method: 'PUT',
    url: `${BASE}/gallery/assets/${encodeURIComponent(name)}/upload`,
    headers: { host: HOST, authorization: `Bearer ${bearer}`, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const fullUpload = (file: Buffer, changes: Partial<typeof manifest> = {}): Part[] => [
  { name: 'manifest', value: JSON.stringify({ ...manifest, ...changes }) },
  { name: 'file', value: file, type: 'image/png', filename: 'icons.png' },
];

async function galleryRows(organizationId: string) {
  return server.database.db
    .select()
    .from(galleryAssets)
    .where(eq(galleryAssets.organizationId, organizationId));
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'edgeport-gallery-'));
  server = await startTestServer({ dataDir, assetStorageLimitBytes: LIMIT });
  call = caller(server);
  tenants = await seedTenants(server);
  const { db } = server.database;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
  ]);
  const orgC = await createOrganization(db, { realm: 'acme', name: 'Org C', resourceId: 'acme-c' });
  const rolesC = await addDefaultRoles(db, orgC.id);
  const adminC = await createUser(db, { realm: 'acme', email: 'admin@acme-c.test', password: PASSWORD });
  await addMember(db, orgC.id, adminC.id, [rolesC.administrator.id]);
  const rpt = async (email: string, resourceId: string) =>
    (await rptFor(server, 'acme', email, resourceId)).rpt;
  token.admin = await rpt(tenants.adminA.email, tenants.orgA.resourceId);
  token.reader = await rpt(reader.email, tenants.orgA.resourceId);
  token.adminB = await rpt(tenants.adminB.email, tenants.orgB.resourceId);
  token.adminC = await rpt(adminC.email, orgC.resourceId);
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the organization gallery', () => {
  const file = png(4000);

  it('takes a multipart upload of a manifest and a file, and lists its widgets', async () => {
    const answer = await uploadGallery(token.admin, 'plant-icons', fullUpload(file));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ name: 'plant-icons', contentType: 'image/png', size: 4000 });

    const all = await call('GET', `${BASE}/organizations/manifest`, token.reader);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({
      organizationId: tenants.orgA.id,
      assets: [{ name: 'plant-icons', manifest: { name: 'Plant icons' }, size: 4000 }],
    });

    const widgets = await call('GET', `${BASE}/organizations/gallery/widgets`, token.reader);
    expect(widgets.statusCode).toBe(200);
    expect(widgets.json()).toEqual([
      {
        asset: 'plant-icons',
        name: 'Empty text',
        description: 'a text box',
        document: emptyDocument('widget'),
      },
      { asset: 'plant-icons', name: 'Pressure gauge', description: '', document: gaugeWidget },
    ]);

    const one = await call('GET', `${BASE}/gallery/assets/plant-icons/manifest`, token.reader);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(manifest);

    const download = await call('GET', `${BASE}/gallery/assets/plant-icons/download`, token.reader);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(file)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toContain('sandbox');

    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'dashboards.gallery.upload'));
    expect(audit).toMatchObject({ organizationId: tenants.orgA.id, resourceName: 'plant-icons' });
    expect(audit?.detail).toMatchObject({ widgets: 2, size: 4000, replaced: false });
  });

  it('accepts the manifest as a JSON file part too, and replaces the asset of the same name', async () => {
    const newer = png(2000);
    const answer = await uploadGallery(token.admin, 'plant-icons', [
      { name: 'file', value: newer, type: 'image/png', filename: 'icons.png' },
      {
        name: 'manifest',
        value: JSON.stringify({ ...manifest, widgets: [manifest.widgets[1]] }),
        type: 'application/json',
        filename: 'manifest.json',
      },
    ]);
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = await galleryRows(tenants.orgA.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.size).toBe(2000);
    const files = await storedBlobNames(server, `gallery/${tenants.orgA.id}`);
    expect(files).toEqual([rows[0]?.blobKey.split('/').at(-1)]);
    const widgets = await call('GET', `${BASE}/organizations/gallery/widgets`, token.admin);
    expect(widgets.json().map((widget: { name: string }) => widget.name)).toEqual(['Pressure gauge']);
  });

  it('refuses bad manifests and files naming the field, and changes nothing', async () => {
    const before = await galleryRows(tenants.orgA.id);
    const refusals: [Part[], RegExp][] = [
      [
        [
          { name: 'manifest', value: '{not json' },
          { name: 'file', value: file, type: 'image/png' },
        ],
        /^body\/manifest must be JSON/,
      ],
      [fullUpload(file, { name: '' }), /^body\/manifest\/name must/],
      [
        [
          { name: 'manifest', value: JSON.stringify({ ...manifest, extra: 1 }) },
          { name: 'file', value: file, type: 'image/png' },
        ],
        /^body\/manifest/,
      ],
      [
        fullUpload(file, {
          widgets: [{ name: 'Bad', document: { schemaVersion: 2, widgets: [{ id: 'x', type: 'bogus' }] } }],
        } as Partial<typeof manifest>),
        /^body\/manifest\/widgets\/0\/document\/widgets\/0\/type must be one of/,
      ],
      [
        fullUpload(file, {
          widgets: [
            {
              name: 'Wide',
              document: {
                ...gaugeWidget,
                widgets: [{ ...gaugeWidget.widgets[0], layout: { x: 0, y: 0, w: 99, h: 2 } }],
              },
            },
          ],
        } as Partial<typeof manifest>),
        /^body\/manifest\/widgets\/0\/document\/widgets\/0\/layout\/w/,
      ],
      [[{ name: 'manifest', value: JSON.stringify(manifest) }], /^body\/file is required/],
      [[{ name: 'file', value: file, type: 'image/png' }], /^body\/manifest is required/],
      [
        [
          { name: 'manifest', value: JSON.stringify(manifest) },
          { name: 'file', value: Buffer.from('MZ binary'), type: 'image/png' },
        ],
        /^body\/file is not a PNG image/,
      ],
      [
        [
          { name: 'manifest', value: JSON.stringify(manifest) },
          { name: 'file', value: file, type: 'application/zip' },
        ],
        /^body\/file content-type must be one of/,
      ],
      [
        [...fullUpload(file), { name: 'other', value: 'x' }],
        /^body\/other is not expected|^body must hold only/,
      ],
    ];
    for (const [parts, message] of refusals) {
      const answer = await uploadGallery(token.admin, 'broken', parts);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    const notMultipart = await call('PUT', `${BASE}/gallery/assets/broken/upload`, token.admin, manifest);
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().message).toMatch(/^body must be multipart\/form-data/);
    const badName = await uploadGallery(token.admin, '-dash', fullUpload(file));
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toMatch(/^params\/a must match pattern/);
    expect(await galleryRows(tenants.orgA.id)).toEqual(before);
  });

  it('refuses a file over 10 MiB and an upload past the storage limit', async () => {
    const huge = await uploadGallery(token.admin, 'huge', fullUpload(png(10 * 1024 * 1024 + 1)));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toMatch(/^body\/file is larger than 10 MiB/);
    const full = await uploadGallery(token.admin, 'big', fullUpload(png(LIMIT - 2000 + 1)));
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toMatch(/^asset storage is full/);
    expect((await galleryRows(tenants.orgA.id)).map((row) => row.name)).toEqual(['plant-icons']);
    const storage = await call('GET', `${BASE}/assetstorage`, token.admin);
    expect(storage.json()).toEqual({ usedBytes: 2000, limitBytes: LIMIT, assets: 1 });
    expect(await storedBlobNames(server, `gallery/${tenants.orgA.id}`)).toHaveLength(1);
  });

  it('lets only holders of UPDATE on dashboards upload and delete', async () => {
    const upload = await uploadGallery(token.reader, 'mine', fullUpload(file));
    expect(upload.statusCode).toBe(403);
    const del = await call('DELETE', `${BASE}/gallery/assets/plant-icons`, token.reader);
    expect(del.statusCode).toBe(403);
    expect((await galleryRows(tenants.orgA.id)).map((row) => row.name)).toEqual(['plant-icons']);
  });

  it('keeps other organizations out of the gallery and changes nothing', async () => {
    const before = await galleryRows(tenants.orgA.id);
    const manifestC = await call('GET', `${BASE}/organizations/manifest`, token.adminC);
    expect(manifestC.json()).toEqual({
      organizationId: expect.not.stringMatching(tenants.orgA.id),
      assets: [],
    });
    expect((await call('GET', `${BASE}/organizations/gallery/widgets`, token.adminC)).json()).toEqual([]);
    const foreign = [
      await call('GET', `${BASE}/gallery/assets/plant-icons/manifest`, token.adminC),
      await call('GET', `${BASE}/gallery/assets/plant-icons/download`, token.adminC),
      await call('DELETE', `${BASE}/gallery/assets/plant-icons`, token.adminC),
    ];
    expect(foreign.map((answer) => answer.statusCode)).toEqual([404, 404, 404]);
    for (const answer of foreign) expect(answer.body).not.toContain('Plant icons');
    const iotOff = [
      await call('GET', `${BASE}/organizations/manifest`, token.adminB),
      await call('GET', `${BASE}/gallery/assets/plant-icons/manifest`, token.adminB),
      await call('DELETE', `${BASE}/gallery/assets/plant-icons`, token.adminB),
      await uploadGallery(token.adminB, 'plant-icons', fullUpload(file)),
    ];
    for (const answer of iotOff) expect([403, 404]).toContain(answer.statusCode);
    // C's upload of the same name is C's own asset.
    const own = await uploadGallery(token.adminC, 'plant-icons', fullUpload(png(500)));
    expect(own.statusCode, own.body).toBe(200);
    expect(await galleryRows(tenants.orgA.id)).toEqual(before);
    const mineAgain = await call('GET', `${BASE}/gallery/assets/plant-icons/download`, token.admin);
    expect(mineAgain.rawPayload.length).toBe(2000);
  });

  it('deletes a gallery asset with its file, audited', async () => {
    const deleted = await call('DELETE', `${BASE}/gallery/assets/plant-icons`, token.admin);
    expect(deleted.statusCode).toBe(204);
    expect(await galleryRows(tenants.orgA.id)).toEqual([]);
    expect(await storedBlobNames(server, `gallery/${tenants.orgA.id}`)).toEqual([]);
    expect((await call('GET', `${BASE}/gallery/assets/plant-icons/manifest`, token.admin)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${BASE}/gallery/assets/plant-icons`, token.admin)).statusCode).toBe(404);
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'dashboards.gallery.delete'), eq(auditLog.organizationId, tenants.orgA.id)),
      );
    expect(audits).toHaveLength(1);
  });
});
