import { randomUUID } from 'node:crypto';
import type { core, coreStore } from '@edgeport/contract';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, HttpError } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import type { PaymentProvider } from '../../license/billing/payment-provider.ts';
import { authorizeTransaction, executeTransaction } from '../../license/billing/transactions.ts';
import { appRow, originOf } from '../apps/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';

/** What the organization apps need from the service context. */
export type StoreContext = { db: Db; clock: Clock; payments: PaymentProvider };

/** A paid plan authorizes at most this many charges (ten years of monthly periods). */
export const MAX_EXECUTIONS = 120;

/**
 * How long a period of a paid plan may stay unpaid (an invoice open or failed, or a billing date passed without a
 * charge) before the app is in arrears and no longer opens: the payment term of an invoice.
 */
export const PAYMENT_TERM_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

type Organization = { id: string; name: string };

const paymentRequired = (message: string) => new HttpError(402, message);

/** `from` plus one plan period: a calendar month or year (UTC), clamped to the month's end (31 Jan -> 28/29 Feb). */
export function addPeriod(from: Date, period: core.AppPlanPeriod): Date {
  const months = period === 'YEAR' ? 12 : 1;
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return next;
}

function planOf(app: store.AppRow, planId: string): core.AppPlan | undefined {
  return app.plans.find((plan) => plan.id === planId);
}

function requirePlan(app: store.AppRow, planId: string, field: string): core.AppPlan {
  const plan = planOf(app, planId);
  if (!plan)
    throw badRequest(
      `${field} must be one of ${app.plans.map((entry) => entry.id).join(', ') || '(no plans)'}: app '${app.id}' has no plan '${planId}'`,
    );
  return plan;
}

const isPaid = (plan: core.AppPlan | undefined): plan is core.AppPlan => (plan?.priceMinor ?? 0) > 0;

/**
 * ACTIVE or PAYMENT_DUE, from the invoices (read at every answer, so an invoice marked paid makes the app ACTIVE
 * without a callback): a paid plan is due while its last invoice is OPEN or FAILED or once its billing date passed.
 */
function statusOf(
  installation: store.InstallationRow,
  plan: core.AppPlan | undefined,
  lastInvoice: store.InvoiceRow | undefined,
  now: Date,
): coreStore.OrganizationAppStatus {
  if (!isPaid(plan)) return 'ACTIVE';
  if (lastInvoice && (lastInvoice.status === 'OPEN' || lastInvoice.status === 'FAILED')) return 'PAYMENT_DUE';
  if (!installation.transactionId) return 'PAYMENT_DUE';
  if (installation.nextBillingAt && installation.nextBillingAt.getTime() <= now.getTime())
    return 'PAYMENT_DUE';
  return 'ACTIVE';
}

const unpaid = (invoice: store.InvoiceRow | undefined): invoice is store.InvoiceRow =>
  invoice?.status === 'OPEN' || invoice?.status === 'FAILED';

/**
 * Since when a paid period is owed: the unpaid last invoice, or the billing date that passed without a charge,
 * whichever came first; undefined while nothing is owed.
 */
function owedSince(
  installation: store.InstallationRow,
  lastInvoice: store.InvoiceRow | undefined,
  now: Date,
): Date | undefined {
  const billing = installation.nextBillingAt;
  const dates = [
    unpaid(lastInvoice) ? lastInvoice.createdAt : undefined,
    billing && billing.getTime() <= now.getTime() ? billing : undefined,
  ].filter((date) => date !== undefined);
  return dates.sort((a, b) => a.getTime() - b.getTime())[0];
}

/**
 * Since when a paid plan is in arrears (owed for longer than the payment term), or undefined. A paid plan without an
 * authorized transaction has nothing that could pay it: in arrears at once.
 */
function arrearsSince(
  installation: store.InstallationRow,
  plan: core.AppPlan | undefined,
  lastInvoice: store.InvoiceRow | undefined,
  now: Date,
): Date | undefined {
  if (!isPaid(plan)) return undefined;
  if (!installation.transactionId) return installation.updatedAt;
  const owed = owedSince(installation, lastInvoice, now);
  return owed && owed.getTime() + PAYMENT_TERM_DAYS * DAY_MS <= now.getTime() ? owed : undefined;
}

function toInvoice(row: store.InvoiceRow): coreStore.AppInvoice {
  return {
    id: row.id,
    number: row.number,
    amountMinor: row.amountMinor,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
  };
}

function toOrganizationApp(
  { installation, app }: store.Installation,
  lastInvoice: store.InvoiceRow | undefined,
  now: Date,
): coreStore.OrganizationApp {
  const plan = planOf(app, installation.plan);
  return {
    id: app.id,
    installationId: installation.id,
    organizationId: installation.organizationId,
    name: app.name,
    description: app.description,
    publisher: app.publisher,
    plan: installation.plan,
    planDetail: plan ? { ...plan } : null,
    version: installation.version,
    latestVersion: app.version,
    upgradeAvailable: installation.version !== app.version,
    status: statusOf(installation, plan, lastInvoice, now),
    transactionId: installation.transactionId,
    nextBillingAt: installation.nextBillingAt ? installation.nextBillingAt.toISOString() : null,
    lastInvoice: lastInvoice ? toInvoice(lastInvoice) : null,
    createdAt: installation.createdAt.toISOString(),
    updatedAt: installation.updatedAt.toISOString(),
  };
}

async function answer(
  ctx: StoreContext,
  installation: store.Installation,
): Promise<coreStore.OrganizationApp> {
  const { transactionId } = installation.installation;
  const last = transactionId
    ? (await store.lastInvoices(ctx.db, [transactionId])).get(transactionId)
    : undefined;
  return toOrganizationApp(installation, last, ctx.clock.now());
}

async function installationOf(db: Db, org: Organization, appId: string): Promise<store.Installation> {
  const found = await store.findInstallation(db, org.id, appId);
  if (!found) throw new HttpError(404, `app '${appId}' is not installed in this organization`);
  return found;
}

async function reload(ctx: StoreContext, org: Organization, appId: string) {
  return answer(ctx, await installationOf(ctx.db, org, appId));
}

/**
 * Authorizes the recurring payments of a paid plan for an installation: a result other than AUTHORIZED answers 402
 * with the result's name and changes nothing else.
 */
async function authorize(
  ctx: StoreContext,
  principal: Principal,
  org: Organization,
  app: store.AppRow,
  plan: core.AppPlan,
  installationId: string,
  approved: boolean,
): Promise<string> {
  const { id, result } = await authorizeTransaction(ctx.db, {
    organizationId: org.id,
    description: `${app.name}: ${plan.name} plan`,
    purpose: store.purposeOf(installationId),
    currency: plan.currency,
    maxAmountMinor: plan.priceMinor,
    maxExecutions: MAX_EXECUTIONS,
    approved,
    createdBy: principal.apiKeyId ? null : principal.userId,
  });
  if (result !== 'AUTHORIZED')
    throw paymentRequired(`the payment of plan '${plan.id}' was not authorized: ${result}`);
  return id;
}

/** Charges one period of the plan under the transaction (the provider's invoice decides ACTIVE or PAYMENT_DUE). */
async function chargePeriod(
  ctx: StoreContext,
  app: store.AppRow,
  plan: core.AppPlan,
  transactionId: string,
  periodStart: Date,
) {
  const until = addPeriod(periodStart, plan.period);
  const description = `${app.name}: ${plan.name} plan, ${periodStart.toISOString().slice(0, 10)} to ${until
    .toISOString()
    .slice(0, 10)}`;
  return executeTransaction(ctx.db, ctx.payments, transactionId, plan.priceMinor, description);
}

const chargeStatus = (status: 'PENDING' | 'PAID' | 'FAILED'): coreStore.OrganizationAppStatus =>
  status === 'PAID' ? 'ACTIVE' : 'PAYMENT_DUE';

export async function listInstalled(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
): Promise<coreStore.OrganizationAppList> {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'READ', 'organizations');
  const rows = await store.listInstallations(ctx.db, org.id);
  const last = await store.lastInvoices(
    ctx.db,
    rows.map((row) => row.installation.transactionId).filter((id) => id !== null),
  );
  const now = ctx.clock.now();
  const items = rows.map((row) =>
    toOrganizationApp(
      row,
      row.installation.transactionId ? last.get(row.installation.transactionId) : undefined,
      now,
    ),
  );
  return { items, total: items.length };
}

export async function getInstalled(ctx: StoreContext, principal: Principal, ref: string, appId: string) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'READ', 'organizations');
  return reload(ctx, org, appId);
}

/** 402 while the installation's paid plan is in arrears, naming since when and the unpaid invoice. */
async function refuseArrears(ctx: StoreContext, { installation, app }: store.Installation): Promise<void> {
  const { transactionId } = installation;
  const last = transactionId
    ? (await store.lastInvoices(ctx.db, [transactionId])).get(transactionId)
    : undefined;
  const overdue = arrearsSince(installation, planOf(app, installation.plan), last, ctx.clock.now());
  if (!overdue) return;
  const invoice = unpaid(last) ? ` (invoice ${last.number} is ${last.status})` : '';
  throw paymentRequired(
    `app '${app.id}' cannot be opened: the payment of its plan '${installation.plan}' is overdue since ` +
      `${overdue.toISOString().slice(0, 10)}${invoice}; pay it under Installed apps to open the app again`,
  );
}

/**
 * What the portal needs to run an app (its entry address), for an app installed in the organization whose paid plan
 * is not in arrears: 404 for an app the catalogue does not have or the organization did not install, 402 once a paid
 * period stayed unpaid past the payment term (READ organizations, the store screen's right).
 */
export async function launch(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  appId: string,
): Promise<coreStore.AppLaunch> {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'READ', 'organizations');
  const catalogued = await appRow(ctx.db, appId);
  const found = await store.findInstallation(ctx.db, org.id, catalogued.id);
  if (!found)
    throw new HttpError(
      404,
      `app '${catalogued.id}' is not installed in this organization: install it from the store to open it`,
    );
  await refuseArrears(ctx, found);
  const { installation, app } = found;
  return {
    id: app.id,
    name: app.name,
    publisher: app.publisher,
    version: installation.version,
    plan: installation.plan,
    entryUrl: app.entryUrl,
    origin: originOf(app.entryUrl) ?? '',
  };
}

/**
 * Installs an app on a plan. A paid plan first authorizes a transaction (402 with the result when refused; nothing is
 * installed) and charges the first period; a free plan installs ACTIVE without one.
 */
export async function install(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  input: coreStore.OrganizationAppInstall,
): Promise<coreStore.OrganizationApp> {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const app = await appRow(ctx.db, input.appId);
  const plan = requirePlan(app, input.plan, 'body/plan');
  if (await store.findInstallation(ctx.db, org.id, app.id))
    throw conflict(`app '${app.id}' is already installed in this organization`);
  const now = ctx.clock.now();
  const installationId = randomUUID();
  const paid = isPaid(plan);
  const transactionId = paid
    ? await authorize(ctx, principal, org, app, plan, installationId, input.approved ?? false)
    : null;
  await store.insertInstallation(ctx.db, {
    id: installationId,
    organizationId: org.id,
    appId: app.id,
    plan: plan.id,
    version: app.version,
    status: paid ? 'PAYMENT_DUE' : 'ACTIVE',
    transactionId,
    nextBillingAt: paid ? addPeriod(now, plan.period) : null,
    createdAt: now,
    updatedAt: now,
  });
  let charge: Awaited<ReturnType<typeof chargePeriod>> | undefined;
  if (transactionId) {
    try {
      charge = await chargePeriod(ctx, app, plan, transactionId, now);
    } catch (error) {
      await store.deleteInstallation(ctx.db, installationId);
      await store.revokeTransactions(ctx.db, org.id, installationId, now);
      throw error;
    }
    await store.updateInstallation(ctx.db, installationId, { status: chargeStatus(charge.status) }, now);
  }
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.install',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: {
      plan: plan.id,
      version: app.version,
      ...(charge ? { transactionId, invoiceId: charge.invoiceId, charge: charge.status } : {}),
    },
  });
  return reload(ctx, org, app.id);
}

/** Moves the installation to the catalogue's current version. */
async function applyUpgrade(
  ctx: StoreContext,
  principal: Principal,
  org: Organization,
  found: store.Installation,
) {
  const { installation, app } = found;
  if (installation.version === app.version) return false;
  await store.updateInstallation(ctx.db, installation.id, { version: app.version }, ctx.clock.now());
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.upgrade',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: { from: installation.version, to: app.version },
  });
  return true;
}

/**
 * Changes the plan: to a free plan the old transaction is revoked; to a paid plan a new transaction is authorized
 * first (402 when refused; nothing changes), then the old one is revoked and the new plan's first period charged.
 */
async function applyPlan(
  ctx: StoreContext,
  principal: Principal,
  org: Organization,
  found: store.Installation,
  planId: string,
  field: string,
  approved: boolean,
) {
  const { installation, app } = found;
  const plan = requirePlan(app, planId, field);
  if (plan.id === installation.plan) return false;
  const now = ctx.clock.now();
  const transactionId = isPaid(plan)
    ? await authorize(ctx, principal, org, app, plan, installation.id, approved)
    : null;
  const revoked = await store.revokeTransactions(
    ctx.db,
    org.id,
    installation.id,
    now,
    transactionId ?? undefined,
  );
  await store.updateInstallation(
    ctx.db,
    installation.id,
    {
      plan: plan.id,
      transactionId,
      status: transactionId ? 'PAYMENT_DUE' : 'ACTIVE',
      nextBillingAt: transactionId ? addPeriod(now, plan.period) : null,
    },
    now,
  );
  let charge: Awaited<ReturnType<typeof chargePeriod>> | undefined;
  if (transactionId) {
    charge = await chargePeriod(ctx, app, plan, transactionId, now);
    await store.updateInstallation(ctx.db, installation.id, { status: chargeStatus(charge.status) }, now);
  }
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.plan',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: {
      from: installation.plan,
      to: plan.id,
      revokedTransactions: revoked,
      ...(charge ? { transactionId, invoiceId: charge.invoiceId, charge: charge.status } : {}),
    },
  });
  return true;
}

export async function changePlan(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  appId: string,
  planId: string,
  input: coreStore.OrganizationAppPlanChange,
) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const found = await installationOf(ctx.db, org, appId);
  await applyPlan(ctx, principal, org, found, planId, 'params/plan', input.approved ?? false);
  return reload(ctx, org, appId);
}

export async function upgrade(ctx: StoreContext, principal: Principal, ref: string, appId: string) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  await applyUpgrade(ctx, principal, org, await installationOf(ctx.db, org, appId));
  return reload(ctx, org, appId);
}

/** PUT: the plan (as PATCH .../plan/{plan}) and/or an upgrade to the catalogue's version, in one call. */
export async function updateInstalled(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  appId: string,
  input: coreStore.OrganizationAppUpdate,
) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const found = await installationOf(ctx.db, org, appId);
  if (input.plan !== undefined) requirePlan(found.app, input.plan, 'body/plan');
  if (input.plan !== undefined)
    await applyPlan(ctx, principal, org, found, input.plan, 'body/plan', input.approved ?? false);
  if (input.upgrade) await applyUpgrade(ctx, principal, org, await installationOf(ctx.db, org, appId));
  return reload(ctx, org, appId);
}

/**
 * Charges the due period now (the transaction's next execution) and moves the billing date one period on; while the
 * last invoice is still OPEN it answers that one instead of charging again.
 */
export async function pay(ctx: StoreContext, principal: Principal, ref: string, appId: string) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const found = await installationOf(ctx.db, org, appId);
  const { installation, app } = found;
  const plan = planOf(app, installation.plan);
  if (!isPaid(plan)) throw conflict(`app '${app.id}' is on a free plan: there is nothing to pay`);
  if (!installation.transactionId)
    throw conflict(`app '${app.id}' has no authorized transaction: change its plan to authorize one`);
  const last = (await store.lastInvoices(ctx.db, [installation.transactionId])).get(
    installation.transactionId,
  );
  if (last?.status === 'OPEN') return answer(ctx, found);
  const now = ctx.clock.now();
  // A failed charge is retried for the same period; otherwise the period starting at the billing date is paid.
  const periodStart = installation.nextBillingAt ?? now;
  const retry = last?.status === 'FAILED';
  const charge = await chargePeriod(ctx, app, plan, installation.transactionId, retry ? now : periodStart);
  const nextBillingAt = retry ? periodStart : addPeriod(periodStart, plan.period);
  await store.updateInstallation(
    ctx.db,
    installation.id,
    { status: chargeStatus(charge.status), nextBillingAt },
    now,
  );
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.pay',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: {
      transactionId: installation.transactionId,
      invoiceId: charge.invoiceId,
      n: charge.n,
      charge: charge.status,
      nextBillingAt: nextBillingAt.toISOString(),
    },
  });
  return reload(ctx, org, appId);
}

/** Moves the next billing date (paid plans), never into the past. */
export async function reschedule(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  appId: string,
  input: coreStore.OrganizationAppReschedule,
) {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const { installation, app } = await installationOf(ctx.db, org, appId);
  const at = new Date(input.nextBillingAt);
  if (Number.isNaN(at.getTime())) throw badRequest('body/nextBillingAt must be a date-time');
  if (!isPaid(planOf(app, installation.plan)))
    throw conflict(`app '${app.id}' is on a free plan: it has no billing date`);
  const now = ctx.clock.now();
  if (at.getTime() < now.getTime()) throw badRequest('body/nextBillingAt must not be in the past');
  await store.updateInstallation(ctx.db, installation.id, { nextBillingAt: at }, now);
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.reschedule',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: { from: installation.nextBillingAt?.toISOString() ?? null, to: at.toISOString() },
  });
  return reload(ctx, org, appId);
}

/**
 * Uninstalls. While an invoice of the app is OPEN it answers 409, unless `force`: then the open invoices are voided and
 * the app's transactions revoked before it is deleted.
 */
export async function uninstall(
  ctx: StoreContext,
  principal: Principal,
  ref: string,
  appId: string,
  force: boolean,
): Promise<void> {
  const org = await authorizeInOrganization(ctx.db, principal, ref, 'UPDATE', 'organizations');
  const { installation, app } = await installationOf(ctx.db, org, appId);
  const open = await store.openInvoices(ctx.db, org.id, installation.id);
  if (open.length > 0 && !force)
    throw conflict(
      `app '${app.id}' has ${open.length} open invoice${open.length === 1 ? '' : 's'} (number ${open
        .map((invoice) => invoice.number)
        .join(', ')}): pay ${open.length === 1 ? 'it' : 'them'} first, or delete with force=true to void ${
        open.length === 1 ? 'it' : 'them'
      }`,
    );
  const now = ctx.clock.now();
  const voided = await store.voidInvoices(
    ctx.db,
    org.id,
    open.map((invoice) => invoice.id),
    now,
  );
  const revoked = await store.revokeTransactions(ctx.db, org.id, installation.id, now);
  await store.deleteInstallation(ctx.db, installation.id);
  await recordAudit(ctx.db, principal, {
    organizationId: org.id,
    action: 'apps.uninstall',
    resourceType: 'organizations',
    resourceId: app.id,
    resourceName: app.name,
    detail: { plan: installation.plan, force, voidedInvoices: voided, revokedTransactions: revoked },
  });
}
