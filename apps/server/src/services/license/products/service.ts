import type { licenseProducts } from '@edgeport/contract';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import * as store from './store.ts';

export function toVersion(row: store.VersionRow): licenseProducts.ProductVersion {
  return {
    version: row.version,
    quantity: row.quantity,
    termDays: row.termDays,
    priceMinor: row.priceMinor,
    currency: row.currency,
    vpn: row.vpn,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toProduct(row: store.ProductWithVersion): licenseProducts.Product {
  return {
    id: row.id,
    organizationId: row.organizationId,
    code: row.code,
    name: row.name,
    description: row.description,
    resourceType: row.resourceType,
    currentVersion: row.currentVersion,
    current: toVersion(row.current),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if ((current as { code?: unknown }).code === '23503') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Only a dealer or a top-level organization sells products. */
function assertSeller(org: OrganizationRow): void {
  if (!org.dealer && org.parentId !== null) {
    throw forbidden('only a dealer organization or a top-level organization sells products');
  }
}

function versionValues(
  resourceType: licenseProducts.ResourceType,
  input: licenseProducts.ProductVersionCreate,
): store.VersionValues {
  if (input.vpn && resourceType !== 'devices') throw badRequest('body/vpn applies to devices products only');
  return {
    quantity: input.quantity,
    termDays: input.termDays,
    priceMinor: input.priceMinor,
    currency: input.currency,
    vpn: input.vpn ?? false,
  };
}

async function productOf(db: Db, org: OrganizationRow, id: string): Promise<store.ProductWithVersion> {
  const row = await store.findProduct(db, org.id, id);
  if (!row) throw notFound(`product '${id}' not found`);
  return row;
}

export async function listProducts(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.ProductListQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'products');
  const page = await store.pageOfProducts(db, org.id, query);
  return { ...page, items: page.items.map(toProduct) };
}

export async function countProducts(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.ProductCountQuery,
): Promise<licenseProducts.Count> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'products');
  return { count: await store.countProducts(db, org.id, query) };
}

export async function getProduct(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'products');
  return toProduct(await productOf(db, org, id));
}

export async function createProduct(
  db: Db,
  principal: Principal,
  ref: string,
  input: licenseProducts.ProductCreate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'products');
  assertSeller(org);
  const code = input.code.trim();
  const version = versionValues(input.resourceType, input);
  const taken = () => conflict(`code: this organization already has a product '${code}'`);
  if (await store.codeTaken(db, org.id, code)) throw taken();
  let created: store.ProductWithVersion;
  try {
    created = await db.transaction(async (transaction) =>
      store.insertProduct(
        transaction as unknown as Db,
        {
          organizationId: org.id,
          code,
          name: input.name.trim(),
          description: input.description ?? '',
          resourceType: input.resourceType,
        },
        version,
      ),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'products.create',
    resourceType: 'products',
    resourceId: created.id,
    resourceName: created.name,
    detail: { code, resourceType: input.resourceType, version: toVersion(created.current) },
  });
  return toProduct(created);
}

export async function updateProduct(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: licenseProducts.ProductUpdate,
  now: Date,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'products');
  const before = await productOf(db, org, id);
  const changes = {
    ...(input.name !== undefined && { name: input.name.trim() }),
    ...(input.description !== undefined && { description: input.description }),
  };
  await store.updateProduct(db, org.id, id, changes, now);
  const after = await productOf(db, org, id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'products.update',
    resourceType: 'products',
    resourceId: id,
    resourceName: after.name,
    detail: { changes, before: { name: before.name, description: before.description } },
  });
  return toProduct(after);
}

/** Deletes a product no licence was ever issued of (409 otherwise: licences keep their product). */
export async function deleteProduct(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'products');
  const product = await productOf(db, org, id);
  const licences = await store.licenseCountOf(db, id);
  if (licences > 0) {
    throw conflict(`product '${product.code}' has ${licences} licence(s); it cannot be deleted`);
  }
  try {
    if (!(await store.deleteProduct(db, org.id, id))) throw notFound(`product '${id}' not found`);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw conflict(`product '${product.code}' has licences; it cannot be deleted`);
    }
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'products.delete',
    resourceType: 'products',
    resourceId: id,
    resourceName: product.name,
    detail: { code: product.code },
  });
}

export async function listVersions(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'products');
  await productOf(db, org, id);
  return { items: (await store.versionsOf(db, id)).map(toVersion) };
}

/** A new version (what one licence unit grants, its term and price); it becomes current. Issued licences keep theirs. */
export async function createVersion(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: licenseProducts.ProductVersionCreate,
  now: Date,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'products');
  const product = await productOf(db, org, id);
  const values = versionValues(product.resourceType, input);
  const row = await db.transaction(async (transaction) =>
    store.addVersion(transaction as unknown as Db, product, values, now),
  );
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'products.version',
    resourceType: 'products',
    resourceId: id,
    resourceName: product.name,
    detail: { version: toVersion(row), previous: product.currentVersion },
  });
  return toVersion(row);
}
