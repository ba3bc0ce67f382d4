import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { galleryAssets } from '../../../db/schema.ts';

export type GalleryRow = typeof galleryAssets.$inferSelect;

export async function listGallery(db: Db, organizationId: string): Promise<GalleryRow[]> {
  return db
    .select()
    .from(galleryAssets)
    .where(eq(galleryAssets.organizationId, organizationId))
    .orderBy(asc(galleryAssets.name));
}

export async function findGalleryAsset(
  db: Db,
  organizationId: string,
  name: string,
): Promise<GalleryRow | undefined> {
  const [row] = await db
    .select()
    .from(galleryAssets)
    .where(and(eq(galleryAssets.organizationId, organizationId), eq(galleryAssets.name, name)));
  return row;
}

/** Adds the gallery asset or replaces the one of the same name in the organization. */
export async function saveGalleryAsset(
  db: Db,
  asset: Pick<
    GalleryRow,
    'organizationId' | 'name' | 'manifest' | 'contentType' | 'size' | 'blobKey' | 'uploadedBy'
  >,
): Promise<GalleryRow> {
  const [row] = await db
    .insert(galleryAssets)
    .values(asset)
    .onConflictDoUpdate({
      target: [galleryAssets.organizationId, galleryAssets.name],
      set: {
        manifest: asset.manifest,
        contentType: asset.contentType,
        size: asset.size,
        blobKey: asset.blobKey,
        uploadedBy: asset.uploadedBy,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  if (!row) throw new Error('gallery upsert returned nothing');
  return row;
}

export async function deleteGalleryAsset(
  db: Db,
  organizationId: string,
  name: string,
): Promise<GalleryRow | undefined> {
  const [row] = await db
    .delete(galleryAssets)
    .where(and(eq(galleryAssets.organizationId, organizationId), eq(galleryAssets.name, name)))
    .returning();
  return row;
}
