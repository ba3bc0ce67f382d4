import type { licenseProducts } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { conflict, HttpError } from '../../../http/errors.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';
import { generateActivationKey, generateLicenseCode } from '../keys.ts';
import { toVersion } from '../products/service.ts';
import type { ProductWithVersion } from '../products/store.ts';
import * as store from './store.ts';

/**
 * What happens to a licence, shared by the holder's calls, the dealer's calls and the expiry sweep: issue, start of
 * the term (activation), renewal (charged), autorenew, revocation and expiry. Each runs inside the caller's
 * transaction and writes the licence event; the caller authorizes, audits and announces revoked devices after commit.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The most device licences one licence brings (quantity × the version's quantity). */
export const MAX_DEVICE_LICENSES_PER_LICENSE = 10_000;

export type Charged = licenseProducts.Renewal['charge'];
export type Actor = 'holder' | 'dealer' | 'autorenew' | 'system';

export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => work(tx as unknown as Db));
}

export function toLicense(view: store.LicenseView, counts: store.Counts): licenseProducts.License {
  return {
    id: view.id,
    licenseCode: view.licenseCode,
    organizationId: view.organizationId,
    organizationName: view.organizationName,
    issuerOrganizationId: view.issuerOrganizationId,
    issuerOrganizationName: view.issuerOrganizationName,
    product: view.product,
    productVersion: view.productVersion,
    grant: toVersion(view.version),
    quantity: view.quantity,
    allowance: view.quantity * view.version.quantity,
    termPriceMinor: view.quantity * view.version.priceMinor,
    status: view.status,
    autorenew: view.autorenew,
    activatedAt: view.activatedAt?.toISOString() ?? null,
    expiresAt: view.expiresAt?.toISOString() ?? null,
    deviceLicenses: counts,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

/** The answers of several licences, with their device-licence counts. */
export async function toLicenses(db: Db, views: store.LicenseView[]): Promise<licenseProducts.License[]> {
  const counts = await store.deviceLicenseCounts(
    db,
    views.map((view) => view.id),
  );
  return views.map((view) => toLicense(view, counts.get(view.id) ?? store.NO_DEVICE_LICENSES));
}

/** One licence as answered, read again (after a change). */
export async function licenseAnswer(db: Db, id: string): Promise<licenseProducts.License> {
  const view = await store.findById(db, id);
  if (!view) throw new Error(`licence ${id} vanished`);
  const [answer] = await toLicenses(db, [view]);
  if (!answer) throw new Error(`licence ${id} vanished`);
  return answer;
}

/** What one term of the licence costs: integer minor units, exact. */
export function termPrice(view: Pick<store.LicenseView, 'quantity' | 'version'>): number {
  const amount = view.quantity * view.version.priceMinor;
  if (!Number.isSafeInteger(amount)) throw conflict('quantity: the price of one term is too large');
  return amount;
}

/** Charges the holder one term through the payment provider; a refused payment answers 409 and nothing changes. */
async function chargeTerm(
  tx: Db,
  payments: PaymentProvider,
  view: store.LicenseView,
  what: 'activation' | 'renewal',
): Promise<Charged> {
  const amountMinor = termPrice(view);
  if (amountMinor === 0) return null;
  const { currency, termDays } = view.version;
  const result = await payments.charge(tx, {
    organizationId: view.organizationId,
    amountMinor,
    currency,
    description: `${view.product.name} × ${view.quantity} (${view.licenseCode}), ${termDays} days, ${what}`,
    reference: `license:${view.id}`,
  });
  if (result.status === 'FAILED') {
    throw new HttpError(409, `payment failed: ${result.error ?? 'the payment provider refused the charge'}`);
  }
  return { invoiceId: result.invoiceId, status: result.status, amountMinor, currency };
}

async function event(
  tx: Db,
  view: Pick<store.LicenseRow, 'id' | 'organizationId'>,
  name: licenseProducts.LicenseEvent,
  detail: Record<string, unknown>,
  at: Date,
) {
  await store.insertEvent(tx, {
    organizationId: view.organizationId,
    licenseId: view.id,
    event: name,
    detail,
    at,
  });
}

/** The licence as it is inside the transaction (locked), or 404. */
async function locked(tx: Db, id: string): Promise<store.LicenseView> {
  await store.lockLicense(tx, id);
  const view = await store.findById(tx, id);
  if (!view) throw new HttpError(404, `licence '${id}' not found`);
  return view;
}

/** Inserts `count` device licences of the licence, drawing a new key for the rare one that collides. */
async function addDeviceLicenses(
  tx: Db,
  licence: store.LicenseRow,
  count: number,
  vpn: boolean,
): Promise<void> {
  let added = 0;
  for (let attempt = 0; attempt < 5 && added < count; attempt += 1) {
    const keys = new Set<string>();
    while (keys.size < count - added) keys.add(generateActivationKey());
    added += await store.insertDeviceLicenses(
      tx,
      [...keys].map((activationKey) => ({
        organizationId: licence.organizationId,
        activationKey,
        vpn,
        licenseId: licence.id,
        expiresAt: licence.expiresAt,
      })),
    );
  }
  if (added < count) throw new Error('could not draw unique activation keys');
}

export type IssueInput = {
  holder: string;
  issuer: string;
  product: ProductWithVersion;
  quantity: number;
  autorenew: boolean;
  activate: boolean;
};

/**
 * Issues a licence of the product's current version to the holder (ISSUED; ACTIVE and charged at once with
 * `activate`). A devices product brings quantity × version quantity device licences (AVAILABLE) to the holder.
 */
export async function issue(
  tx: Db,
  payments: PaymentProvider,
  input: IssueInput,
  now: Date,
): Promise<{ id: string; charge: Charged }> {
  const { product } = input;
  const deviceCount = product.resourceType === 'devices' ? input.quantity * product.current.quantity : 0;
  if (deviceCount > MAX_DEVICE_LICENSES_PER_LICENSE) {
    throw new HttpError(
      400,
      `body/quantity: ${input.quantity} × ${product.current.quantity} device licences is more than ` +
        `${MAX_DEVICE_LICENSES_PER_LICENSE} for one licence`,
    );
  }
  let row: store.LicenseRow | undefined;
  for (let attempt = 0; attempt < 5 && !row; attempt += 1) {
    row = await store.insertLicense(tx, {
      organizationId: input.holder,
      issuerOrganizationId: input.issuer,
      productId: product.id,
      productVersion: product.currentVersion,
      licenseCode: generateLicenseCode(),
      quantity: input.quantity,
      status: 'ISSUED',
      autorenew: input.autorenew,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (!row) throw new Error('could not draw a unique licence code');
  if (deviceCount > 0) await addDeviceLicenses(tx, row, deviceCount, product.current.vpn);
  await event(
    tx,
    row,
    'ISSUED',
    {
      licenseCode: row.licenseCode,
      productId: product.id,
      productCode: product.code,
      productVersion: product.currentVersion,
      quantity: input.quantity,
      deviceLicenses: deviceCount,
      issuerOrganizationId: input.issuer,
    },
    now,
  );
  const charge = input.activate ? await activateTerm(tx, payments, row.id, now, 'dealer') : null;
  return { id: row.id, charge };
}

/** ISSUED -> ACTIVE: the first term starts now and is charged; the device licences take its expiry. */
export async function activateTerm(
  tx: Db,
  payments: PaymentProvider,
  id: string,
  now: Date,
  by: Actor,
): Promise<Charged> {
  const view = await locked(tx, id);
  if (view.status !== 'ISSUED') {
    throw conflict(`licenseCode: the licence is ${view.status}, only an ISSUED licence can be activated`);
  }
  const charge = await chargeTerm(tx, payments, view, 'activation');
  const expiresAt = new Date(now.getTime() + view.version.termDays * DAY_MS);
  await store.updateLicense(
    tx,
    id,
    ['ISSUED'],
    { status: 'ACTIVE', activatedAt: now, expiresAt, warnedDays: [] },
    now,
  );
  await store.setDeviceLicenseExpiry(tx, id, expiresAt);
  await event(
    tx,
    view,
    'ACTIVATED',
    { by, expiresAt: expiresAt.toISOString(), ...chargeDetail(charge) },
    now,
  );
  return charge;
}

function chargeDetail(charge: Charged): Record<string, unknown> {
  if (!charge) return { amountMinor: 0 };
  return {
    invoiceId: charge.invoiceId,
    chargeStatus: charge.status,
    amountMinor: charge.amountMinor,
    currency: charge.currency,
  };
}

/**
 * Renews an ACTIVE or EXPIRED licence by one term of its version, from max(now, expiresAt), charged to the holder.
 * An EXPIRED licence becomes ACTIVE again and its device licences come back; the expiry warnings start over.
 */
export async function renewTerm(
  tx: Db,
  payments: PaymentProvider,
  id: string,
  now: Date,
  by: Actor,
): Promise<Charged> {
  const view = await locked(tx, id);
  if (view.status === 'ISSUED') throw conflict('the licence is ISSUED: activate it first');
  if (view.status === 'REVOKED') throw conflict('the licence is REVOKED and cannot be renewed');
  return renewLocked(tx, payments, view, now, by);
}

/**
 * The sweep's renewal: only while the locked row is still ACTIVE and due. Another instance's sweep may have renewed
 * (or expired) it since this one listed it; then nothing happens and nothing is charged (answers undefined).
 */
export async function renewDueTerm(
  tx: Db,
  payments: PaymentProvider,
  id: string,
  now: Date,
): Promise<Charged | undefined> {
  const view = await locked(tx, id);
  if (!isDue(view, now)) return undefined;
  return renewLocked(tx, payments, view, now, 'autorenew');
}

function isDue(view: store.LicenseView, now: Date): boolean {
  return view.status === 'ACTIVE' && view.expiresAt !== null && view.expiresAt.getTime() <= now.getTime();
}

async function renewLocked(
  tx: Db,
  payments: PaymentProvider,
  view: store.LicenseView,
  now: Date,
  by: Actor,
): Promise<Charged> {
  const id = view.id;
  const charge = await chargeTerm(tx, payments, view, 'renewal');
  const from = Math.max(now.getTime(), view.expiresAt?.getTime() ?? 0);
  const expiresAt = new Date(from + view.version.termDays * DAY_MS);
  await store.updateLicense(
    tx,
    id,
    ['ACTIVE', 'EXPIRED'],
    { status: 'ACTIVE', expiresAt, warnedDays: [], ...(view.activatedAt ? {} : { activatedAt: now }) },
    now,
  );
  await store.restoreDeviceLicenses(tx, id, expiresAt);
  await event(
    tx,
    view,
    'RENEWED',
    {
      by,
      previousStatus: view.status,
      previousExpiresAt: view.expiresAt?.toISOString() ?? null,
      expiresAt: expiresAt.toISOString(),
      ...chargeDetail(charge),
    },
    now,
  );
  return charge;
}

/** Sets autorenew (AUTORENEW_ON/OFF when it changes); not on a REVOKED licence. Answers whether it changed. */
export async function changeAutorenew(
  tx: Db,
  id: string,
  autorenew: boolean,
  now: Date,
  by: Actor,
): Promise<boolean> {
  const view = await locked(tx, id);
  if (view.status === 'REVOKED') throw conflict('the licence is REVOKED');
  if (view.autorenew === autorenew) return false;
  await store.updateLicense(tx, id, ['ISSUED', 'ACTIVE', 'EXPIRED'], { autorenew }, now);
  await event(tx, view, autorenew ? 'AUTORENEW_ON' : 'AUTORENEW_OFF', { by }, now);
  return true;
}

/** REVOKED: its device licences expire; answers the devices that lose access (announce after commit). */
export async function revoke(tx: Db, id: string, now: Date, by: Actor): Promise<string[]> {
  const view = await locked(tx, id);
  if (view.status === 'REVOKED') throw conflict('the licence is already REVOKED');
  await store.updateLicense(
    tx,
    id,
    ['ISSUED', 'ACTIVE', 'EXPIRED'],
    { status: 'REVOKED', autorenew: false },
    now,
  );
  const devices = await store.expireDeviceLicenses(tx, id);
  await event(tx, view, 'REVOKED', { by, previousStatus: view.status, devices: devices.length }, now);
  return devices;
}

/** ACTIVE -> EXPIRED at the end of its term: its device licences expire; answers the devices that lose access. */
export async function expire(
  tx: Db,
  id: string,
  now: Date,
  detail: Record<string, unknown>,
): Promise<string[] | undefined> {
  const view = await locked(tx, id);
  // Checked on the locked row: another instance may have renewed or expired it since the sweep listed it.
  if (!isDue(view, now)) return undefined;
  await store.updateLicense(tx, id, ['ACTIVE'], { status: 'EXPIRED' }, now);
  const devices = await store.expireDeviceLicenses(tx, id);
  await event(
    tx,
    view,
    'EXPIRED',
    { expiresAt: view.expiresAt?.toISOString() ?? null, devices: devices.length, ...detail },
    now,
  );
  return devices;
}
