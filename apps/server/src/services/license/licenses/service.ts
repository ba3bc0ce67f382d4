import { licenseProducts } from '@edgeport/contract';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';
import { announceLicenceRenewed, announceRevocation } from '../device-credentials.ts';
import { normalizeLicenseCode } from '../keys.ts';
import * as lifecycle from './lifecycle.ts';
import * as store from './store.ts';

/** What the licence calls need from the service context. */
export type LicenseDeps = { db: Db; clock: Clock; payments: PaymentProvider };

const MALFORMED_CODE =
  'licenseCode must look like LIC-XXXX-XXXX-XXXX (letters and digits without 0, O, 1, I, L, U)';

/** Reading the organization's licences needs READ organizations; changing them UPDATE organizations. */
const read = (db: Db, principal: Principal, ref: string) =>
  authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
const change = (db: Db, principal: Principal, ref: string) =>
  authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');

async function heldLicense(db: Db, org: OrganizationRow, id: string): Promise<store.LicenseView> {
  const view = await store.findLicense(db, { holder: org.id }, id);
  if (!view) throw notFound(`licence '${id}' not found`);
  return view;
}

export async function auditLicense(
  db: Db,
  principal: Principal,
  organizationId: string,
  verb: string,
  view: Pick<store.LicenseView, 'id' | 'licenseCode'>,
  detail: Record<string, unknown>,
) {
  await recordAudit(db, principal, {
    organizationId,
    action: `licenses.${verb}`,
    resourceType: 'licenses',
    resourceId: view.id,
    resourceName: view.licenseCode,
    detail,
  });
}

export async function listLicenses(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.LicenseListQuery,
) {
  const org = await read(db, principal, ref);
  const page = await store.pageOfLicenses(db, { holder: org.id }, query);
  return { ...page, items: await lifecycle.toLicenses(db, page.items) };
}

export async function countLicenses(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.LicenseCountQuery,
): Promise<licenseProducts.Count> {
  const org = await read(db, principal, ref);
  return { count: await store.countLicenses(db, { holder: org.id }, query) };
}

export async function getLicense(db: Db, principal: Principal, ref: string, id: string) {
  const org = await read(db, principal, ref);
  const [answer] = await lifecycle.toLicenses(db, [await heldLicense(db, org, id)]);
  if (!answer) throw notFound(`licence '${id}' not found`);
  return answer;
}

/** The holder may change autorenew only: product, version and quantity are the dealer's (it issues another licence). */
export async function updateLicense(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
  id: string,
  input: licenseProducts.LicenseUpdate,
) {
  const org = await change(deps.db, principal, ref);
  const view = await heldLicense(deps.db, org, id);
  if (input.autorenew !== undefined) {
    await setAutorenewOf(deps, principal, org.id, view, input.autorenew, 'holder');
  }
  return lifecycle.licenseAnswer(deps.db, id);
}

export async function setAutorenew(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
  id: string,
  autorenew: boolean,
) {
  const org = await change(deps.db, principal, ref);
  const view = await heldLicense(deps.db, org, id);
  await setAutorenewOf(deps, principal, org.id, view, autorenew, 'holder');
  return lifecycle.licenseAnswer(deps.db, id);
}

export async function setAutorenewOf(
  deps: LicenseDeps,
  principal: Principal,
  auditOrganizationId: string,
  view: store.LicenseView,
  autorenew: boolean,
  by: lifecycle.Actor,
) {
  const changed = await lifecycle.inTransaction(deps.db, (tx) =>
    lifecycle.changeAutorenew(tx, view.id, autorenew, deps.clock.now(), by),
  );
  if (changed) {
    await auditLicense(deps.db, principal, auditOrganizationId, 'autorenew', view, {
      autorenew,
      before: view.autorenew,
      holderOrganizationId: view.organizationId,
    });
  }
}

/** Deletes a licence that was never activated (ISSUED) with its device licences; 409 for any other status. */
export async function deleteLicense(deps: LicenseDeps, principal: Principal, ref: string, id: string) {
  const { db } = deps;
  const org = await change(db, principal, ref);
  const view = await heldLicense(db, org, id);
  if (view.status !== 'ISSUED') {
    throw conflict(`the licence is ${view.status}: only an ISSUED licence can be deleted`);
  }
  const removed = await lifecycle.inTransaction(db, async (tx) => {
    await store.lockLicense(tx, id);
    const keys = await store.deleteDeviceLicensesOf(tx, id);
    if (!(await store.deleteLicense(tx, org.id, id))) {
      throw conflict('the licence is no longer ISSUED: only an ISSUED licence can be deleted');
    }
    return keys;
  });
  await auditLicense(db, principal, org.id, 'delete', view, {
    productId: view.product.id,
    productCode: view.product.code,
    quantity: view.quantity,
    deviceLicensesDeleted: removed,
  });
}

/** Renews the licence by one term, charging the holder (see lifecycle.renewTerm). */
export async function renewLicense(deps: LicenseDeps, principal: Principal, ref: string, id: string) {
  const org = await change(deps.db, principal, ref);
  const view = await heldLicense(deps.db, org, id);
  return renewOf(deps, principal, org.id, view, 'holder');
}

export async function renewOf(
  deps: LicenseDeps,
  principal: Principal,
  auditOrganizationId: string,
  view: store.LicenseView,
  by: lifecycle.Actor,
): Promise<licenseProducts.Renewal> {
  const charge = await lifecycle.inTransaction(deps.db, (tx) =>
    lifecycle.renewTerm(tx, deps.payments, view.id, deps.clock.now(), by),
  );
  await announceLicenceRenewed(deps.db, view.id);
  const license = await lifecycle.licenseAnswer(deps.db, view.id);
  await auditLicense(deps.db, principal, auditOrganizationId, 'renew', view, {
    holderOrganizationId: view.organizationId,
    previousStatus: view.status,
    previousExpiresAt: view.expiresAt?.toISOString() ?? null,
    expiresAt: license.expiresAt,
    charge,
  });
  return { license, charge };
}

/**
 * Whether a code names a licence of this organization that is in force or can be activated. Another
 * organization's code answers like an unknown one; a malformed code is 400.
 */
export async function validate(
  db: Db,
  principal: Principal,
  ref: string,
  licenseCode: string,
): Promise<licenseProducts.Validation> {
  const org = await read(db, principal, ref);
  const code = normalizeLicenseCode(licenseCode);
  if (!code) throw badRequest(`querystring/${MALFORMED_CODE}`);
  const view = await store.findByCode(db, org.id, code);
  if (!view) {
    return {
      valid: false,
      reason: 'unknown licence code',
      status: null,
      product: null,
      quantity: null,
      expiresAt: null,
    };
  }
  const reasons: Record<licenseProducts.LicenseStatus, string | undefined> = {
    ISSUED: undefined,
    ACTIVE: undefined,
    EXPIRED: 'the licence has expired',
    REVOKED: 'the licence was revoked',
  };
  const reason = reasons[view.status];
  return {
    valid: reason === undefined,
    ...(reason && { reason }),
    status: view.status,
    product: view.product,
    quantity: view.quantity,
    expiresAt: view.expiresAt?.toISOString() ?? null,
  };
}

/** The holder activates a code issued to it: ACTIVE, the term starts now (and is charged). */
export async function activateByCode(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
  input: licenseProducts.ActivationBody,
): Promise<licenseProducts.Renewal> {
  const { db } = deps;
  const org = await change(db, principal, ref);
  const code = normalizeLicenseCode(input.licenseCode);
  if (!code) throw badRequest(`body/${MALFORMED_CODE}`);
  const view = await store.findByCode(db, org.id, code);
  if (!view) throw notFound('licenseCode: licence code not found');
  const charge = await lifecycle.inTransaction(db, (tx) =>
    lifecycle.activateTerm(tx, deps.payments, view.id, deps.clock.now(), 'holder'),
  );
  const license = await lifecycle.licenseAnswer(db, view.id);
  await auditLicense(db, principal, org.id, 'activate', view, {
    expiresAt: license.expiresAt,
    productCode: view.product.code,
    quantity: view.quantity,
    charge,
  });
  return { license, charge };
}

export async function expirationDate(
  db: Db,
  principal: Principal,
  ref: string,
): Promise<licenseProducts.ExpirationDate> {
  const org = await read(db, principal, ref);
  const row = await store.latestActiveExpiry(db, org.id);
  return { expirationDate: row?.expiresAt?.toISOString() ?? null, licenseId: row?.id ?? null };
}

function instant(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw badRequest(`querystring/${field} must be an ISO date-time`);
  return at;
}

/** What happened to the organization's licences, newest first; `to` is exclusive. */
export async function history(
  db: Db,
  principal: Principal,
  ref: string,
  query: licenseProducts.HistoryQuery,
) {
  const org = await read(db, principal, ref);
  const from = instant('from', query.from);
  const to = instant('to', query.to);
  if (from && to && from.getTime() >= to.getTime()) throw badRequest('querystring/to must be after from');
  const page = await store.pageOfEvents(db, org.id, {
    ...(query.page !== undefined && { page: query.page }),
    ...(query.pageSize !== undefined && { pageSize: query.pageSize }),
    ...(from && { from }),
    ...(to && { to }),
    ...(query.licenseId && { licenseId: query.licenseId }),
    ...(query.event && { event: query.event }),
  });
  return {
    ...page,
    items: page.items.map((row) => ({ ...row, at: row.at.toISOString() })),
  };
}

/** An organization without an ACTIVE licence runs on a 30-day trial from its creation. */
export async function trialExpiration(
  deps: LicenseDeps,
  principal: Principal,
  ref: string,
): Promise<licenseProducts.TrialExpiration> {
  const org = await read(deps.db, principal, ref);
  const now = deps.clock.now();
  const onTrial = !(await store.hasActiveLicense(deps.db, org.id));
  const ends = new Date(org.createdAt.getTime() + licenseProducts.TRIAL_DAYS * lifecycle.DAY_MS);
  const left = Math.max(0, Math.ceil((ends.getTime() - now.getTime()) / lifecycle.DAY_MS));
  return {
    onTrial,
    trialStartedAt: org.createdAt.toISOString(),
    trialExpiresAt: ends.toISOString(),
    expired: onTrial && ends.getTime() <= now.getTime(),
    daysLeft: onTrial ? left : 0,
  };
}

/** After a commit: drops the open MQTT connections of devices whose licence ended. */
export function announceAll(deviceIds: string[]): void {
  for (const deviceId of deviceIds) announceRevocation(deviceId);
}
