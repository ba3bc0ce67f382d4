import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBlobNames } from '../../../../test/support/blobs.ts';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  dashboardAssets,
  dashboardAssetUploads,
  dashboardShares,
  dashboards,
} from '../../../db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../../core/organizations/provisioning.ts';
import { MAX_FILE_BYTES } from './content.ts';

const HOST = 'acme.app.localhost:8080';
const BASE = '/svc/dashboard/api/v1';
const LIMIT = 300_000;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_MAGIC, randomBytes(size - PNG_MAGIC.length)]);
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]);
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);

let server: TestServer;
let dataDir: string;
let call: ReturnType<typeof caller>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
const token: Record<'admin' | 'owner' | 'editor' | 'reader' | 'stranger' | 'adminB' | 'adminC', string> = {
  admin: '',
  owner: '',
  editor: '',
  reader: '',
  stranger: '',
  adminB: '',
  adminC: '',
};
const ids = { board: '', other: '', flow: '', boardC: '', orgC: '' };

const assetUrl = (dashboardId: string, name: string) =>
  `${BASE}/dashboards/${dashboardId}/assets/${encodeURIComponent(name)}`;

async function uploadUrl(bearer: string, dashboardId: string, name: string) {
  return call('GET', `${assetUrl(dashboardId, name)}/upload`, bearer);
}

async function put(url: string, bearer: string, bytes: Buffer | string, contentType: string) {
  return server.app.inject({
    method: 'PUT',
    url,
    headers: { host: HOST, authorization: `Bearer ${bearer}`, 'content-type': contentType },
    payload: bytes,
  });
}

/** Asks for an upload URL and PUTs the bytes to it; the PUT's answer. */
async function upload(bearer: string, dashboardId: string, name: string, bytes: Buffer, contentType: string) {
  const answer = await uploadUrl(bearer, dashboardId, name);
  expect(answer.statusCode, answer.body).toBe(200);
  return put(answer.json().url, bearer, bytes, contentType);
}

async function download(bearer: string, dashboardId: string, name: string) {
  return call('GET', `${assetUrl(dashboardId, name)}/download`, bearer);
}

async function assetRows(dashboardId: string) {
  return server.database.db
    .select()
    .from(dashboardAssets)
    .where(eq(dashboardAssets.dashboardId, dashboardId));
}

async function blobFiles(organizationId: string): Promise<string[]> {
  return storedBlobNames(server, `dashboard-assets/${organizationId}`);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'edgeport-assets-'));
  server = await startTestServer({ dataDir, assetStorageLimitBytes: LIMIT });
  call = caller(server);
  tenants = await seedTenants(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  const userOf = (email: string) =>
    userWithRole(server, 'acme', orgA.id, email, [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
    ]);
  const owner = await userOf('owner@acme-a.test');
  const editor = await userOf('editor@acme-a.test');
  const reader = await userOf('reader@acme-a.test');
  const stranger = await userOf('stranger@acme-a.test');
  // A third organization with IoT on: its administrator may use dashboards, only not A's.
  const orgC = await createOrganization(db, { realm: 'acme', name: 'Org C', resourceId: 'acme-c' });
  const rolesC = await addDefaultRoles(db, orgC.id);
  const adminC = await createUser(db, { realm: 'acme', email: 'admin@acme-c.test', password: PASSWORD });
  await addMember(db, orgC.id, adminC.id, [rolesC.administrator.id]);
  ids.orgC = orgC.id;

  const [board] = await db
    .insert(dashboards)
    .values({ organizationId: orgA.id, kind: 'dashboard', name: 'Line 1', ownerId: owner.id })
    .returning();
  const [other] = await db
    .insert(dashboards)
    .values({ organizationId: orgA.id, kind: 'dashboard', name: 'Line 2', ownerId: owner.id })
    .returning();
  const [flow] = await db
    .insert(dashboards)
    .values({ organizationId: orgA.id, kind: 'flow', name: 'A flow', ownerId: owner.id })
    .returning();
  const [boardC] = await db
    .insert(dashboards)
    .values({ organizationId: orgC.id, kind: 'dashboard', name: 'C board', ownerId: adminC.id })
    .returning();
  if (!board || !other || !flow || !boardC) throw new Error('dashboard insert returned nothing');
  ids.board = board.id;
  ids.other = other.id;
  ids.flow = flow.id;
  ids.boardC = boardC.id;
  await db.insert(dashboardShares).values([
    { dashboardId: board.id, userId: editor.id, level: 'r/w' },
    { dashboardId: board.id, userId: reader.id, level: 'r' },
    { dashboardId: other.id, userId: editor.id, level: 'r/w' },
  ]);
  const rpt = async (email: string, resourceId: string) =>
    (await rptFor(server, 'acme', email, resourceId)).rpt;
  token.admin = await rpt(tenants.adminA.email, orgA.resourceId);
  token.owner = await rpt(owner.email, orgA.resourceId);
  token.editor = await rpt(editor.email, orgA.resourceId);
  token.reader = await rpt(reader.email, orgA.resourceId);
  token.stranger = await rpt(stranger.email, orgA.resourceId);
  token.adminB = await rpt(tenants.adminB.email, orgB.resourceId);
  token.adminC = await rpt(adminC.email, orgC.resourceId);
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('uploading through a one-time URL', () => {
  it('hands out a URL that takes the bytes once, and the download gives them back identical', async () => {
    const answer = await uploadUrl(token.editor, ids.board, 'logo plant.png');
    expect(answer.statusCode, answer.body).toBe(200);
    const { url, expiresAt } = answer.json();
    expect(url).toMatch(
      new RegExp(`^${BASE}/dashboards/${ids.board}/assets/logo%20plant\\.png\\?token=[A-Za-z0-9_-]{40,}$`),
    );
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    // Only the token's hash is kept.
    const [pending] = await server.database.db.select().from(dashboardAssetUploads);
    expect(pending?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(url).not.toContain(pending?.tokenHash);

    const bytes = png(5000);
    const stored = await put(url, token.editor, bytes, 'image/png');
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toMatchObject({ dashboardId: ids.board, name: 'logo plant.png', size: 5000 });

    const again = await put(url, token.editor, png(100), 'image/png');
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toMatch(/upload URL is unknown, already used or expired/);

    const file = await download(token.reader, ids.board, 'logo plant.png');
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toMatch(/^private/);
    expect(file.headers['content-security-policy']).toContain('sandbox');

    const list = await call('GET', `${BASE}/dashboards/${ids.board}/assets`, token.reader);
    expect(list.json()).toEqual([
      expect.objectContaining({ name: 'logo plant.png', contentType: 'image/png', size: 5000 }),
    ]);
    expect(await blobFiles(tenants.orgA.id)).toHaveLength(1);
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'dashboards.asset.upload'));
    expect(audit).toMatchObject({
      organizationId: tenants.orgA.id,
      resourceId: ids.board,
      resourceName: 'Line 1',
    });
    expect(audit?.detail).toMatchObject({ asset: 'logo plant.png', size: 5000, replaced: false });
  });

  it('replaces an asset of the same name and removes the old file', async () => {
    const bytes = jpeg(3000);
    const replaced = await upload(token.owner, ids.board, 'logo plant.png', bytes, 'image/jpeg');
    expect(replaced.statusCode, replaced.body).toBe(200);
    const rows = await assetRows(ids.board);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ contentType: 'image/jpeg', size: 3000 });
    expect(await blobFiles(tenants.orgA.id)).toEqual([rows[0]?.blobKey.split('/').at(-1)]);
    expect((await download(token.admin, ids.board, 'logo plant.png')).rawPayload.equals(bytes)).toBe(true);
  });

  it('takes the token only for its dashboard, its name, its user and ten minutes', async () => {
    const { url } = (await uploadUrl(token.editor, ids.board, 'a.png')).json();
    const tokenOnly = new URL(url, 'http://x').search;
    const refused = [
      await put(`${assetUrl(ids.board, 'b.png')}${tokenOnly}`, token.editor, png(50), 'image/png'),
      await put(`${assetUrl(ids.other, 'a.png')}${tokenOnly}`, token.editor, png(50), 'image/png'),
      await put(url, token.owner, png(50), 'image/png'),
      await put(`${assetUrl(ids.board, 'a.png')}?token=guessed`, token.editor, png(50), 'image/png'),
    ];
    expect(refused.map((answer) => answer.statusCode)).toEqual([403, 403, 403, 403]);
    const noBearer = await server.app.inject({
      method: 'PUT',
      url,
      headers: { host: HOST, 'content-type': 'image/png' },
      payload: png(50),
    });
    expect(noBearer.statusCode).toBe(401);
    server.app.clock.advance(11 * 60_000);
    try {
      expect((await put(url, token.editor, png(50), 'image/png')).statusCode).toBe(403);
    } finally {
      server.app.clock.reset();
    }
    expect(await assetRows(ids.other)).toEqual([]);
    expect((await assetRows(ids.board)).map((row) => row.name)).toEqual(['logo plant.png']);
  });

  it('accepts images only, by Content-Type and by content, and keeps the token for a corrected retry', async () => {
    const { url } = (await uploadUrl(token.editor, ids.board, 'pic.png')).json();
    const wrongType = await put(url, token.editor, 'hello', 'text/plain');
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toMatch(/^body content-type must be one of image\/png, image\/jpeg/);
    const octets = await put(url, token.editor, png(100), 'application/octet-stream');
    expect(octets.statusCode).toBe(400);
    const fake = await put(url, token.editor, Buffer.from('<html><script>alert(1)</script>'), 'image/png');
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toBe('body is not a PNG image (its content does not match image/png)');
    const mismatch = await put(url, token.editor, jpeg(100), 'image/png');
    expect(mismatch.statusCode).toBe(400);
    const empty = await put(url, token.editor, Buffer.alloc(0), 'image/png');
    expect(empty.statusCode).toBe(400);
    const scripted = await put(
      url,
      token.editor,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'),
      'image/svg+xml',
    );
    expect(scripted.statusCode).toBe(400);
    expect(scripted.json().message).toMatch(/SVG image with active content/);
    const handler = await put(
      url,
      token.editor,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
      'image/svg+xml',
    );
    expect(handler.statusCode).toBe(400);
    expect(await assetRows(ids.board)).toHaveLength(1);

    const good = await put(url, token.editor, png(100), 'image/png');
    expect(good.statusCode, good.body).toBe(200);
  });

  it('serves SVGs as sandboxed attachments', async () => {
    const stored = await upload(token.editor, ids.board, 'icon.svg', SVG, 'image/svg+xml; charset=utf-8');
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().contentType).toBe('image/svg+xml');
    const file = await download(token.reader, ids.board, 'icon.svg');
    expect(file.rawPayload.equals(SVG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/svg+xml');
    expect(file.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(file.headers['content-disposition']).toBe('attachment; filename="icon.svg"');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a file over 10 MiB with 413 and stores nothing', async () => {
    const { url } = (await uploadUrl(token.editor, ids.board, 'huge.png')).json();
    const answer = await put(url, token.editor, png(MAX_FILE_BYTES + 1), 'image/png');
    expect(answer.statusCode).toBe(413);
    expect(answer.json().message).toBe('body is larger than 10 MiB, the most one file may be');
    expect((await assetRows(ids.board)).map((row) => row.name)).not.toContain('huge.png');
  });

  it('names the field of a bad asset name or dashboard id', async () => {
    const badName = await uploadUrl(token.editor, ids.board, '.hidden');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toMatch(/^params\/name must match pattern/);
    const slash = await call('GET', `${BASE}/dashboards/${ids.board}/assets/..%2Fetc/download`, token.editor);
    expect(slash.statusCode).toBe(400);
    const badId = await call('GET', `${BASE}/dashboards/not-a-uuid/assets`, token.editor);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/^params\/id must match format "uuid"/);
  });
});

describe('who may do what', () => {
  it('lets readers list and download but not upload or delete; strangers see nothing', async () => {
    expect((await uploadUrl(token.reader, ids.board, 'r.png')).statusCode).toBe(403);
    const del = await call('DELETE', assetUrl(ids.board, 'icon.svg'), token.reader);
    expect(del.statusCode).toBe(403);
    expect((await uploadUrl(token.stranger, ids.board, 'r.png')).statusCode).toBe(404);
    expect((await download(token.stranger, ids.board, 'icon.svg')).statusCode).toBe(404);
    expect((await call('GET', `${BASE}/dashboards/${ids.board}/assets`, token.stranger)).statusCode).toBe(
      404,
    );
    // Assets belong to dashboards, not to flows.
    expect((await uploadUrl(token.owner, ids.flow, 'r.png')).statusCode).toBe(404);
    expect((await assetRows(ids.board)).map((row) => row.name).sort()).toEqual([
      'icon.svg',
      'logo plant.png',
      'pic.png',
    ]);
  });

  it("keeps another organization's administrators out and changes nothing", async () => {
    const before = await assetRows(ids.board);
    const { url } = (await uploadUrl(token.editor, ids.board, 'icon.svg')).json();
    const answers = [
      await uploadUrl(token.adminC, ids.board, 'x.png'),
      await download(token.adminC, ids.board, 'icon.svg'),
      await call('GET', `${BASE}/dashboards/${ids.board}/assets`, token.adminC),
      await call('DELETE', assetUrl(ids.board, 'icon.svg'), token.adminC),
      await put(url, token.adminC, png(100), 'image/png'),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404]);
    for (const answer of answers) expect(answer.body).not.toContain('Line 1');
    const iotOff = [
      await uploadUrl(token.adminB, ids.board, 'x.png'),
      await download(token.adminB, ids.board, 'icon.svg'),
      await call('DELETE', assetUrl(ids.board, 'icon.svg'), token.adminB),
      await call('GET', `${BASE}/assetstorage`, token.adminB),
    ];
    for (const answer of iotOff) expect([403, 404]).toContain(answer.statusCode);
    expect(await assetRows(ids.board)).toEqual(before);
    // C's own storage shows none of A's bytes; A's token still works for A's editor.
    expect((await call('GET', `${BASE}/assetstorage`, token.adminC)).json()).toMatchObject({
      usedBytes: 0,
      assets: 0,
    });
    expect((await put(url, token.editor, SVG, 'image/svg+xml')).statusCode).toBe(200);
  });
});

describe('storage limit and deleting', () => {
  it("counts the organization's bytes and refuses an upload that would pass the limit", async () => {
    const usage = await call('GET', `${BASE}/assetstorage`, token.reader);
    expect(usage.statusCode).toBe(200);
    const used = usage.json().usedBytes as number;
    expect(usage.json()).toEqual({
      usedBytes: (await assetRows(ids.board)).reduce((sum, row) => sum + row.size, 0),
      limitBytes: LIMIT,
      assets: 3,
    });
    const room = LIMIT - used;
    const tooMuch = await upload(token.editor, ids.other, 'big.png', png(room + 1), 'image/png');
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toMatch(/^asset storage is full/);
    expect(await assetRows(ids.other)).toEqual([]);
    const filesBefore = await blobFiles(tenants.orgA.id);
    expect(filesBefore).toHaveLength(3);
    const fits = await upload(token.editor, ids.other, 'big.png', png(room), 'image/png');
    expect(fits.statusCode, fits.body).toBe(200);
    // Replacing counts the new size instead of the old one.
    const replace = await upload(token.editor, ids.other, 'big.png', png(room), 'image/png');
    expect(replace.statusCode, replace.body).toBe(200);
    expect((await call('GET', `${BASE}/assetstorage`, token.editor)).json().usedBytes).toBe(LIMIT);
  });

  it('deletes an asset with its file, audited; a second delete is 404', async () => {
    const [row] = await assetRows(ids.other);
    const deleted = await call('DELETE', assetUrl(ids.other, 'big.png'), token.editor);
    expect(deleted.statusCode).toBe(204);
    expect(await assetRows(ids.other)).toEqual([]);
    expect(await blobFiles(tenants.orgA.id)).not.toContain(row?.blobKey.split('/').at(-1));
    expect((await download(token.editor, ids.other, 'big.png')).statusCode).toBe(404);
    expect((await call('DELETE', assetUrl(ids.other, 'big.png'), token.editor)).statusCode).toBe(404);
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dashboards.asset.delete'), eq(auditLog.resourceId, ids.other)));
    expect(audits).toHaveLength(1);
  });
});
