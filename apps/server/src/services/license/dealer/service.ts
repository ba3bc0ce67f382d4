import { type license, licenseProducts } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { ancestry } from '../../../identity/rpt.ts';
import { recordAudit } from '../../audit/service.ts';
import { MAX_ORGANIZATION_DEPTH } from '../../core/organizations/admin-store.ts';
import { addDefaultRoles, createOrganization } from '../../core/organizations/provisioning.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import { findOrganization, type OrganizationRow, realmOwnerId } from '../../core/organizations/store.ts';
import * as lifecycle from '../licenses/lifecycle.ts';
import { announceAll, auditLicense, type LicenseDeps, renewOf, setAutorenewOf } from '../licenses/service.ts';
import * as licenseStore from '../licenses/store.ts';
import * as productStore from '../products/store.ts';
import { authorizeAny, toLicense } from '../service.ts';
import * as deviceLicenseStore from '../store.ts';
import * as store from './store.ts';

export const NOT_A_DEALER =
  'this organization is not a dealer: the dealer area needs the dealer flag, set by an administrator of an ' +
  'ancestor organization (PUT /organizations/{org}/account)';

/** The dealer organization once the caller holds CREATE or UPDATE on products there (spec 6) and it is a dealer. */
export async function dealerOf(db: Db, principal: Principal, ref: string): Promise<OrganizationRow> {
  const org = await authorizeAny(db, principal, ref, [
    ['CREATE', 'products'],
    ['UPDATE', 'products'],
  ]);
  if (!org.dealer) throw forbidden(NOT_A_DEALER);
  return org;
}

async function clientOf(db: Db, dealer: OrganizationRow, id: string): Promise<store.ClientRow> {
  const client = await store.findClient(db, dealer.id, id);
  if (!client) throw notFound(`client '${id}' not found`);
  return client;
}

export function toClient(row: store.ClientRow): licenseProducts.Client {
  return {
    id: row.id,
    resourceId: row.resourceId,
    name: row.name,
    iotEnabled: row.iotEnabled,
    vpnEnabled: row.vpnEnabled,
    dealer: row.dealer,
    hasOwnResources: row.hasOwnResources,
    createdAt: row.createdAt.toISOString(),
    licenseCount: row.licenseCount,
    activeLicenseCount: row.activeLicenseCount,
    deviceCount: row.deviceCount,
  };
}

export async function listClients(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.ClientListQuery,
) {
  const dealer = await dealerOf(db, principal, ref);
  const page = await store.pageOfClients(db, dealer.id, query);
  return { ...page, items: page.items.map(toClient) };
}

/** A client organization: a direct sub-organization of the dealer with the default roles and its own resources. */
export async function createClient(
  db: Db,
  principal: Principal,
  ref: string,
  input: licenseProducts.ClientCreate,
) {
  const dealer = await dealerOf(db, principal, ref);
  if ((await ancestry(db, dealer)).length >= MAX_ORGANIZATION_DEPTH) {
    throw badRequest(`organizations nest at most ${MAX_ORGANIZATION_DEPTH} levels deep`);
  }
  const row = await lifecycle.inTransaction(db, async (tx) => {
    const created = await createOrganization(tx, {
      realm: dealer.realm,
      name: input.name.trim(),
      parentId: dealer.id,
      iotEnabled: input.iotEnabled ?? dealer.iotEnabled,
      vpnEnabled: input.vpnEnabled ?? dealer.vpnEnabled,
    });
    await addDefaultRoles(tx, created.id);
    return created;
  });
  const detail = {
    parentId: dealer.id,
    iotEnabled: row.iotEnabled,
    vpnEnabled: row.vpnEnabled,
    addDefaultRoles: true,
    through: 'dealer',
  };
  await recordAudit(db, principal, {
    organizationId: dealer.id,
    action: 'organizations.create',
    resourceType: 'organizations',
    resourceId: row.id,
    resourceName: row.name,
    detail,
  });
  return toClient({ ...row, licenseCount: 0, activeLicenseCount: 0, deviceCount: 0 });
}

/** The client with the licences it holds, its device licences and what it is granted and uses per resource type. */
export async function getClient(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<licenseProducts.ClientDetail> {
  const dealer = await dealerOf(db, principal, ref);
  const client = await clientOf(db, dealer, id);
  const [views, deviceLicenses, allowances, usage] = await Promise.all([
    licenseStore.licensesOf(db, { holder: client.id }),
    licenseStore.organizationDeviceLicenseCounts(db, client.id),
    store.allowances(db, client.id),
    store.usage(db, client.id),
  ]);
  return {
    client: toClient(client),
    licenses: await lifecycle.toLicenses(db, views),
    deviceLicenses,
    resources: licenseProducts.RESOURCE_TYPES.map((resourceType) => ({
      resourceType,
      allowance: allowances.get(resourceType) ?? 0,
      used: usage.get(resourceType) ?? 0,
    })),
  };
}

/**
 * The client's device licences, paged and filtered like its own GET /deviceLicenses, with each one's device. The
 * dealer issued them, so the activation keys are shown in full (to hand over) and can be searched.
 */
export async function listClientDeviceLicenses(
  db: Db,
  principal: Principal,
  ref: string,
  clientId: string,
  query: license.DeviceLicenseListQuery,
  now: Date,
) {
  const dealer = await dealerOf(db, principal, ref);
  const client = await clientOf(db, dealer, clientId);
  const page = await deviceLicenseStore.pageOfLicenses(db, client.id, query, { searchKeys: true, now });
  return { ...page, items: page.items.map((row) => toLicense(row, true, now)) };
}

/** Issues a licence of one of the dealer's products to a client (see lifecycle.issue). */
/**
 * Spec 7 "licences CRUD on /licenses", create: the licence {org} will hold, issued by its dealer `by` (the
 * organization whose product it is and whose permission token the caller holds), with the dealer path's rules.
 */
export async function issueToHolder(
  deps: LicenseDeps,
  principal: Principal,
  holderRef: string,
  by: string,
  input: licenseProducts.IssueLicense,
): Promise<licenseProducts.Renewal> {
  const holder = await findOrganization(deps.db, principal.realm, holderRef);
  if (!holder) throw notFound(`organization '${holderRef}' not found`);
  return issueToClient(deps, principal, by, holder.id, input);
}

export async function issueToClient(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
  clientId: string,
  input: licenseProducts.IssueLicense,
): Promise<licenseProducts.Renewal> {
  const { db } = deps;
  const dealer = await dealerOf(db, principal, ref);
  const client = await clientOf(db, dealer, clientId);
  const product = await productStore.findProduct(db, dealer.id, input.productId);
  if (!product) throw notFound(`body/productId: product '${input.productId}' not found`);
  const issued = await lifecycle.inTransaction(db, (tx) =>
    lifecycle.issue(
      tx,
      deps.payments,
      {
        holder: client.id,
        issuer: dealer.id,
        product,
        quantity: input.quantity,
        autorenew: input.autorenew ?? false,
        activate: input.activate ?? false,
      },
      deps.clock.now(),
    ),
  );
  const license = await lifecycle.licenseAnswer(db, issued.id);
  const detail = {
    clientId: client.id,
    clientName: client.name,
    productId: product.id,
    productCode: product.code,
    productVersion: product.currentVersion,
    quantity: input.quantity,
    status: license.status,
    autorenew: license.autorenew,
    deviceLicenses: license.deviceLicenses.total,
    charge: issued.charge,
  };
  await auditLicense(db, principal, dealer.id, 'issue', license, detail);
  await auditLicense(db, principal, client.id, 'issue', license, detail);
  return { license, charge: issued.charge };
}

export async function listIssued(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.IssuedLicenseListQuery,
) {
  const dealer = await dealerOf(db, principal, ref);
  const page = await licenseStore.pageOfLicenses(db, { issuer: dealer.id, clientId: query.clientId }, query);
  return { ...page, items: await lifecycle.toLicenses(db, page.items) };
}

async function issuedLicense(db: Db, dealer: OrganizationRow, id: string): Promise<licenseStore.LicenseView> {
  const view = await licenseStore.findLicense(db, { issuer: dealer.id }, id);
  if (!view) throw notFound(`licence '${id}' not found`);
  return view;
}

export async function getIssued(db: Db, principal: Principal, ref: string, id: string) {
  const dealer = await dealerOf(db, principal, ref);
  const [answer] = await lifecycle.toLicenses(db, [await issuedLicense(db, dealer, id)]);
  if (!answer) throw notFound(`licence '${id}' not found`);
  return answer;
}

export async function renewIssued(deps: LicenseDeps, principal: Principal, ref: string, id: string) {
  const dealer = await dealerOf(deps.db, principal, ref);
  const view = await issuedLicense(deps.db, dealer, id);
  return renewOf(deps, principal, dealer.id, view, 'dealer');
}

export async function setIssuedAutorenew(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
  id: string,
  autorenew: boolean,
) {
  const dealer = await dealerOf(deps.db, principal, ref);
  const view = await issuedLicense(deps.db, dealer, id);
  await setAutorenewOf(deps, principal, dealer.id, view, autorenew, 'dealer');
  return lifecycle.licenseAnswer(deps.db, id);
}

/** REVOKED: its device licences expire and their devices are disconnected (they cannot sign in any more). */
export async function revokeIssued(deps: LicenseDeps, principal: Principal, ref: string, id: string) {
  const { db } = deps;
  const dealer = await dealerOf(db, principal, ref);
  const view = await issuedLicense(db, dealer, id);
  const devices = await lifecycle.inTransaction(db, (tx) =>
    lifecycle.revoke(tx, id, deps.clock.now(), 'dealer'),
  );
  announceAll(devices);
  const detail = {
    clientId: view.organizationId,
    previousStatus: view.status,
    devicesDisconnected: devices.length,
  };
  await auditLicense(db, principal, dealer.id, 'revoke', view, detail);
  await auditLicense(db, principal, view.organizationId, 'revoke', view, detail);
  return lifecycle.licenseAnswer(db, id);
}

export const MAKES_NO_DEALERS =
  "only the realm's operator or a dealer makes an organization a dealer: a dealer issues licences and their " +
  'activation keys';

/**
 * Issue 32: a dealer's licences bring activation keys (also at price 0), so the dealer flag is the operator's to
 * grant, directly or through the dealers it made; a tenant cannot make its own sub-organization a dealer and mint
 * free devices through it.
 */
async function makesDealers(db: Db, org: OrganizationRow): Promise<boolean> {
  return org.dealer || org.id === (await realmOwnerId(db, org.realm));
}

function toAccount(row: OrganizationRow): licenseProducts.Account {
  return {
    organizationId: row.id,
    name: row.name,
    dealer: row.dealer,
    hasOwnResources: row.hasOwnResources,
    inAppPurchases: row.inAppPurchases,
  };
}

export async function getAccount(db: Db, principal: Principal, ref: string) {
  return toAccount(await authorizeInOrganization(db, principal, ref, 'READ', 'organizations'));
}

/**
 * Sets dealer / hasOwnResources / inAppPurchases of `ref` from an ANCESTOR organization `by` (UPDATE organizations
 * there, with `by`'s permission token). `ref` must lie below `by`; an organization outside answers 404, and no
 * organization can change its own flags. Only the realm's operator or a dealer makes another organization a dealer.
 */
export async function updateAccount(
  db: Db,
  principal: Principal,
  ref: string,
  by: string,
  input: licenseProducts.AccountUpdate,
) {
  const ancestor = await authorizeInOrganization(db, principal, by, 'UPDATE', 'organizations');
  const target = await findOrganization(db, principal.realm, ref);
  if (!target) throw notFound(`organization '${ref}' not found`);
  if (target.id === ancestor.id) {
    throw forbidden('an organization cannot change its own account flags; an ancestor organization does');
  }
  const chain = await ancestry(db, target);
  if (!chain.some((row) => row.id === ancestor.id)) throw notFound(`organization '${ref}' not found`);
  if (input.dealer === true && !target.dealer && !(await makesDealers(db, ancestor))) {
    throw forbidden(MAKES_NO_DEALERS);
  }
  const updated = await store.updateAccount(db, target.id, input);
  if (!updated) throw notFound(`organization '${ref}' not found`);
  const detail = {
    changes: input,
    before: {
      dealer: target.dealer,
      hasOwnResources: target.hasOwnResources,
      inAppPurchases: target.inAppPurchases,
    },
    by: ancestor.id,
  };
  for (const organizationId of [ancestor.id, target.id]) {
    await recordAudit(db, principal, {
      organizationId,
      action: 'organizations.account',
      resourceType: 'organizations',
      resourceId: target.id,
      resourceName: target.name,
      detail,
    });
  }
  return toAccount(updated);
}
