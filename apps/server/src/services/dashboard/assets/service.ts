import type { dashboards as contract } from '@edgeport/contract';
import type { Static } from 'typebox';
import type { BlobStore } from '../../../blob/blob-store.ts';
import { newBlobKey } from '../../../blob/blob-store.ts';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import { conflict, forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import type { ServiceContext } from '../../mount.ts';
import { newSecret, secretHash } from '../../vpn/secrets.ts';
import { dashboardOrganization, dashboardWithAccess } from '../access.ts';
import { checkImage } from './content.ts';
import * as store from './store.ts';

/** What the asset and gallery calls need from the composition root. */
export type AssetContext = { db: Db; blobs: BlobStore; clock: Clock; limitBytes: number };

export function assetContext({
  database,
  blobs,
  clock,
  config,
}: Pick<ServiceContext, 'database' | 'blobs' | 'clock' | 'config'>): AssetContext {
  return { db: database.db, blobs, clock, limitBytes: config.assetStorageLimitBytes };
}

/** How long an upload URL may be used. */
export const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;
export const ASSETS_BASE = '/svc/dashboard/api/v1/dashboards';

const MIB = 1024 * 1024;
const inMiB = (bytes: number) => `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MiB`;

export function toAsset(row: store.AssetRow): contract.Asset {
  return {
    dashboardId: row.dashboardId,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The asset's URL below the service (the name is encoded: it may hold spaces). */
export function assetPath(dashboardId: string, name: string): string {
  return `${ASSETS_BASE}/${dashboardId}/assets/${encodeURIComponent(name)}`;
}

/** The storage refusal when `incoming` more bytes would pass the organization's limit. */
export function storageFull(usedBytes: number, incoming: number, limitBytes: number) {
  return conflict(
    `asset storage is full: the organization stores ${inMiB(usedBytes)} of ${inMiB(limitBytes)} and this file ` +
      `needs ${inMiB(incoming)}; delete assets or gallery files first`,
  );
}

/**
 * Stores a checked file within the organization's asset storage, replacing the file of the same name: the bytes go
 * to the blob store first (outside the transaction), then, under the organization's storage lock, `previous` finds
 * the row being replaced (after any check of its own), the limit is checked without it, and `save` writes the row.
 * A refusal or failure removes the new bytes; a success removes the replaced ones.
 */
export async function storeWithinLimit<Row extends { size: number; blobKey: string }>(
  ctx: AssetContext,
  organizationId: string,
  blobKey: string,
  bytes: Buffer,
  steps: { previous: (tx: Db) => Promise<Row | undefined>; save: (tx: Db) => Promise<Row> },
): Promise<{ saved: Row; previous: Row | undefined }> {
  await ctx.blobs.put(blobKey, bytes);
  let outcome: { saved: Row; previous: Row | undefined };
  try {
    outcome = await store.inStorageLock(ctx.db, organizationId, async (tx) => {
      const previous = await steps.previous(tx);
      const { usedBytes } = await store.storageUsage(tx, organizationId);
      const before = usedBytes - (previous?.size ?? 0);
      if (before + bytes.length > ctx.limitBytes) throw storageFull(before, bytes.length, ctx.limitBytes);
      return { saved: await steps.save(tx), previous };
    });
  } catch (error) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
  if (outcome.previous) await ctx.blobs.delete(outcome.previous.blobKey);
  return outcome;
}

/**
 * A one-time URL to PUT the asset's bytes to (editors and owners). Only the sha256 of its token is stored; it is for
 * this dashboard, this name and this user, for ten minutes.
 */
export async function uploadUrl(
  ctx: AssetContext,
  principal: Principal,
  dashboardId: string,
  name: string,
): Promise<Static<typeof contract.UploadUrl>> {
  const { org, row } = await dashboardWithAccess(ctx.db, principal, 'dashboard', dashboardId, 'r/w');
  const token = newSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_TTL_MS);
  await store.insertUpload(
    ctx.db,
    {
      tokenHash: secretHash(token),
      organizationId: org.id,
      dashboardId: row.id,
      name,
      userId: principal.userId,
      expiresAt,
    },
    now,
  );
  return { url: `${assetPath(row.id, name)}?token=${token}`, expiresAt: expiresAt.toISOString() };
}

/**
 * The PUT of an upload URL: the caller (still an editor) sends the token handed to them and the image's bytes. The
 * file is checked (type by header and by content, size), stored, and replaces an asset of the same name; the token
 * is used up only when the asset is saved.
 */
export async function putAsset(
  ctx: AssetContext,
  principal: Principal,
  dashboardId: string,
  name: string,
  upload: { token: string; contentType: string | undefined; body: unknown },
): Promise<contract.Asset> {
  const { db } = ctx;
  const { org, row } = await dashboardWithAccess(db, principal, 'dashboard', dashboardId, 'r/w');
  const tokenHash = secretHash(upload.token);
  const unusable = () => forbidden('the upload URL is unknown, already used or expired: ask for a new one');
  const pending = await store.findUpload(
    db,
    { tokenHash, organizationId: org.id, dashboardId: row.id, name, userId: principal.userId },
    ctx.clock.now(),
  );
  if (!pending) throw unusable();
  const bytes = Buffer.isBuffer(upload.body) ? upload.body : Buffer.alloc(0);
  const contentType = checkImage(upload.contentType, bytes, 'body');
  const blobKey = newBlobKey(`dashboard-assets/${org.id}`);
  const outcome = await storeWithinLimit(ctx, org.id, blobKey, bytes, {
    previous: async (tx) => {
      if (!(await store.consumeUpload(tx, tokenHash))) throw unusable();
      return store.findAsset(tx, org.id, row.id, name);
    },
    save: (tx) =>
      store.saveAsset(tx, {
        organizationId: org.id,
        dashboardId: row.id,
        name,
        contentType,
        size: bytes.length,
        blobKey,
      }),
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'dashboards.asset.upload',
    resourceType: 'dashboards',
    resourceId: row.id,
    resourceName: row.name,
    detail: { asset: name, contentType, size: bytes.length, replaced: outcome.previous !== undefined },
  });
  return toAsset(outcome.saved);
}

export async function listAssets(ctx: AssetContext, principal: Principal, dashboardId: string) {
  const { org, row } = await dashboardWithAccess(ctx.db, principal, 'dashboard', dashboardId, 'r');
  return (await store.listAssets(ctx.db, org.id, row.id)).map(toAsset);
}

/** The asset's row and a stream of its bytes (readers too). */
export async function downloadAsset(
  ctx: AssetContext,
  principal: Principal,
  dashboardId: string,
  name: string,
) {
  const { org, row } = await dashboardWithAccess(ctx.db, principal, 'dashboard', dashboardId, 'r');
  const asset = await store.findAsset(ctx.db, org.id, row.id, name);
  if (!asset) throw notFound(`asset '${name}' not found`);
  const body = await ctx.blobs.get(asset.blobKey);
  if (!body) throw notFound(`the file of asset '${name}' is missing`);
  return { asset, body };
}

export async function deleteAsset(
  ctx: AssetContext,
  principal: Principal,
  dashboardId: string,
  name: string,
) {
  const { org, row } = await dashboardWithAccess(ctx.db, principal, 'dashboard', dashboardId, 'r/w');
  const deleted = await store.deleteAsset(ctx.db, org.id, row.id, name);
  if (!deleted) throw notFound(`asset '${name}' not found`);
  await ctx.blobs.delete(deleted.blobKey);
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'dashboards.asset.delete',
    resourceType: 'dashboards',
    resourceId: row.id,
    resourceName: row.name,
    detail: { asset: name, size: deleted.size },
  });
}

/** How much of its asset storage the caller's organization uses (dashboard assets and gallery files). */
export async function assetStorage(
  ctx: AssetContext,
  principal: Principal,
): Promise<Static<typeof contract.AssetStorage>> {
  const org = await dashboardOrganization(ctx.db, principal, 'READ');
  const usage = await store.storageUsage(ctx.db, org.id);
  return { usedBytes: usage.usedBytes, limitBytes: ctx.limitBytes, assets: usage.assets };
}

/**
 * For deleting a dashboard (the rows go with it by cascade, the files would stay): call this BEFORE deleting the
 * dashboard's row, and the function it answers AFTER the delete succeeded; it removes the asset files.
 */
export async function assetFileCleanup(
  db: Db,
  blobs: BlobStore,
  organizationId: string,
  dashboardId: string,
): Promise<() => Promise<void>> {
  const keys = await store.assetBlobKeys(db, organizationId, dashboardId);
  return async () => {
    for (const key of keys) await blobs.delete(key);
  };
}
