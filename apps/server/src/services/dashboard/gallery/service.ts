import { dashboards as contract } from '@edgeport/contract';
import { readDocument, type WidgetDocument } from '@edgeport/dashboard-schema';
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { newBlobKey } from '../../../blob/blob-store.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { dashboardOrganization } from '../access.ts';
import { checkImage } from '../assets/content.ts';
import { type AssetContext, storeWithinLimit } from '../assets/service.ts';
import * as store from './store.ts';

type GalleryManifest = contract.GalleryManifest;
type GalleryAsset = Static<typeof contract.GalleryAsset>;
type GalleryWidget = Static<typeof contract.GalleryWidget>;

/** What an upload carried: the manifest field's text and the file part. */
export type GalleryUpload = {
  manifest: string | undefined;
  file: { contentType: string | undefined; bytes: Buffer } | undefined;
};

const manifestChecker = Compile(contract.GalleryManifest);

/**
 * The manifest of an upload: JSON of the GalleryManifest shape whose widgets' documents are widget documents of
 * `@edgeport/dashboard-schema` (brought to the current schema version). Errors name the field (`body/manifest/...`).
 */
export function readManifest(text: string | undefined): GalleryManifest {
  const at = 'body/manifest';
  if (text === undefined) throw badRequest(`${at} is required (a JSON field of the multipart upload)`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw badRequest(`${at} must be JSON: ${error instanceof Error ? error.message : 'not parsable'}`);
  }
  if (!manifestChecker.Check(raw)) {
    const [first] = manifestChecker.Errors(raw);
    throw badRequest(`${at}${first?.instancePath ?? ''} ${first?.message ?? 'is not a gallery manifest'}`);
  }
  const manifest = raw as GalleryManifest;
  const widgets = manifest.widgets.map((widget, index) => {
    const read = readDocument('widget', widget.document, `${at}/widgets/${index}/document`);
    if (!read.ok) throw badRequest(read.errors.join('; '));
    return { ...widget, document: read.document };
  });
  return { ...manifest, widgets };
}

function toGalleryAsset(row: store.GalleryRow): GalleryAsset {
  return {
    name: row.name,
    manifest: row.manifest as GalleryManifest,
    contentType: row.contentType,
    size: row.size,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every gallery asset of the caller's organization with its manifest. */
export async function organizationManifest(ctx: AssetContext, principal: Principal) {
  const org = await dashboardOrganization(ctx.db, principal, 'READ');
  const rows = await store.listGallery(ctx.db, org.id);
  return { organizationId: org.id, assets: rows.map(toGalleryAsset) };
}

/**
 * Every widget of every gallery manifest, each document checked and brought to the current schema version; a widget
 * whose stored document no longer reads is left out.
 */
export async function galleryWidgets(ctx: AssetContext, principal: Principal): Promise<GalleryWidget[]> {
  const org = await dashboardOrganization(ctx.db, principal, 'READ');
  const rows = await store.listGallery(ctx.db, org.id);
  return rows.flatMap((row) =>
    (row.manifest as GalleryManifest).widgets.flatMap((widget) => {
      const read = readDocument('widget', widget.document);
      if (!read.ok) return [];
      const document: WidgetDocument = read.document;
      return [{ asset: row.name, name: widget.name, description: widget.description ?? '', document }];
    }),
  );
}

async function galleryAsset(ctx: AssetContext, principal: Principal, name: string) {
  const org = await dashboardOrganization(ctx.db, principal, 'READ');
  const row = await store.findGalleryAsset(ctx.db, org.id, name);
  if (!row) throw notFound(`gallery asset '${name}' not found`);
  return row;
}

export async function galleryManifest(ctx: AssetContext, principal: Principal, name: string) {
  return (await galleryAsset(ctx, principal, name)).manifest as GalleryManifest;
}

export async function downloadGalleryAsset(ctx: AssetContext, principal: Principal, name: string) {
  const asset = await galleryAsset(ctx, principal, name);
  const body = await ctx.blobs.get(asset.blobKey);
  if (!body) throw notFound(`the file of gallery asset '${name}' is missing`);
  return { asset, body };
}

/** Refuses a caller who may not change the gallery (UPDATE dashboards), before the upload's body is read. */
export async function mayUpload(ctx: AssetContext, principal: Principal): Promise<void> {
  await dashboardOrganization(ctx.db, principal, 'UPDATE');
}

/**
 * Adds (or replaces) a gallery asset: its manifest and its file (an image, checked like dashboard assets), within
 * the organization's asset storage (UPDATE dashboards).
 */
export async function uploadGalleryAsset(
  ctx: AssetContext,
  principal: Principal,
  name: string,
  upload: GalleryUpload,
): Promise<GalleryAsset> {
  const { db } = ctx;
  const org = await dashboardOrganization(db, principal, 'UPDATE');
  const manifest = readManifest(upload.manifest);
  if (!upload.file) throw badRequest('body/file is required (the file part of the multipart upload)');
  const bytes = upload.file.bytes;
  const contentType = checkImage(upload.file.contentType, bytes, 'body/file');
  const blobKey = newBlobKey(`gallery/${org.id}`);
  const outcome = await storeWithinLimit(ctx, org.id, blobKey, bytes, {
    previous: (tx) => store.findGalleryAsset(tx, org.id, name),
    save: (tx) =>
      store.saveGalleryAsset(tx, {
        organizationId: org.id,
        name,
        manifest: manifest as unknown as Record<string, unknown>,
        contentType,
        size: bytes.length,
        blobKey,
        uploadedBy: principal.userId,
      }),
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'dashboards.gallery.upload',
    resourceType: 'dashboards',
    resourceName: name,
    detail: {
      asset: name,
      widgets: manifest.widgets.length,
      contentType,
      size: bytes.length,
      replaced: outcome.previous !== undefined,
    },
  });
  return toGalleryAsset(outcome.saved);
}

export async function deleteGalleryAsset(ctx: AssetContext, principal: Principal, name: string) {
  const org = await dashboardOrganization(ctx.db, principal, 'UPDATE');
  const deleted = await store.deleteGalleryAsset(ctx.db, org.id, name);
  if (!deleted) throw notFound(`gallery asset '${name}' not found`);
  await ctx.blobs.delete(deleted.blobKey);
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'dashboards.gallery.delete',
    resourceType: 'dashboards',
    resourceName: name,
    detail: { asset: name, size: deleted.size },
  });
}
