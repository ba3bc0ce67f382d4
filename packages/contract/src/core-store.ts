import { type Static, Type } from 'typebox';
import { AppId, AppPlan, AppPlanId } from './core-apps.ts';

/**
 * Organization apps (spec 7 Core "organization apps"): what an organization installed from the store, on which plan,
 * and how it is paid (a preauthorized transaction charged once per plan period). Paths under
 * `/api/v1/organizations/{org}/apps`; READ organizations to read, UPDATE organizations to change.
 */

export const ORGANIZATION_APP_STATUSES = ['ACTIVE', 'PAYMENT_DUE'] as const;
export const OrganizationAppStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAYMENT_DUE')]);
export type OrganizationAppStatus = Static<typeof OrganizationAppStatus>;

export const INVOICE_STATUSES = ['OPEN', 'PAID', 'FAILED', 'VOID'] as const;

/** The last charge of an installed app (an invoice of the payment provider). */
export const AppInvoice = Type.Object({
  id: Type.String({ format: 'uuid' }),
  number: Type.Integer(),
  amountMinor: Type.Integer(),
  currency: Type.String(),
  status: Type.Union([
    Type.Literal('OPEN'),
    Type.Literal('PAID'),
    Type.Literal('FAILED'),
    Type.Literal('VOID'),
  ]),
  createdAt: Type.String({ format: 'date-time' }),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type AppInvoice = Static<typeof AppInvoice>;

export const OrganizationApp = Type.Object({
  /** The app's catalogue id (the `{id}` of the organization app paths). */
  id: AppId,
  /** The installation's own id (`app:{installationId}` is the purpose of its transactions). */
  installationId: Type.String({ format: 'uuid' }),
  organizationId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  publisher: Type.String(),
  /** The installed plan's id and, when the catalogue still offers it, the plan itself. */
  plan: Type.String(),
  planDetail: Type.Union([AppPlan, Type.Null()]),
  /** The installed version, and the catalogue's current one (upgrade moves to it). */
  version: Type.String(),
  latestVersion: Type.String(),
  upgradeAvailable: Type.Boolean(),
  /**
   * ACTIVE, or PAYMENT_DUE while the last invoice is not paid or the next billing date has passed (read from the
   * invoices at every answer: an invoice marked paid makes the app ACTIVE).
   */
  status: OrganizationAppStatus,
  transactionId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  /** When the next period is charged (paid plans); null on a free plan. */
  nextBillingAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastInvoice: Type.Union([AppInvoice, Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type OrganizationApp = Static<typeof OrganizationApp>;

/**
 * What the portal needs to run an installed app (GET .../apps/{id}/launch): its entry address and origin, the only
 * origin the portal hands the user's token to through the bridge. Answered only for an app installed in the
 * organization (404 otherwise) whose paid plan is not in arrears (402).
 */
export const AppLaunch = Type.Object({
  id: AppId,
  name: Type.String(),
  publisher: Type.String(),
  /** The installed version and plan. */
  version: Type.String(),
  plan: Type.String(),
  /** Where the embedded app starts. */
  entryUrl: Type.String(),
  /** The origin of `entryUrl`. */
  origin: Type.String(),
});
export type AppLaunch = Static<typeof AppLaunch>;

export const OrganizationAppList = Type.Object({ items: Type.Array(OrganizationApp), total: Type.Integer() });
export type OrganizationAppList = Static<typeof OrganizationAppList>;

export const OrganizationAppsParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
});
export const OrganizationAppParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: AppId,
});
export const OrganizationAppPlanParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: AppId,
  plan: AppPlanId,
});

/** `approved`: the user's answer to "authorize the recurring payments of this plan?" (paid plans). */
export const Approval = Type.Boolean({
  description: 'the user authorizes the recurring payments of a paid plan; false gives USER_REJECTED',
});

export const OrganizationAppInstall = Type.Object(
  { appId: AppId, plan: AppPlanId, approved: Type.Optional(Approval) },
  { additionalProperties: false },
);
export type OrganizationAppInstall = Static<typeof OrganizationAppInstall>;

/** PUT: changes the plan and/or upgrades to the catalogue's version in one call. */
export const OrganizationAppUpdate = Type.Object(
  {
    plan: Type.Optional(AppPlanId),
    approved: Type.Optional(Approval),
    /** true: move to the catalogue's current version. */
    upgrade: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type OrganizationAppUpdate = Static<typeof OrganizationAppUpdate>;

export const OrganizationAppPlanChange = Type.Object(
  { approved: Type.Optional(Approval) },
  { additionalProperties: false },
);
export type OrganizationAppPlanChange = Static<typeof OrganizationAppPlanChange>;

export const OrganizationAppDeleteQuery = Type.Object(
  {
    /** true: void the app's open invoices, revoke its transaction and delete anyway. */
    force: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type OrganizationAppDeleteQuery = Static<typeof OrganizationAppDeleteQuery>;

export const OrganizationAppReschedule = Type.Object(
  { nextBillingAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);
export type OrganizationAppReschedule = Static<typeof OrganizationAppReschedule>;
