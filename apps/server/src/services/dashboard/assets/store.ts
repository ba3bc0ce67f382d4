import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { dashboardAssets, dashboardAssetUploads, galleryAssets, organizations } from '../../../db/schema.ts';

export type AssetRow = typeof dashboardAssets.$inferSelect;
export type UploadRow = typeof dashboardAssetUploads.$inferSelect;

/**
 * Runs `work` in a transaction that holds the organization's row locked: uploads of one organization are checked
 * against its storage limit one after the other, so two parallel uploads cannot both slip under it.
 */
export async function inStorageLock<T>(
  db: Db,
  organizationId: string,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    return work(tx);
  });
}

/** The bytes and number of files of one table of files (dashboard assets or gallery files) of the organization. */
async function filesIn(db: Db, table: typeof dashboardAssets | typeof galleryAssets, organizationId: string) {
  const [sum] = await db
    .select({
      bytes: sql<string>`coalesce(sum(${table.size}), 0)`,
      count: sql<number>`count(*)::int`,
    })
    .from(table)
    .where(eq(table.organizationId, organizationId));
  return { bytes: Number(sum?.bytes ?? 0), count: sum?.count ?? 0 };
}

/** The bytes and number of files the organization stores: dashboard assets and gallery files. */
export async function storageUsage(
  db: Db,
  organizationId: string,
): Promise<{ usedBytes: number; assets: number }> {
  const assets = await filesIn(db, dashboardAssets, organizationId);
  const gallery = await filesIn(db, galleryAssets, organizationId);
  return { usedBytes: assets.bytes + gallery.bytes, assets: assets.count + gallery.count };
}

/** The assets of one dashboard, within its organization. */
const ofDashboard = (organizationId: string, dashboardId: string) =>
  and(eq(dashboardAssets.organizationId, organizationId), eq(dashboardAssets.dashboardId, dashboardId));

/** One asset by name, within its dashboard and organization. */
const oneAsset = (organizationId: string, dashboardId: string, name: string) =>
  and(ofDashboard(organizationId, dashboardId), eq(dashboardAssets.name, name));

export async function listAssets(db: Db, organizationId: string, dashboardId: string): Promise<AssetRow[]> {
  return db
    .select()
    .from(dashboardAssets)
    .where(ofDashboard(organizationId, dashboardId))
    .orderBy(asc(dashboardAssets.name));
}

export async function findAsset(
  db: Db,
  organizationId: string,
  dashboardId: string,
  name: string,
): Promise<AssetRow | undefined> {
  const [row] = await db
    .select()
    .from(dashboardAssets)
    .where(oneAsset(organizationId, dashboardId, name));
  return row;
}

/** Adds the asset or replaces the one of the same name; answers the row now stored. */
export async function saveAsset(
  db: Db,
  asset: Pick<AssetRow, 'organizationId' | 'dashboardId' | 'name' | 'contentType' | 'size' | 'blobKey'>,
): Promise<AssetRow> {
  const [row] = await db
    .insert(dashboardAssets)
    .values(asset)
    .onConflictDoUpdate({
      target: [dashboardAssets.dashboardId, dashboardAssets.name],
      set: {
        contentType: asset.contentType,
        size: asset.size,
        blobKey: asset.blobKey,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!row) throw new Error('asset upsert returned nothing');
  return row;
}

export async function deleteAsset(
  db: Db,
  organizationId: string,
  dashboardId: string,
  name: string,
): Promise<AssetRow | undefined> {
  const [row] = await db
    .delete(dashboardAssets)
    .where(oneAsset(organizationId, dashboardId, name))
    .returning();
  return row;
}

/** The blob keys of every asset of a dashboard (to remove the files when the dashboard goes). */
export async function assetBlobKeys(db: Db, organizationId: string, dashboardId: string): Promise<string[]> {
  const rows = await db
    .select({ blobKey: dashboardAssets.blobKey })
    .from(dashboardAssets)
    .where(ofDashboard(organizationId, dashboardId));
  return rows.map((row) => row.blobKey);
}

/** Stores a pending upload, dropping the expired ones of every organization on the way. */
export async function insertUpload(db: Db, upload: UploadRow, now: Date): Promise<void> {
  await db.delete(dashboardAssetUploads).where(lt(dashboardAssetUploads.expiresAt, now));
  await db.insert(dashboardAssetUploads).values(upload);
}

/** The pending upload with this token hash, for exactly this dashboard, asset name and user, not expired. */
export async function findUpload(
  db: Db,
  where: { tokenHash: string; organizationId: string; dashboardId: string; name: string; userId: string },
  now: Date,
): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(dashboardAssetUploads)
    .where(
      and(
        eq(dashboardAssetUploads.tokenHash, where.tokenHash),
        eq(dashboardAssetUploads.organizationId, where.organizationId),
        eq(dashboardAssetUploads.dashboardId, where.dashboardId),
        eq(dashboardAssetUploads.name, where.name),
        eq(dashboardAssetUploads.userId, where.userId),
      ),
    );
  return row && row.expiresAt.getTime() > now.getTime() ? row : undefined;
}

/** Uses the upload up: true when this call removed it (a second, parallel PUT with the same token gets false). */
export async function consumeUpload(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(dashboardAssetUploads)
    .where(eq(dashboardAssetUploads.tokenHash, tokenHash))
    .returning({ tokenHash: dashboardAssetUploads.tokenHash });
  return rows.length > 0;
}
