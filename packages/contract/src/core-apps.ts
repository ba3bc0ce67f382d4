import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

/**
 * An app id of the store catalogue. It doubles as the `serviceName` under which the app's user preferences are kept
 * (spec 3 "User preference"), so it follows the same pattern.
 */
export const AppId = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.-]+$' });

/** The id of a price plan of an app (unique within the app). */
export const AppPlanId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_.-]+$' });

export const APP_PLAN_PERIODS = ['MONTH', 'YEAR'] as const;
export const AppPlanPeriod = Type.Union([Type.Literal('MONTH'), Type.Literal('YEAR')]);
export type AppPlanPeriod = Static<typeof AppPlanPeriod>;

/**
 * A price plan of a store app: `priceMinor` integer minor units (cents) charged once per `period`; a free plan has
 * priceMinor 0 and is installed without a payment.
 */
export const AppPlan = Type.Object({
  id: AppPlanId,
  name: Type.String(),
  priceMinor: Type.Integer({ minimum: 0 }),
  /** ISO 4217 code, e.g. EUR. */
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  period: AppPlanPeriod,
});
export type AppPlan = Static<typeof AppPlan>;

/**
 * An app of the store catalogue (spec 7 Core "Apps"): what is offered, not how to run it. Its entry address comes only
 * with the launch of an installed app (`GET /organizations/{org}/apps/{id}/launch`, core-store.ts).
 */
export const App = Type.Object({
  id: AppId,
  name: Type.String(),
  description: Type.String(),
  publisher: Type.String(),
  /** The catalogue's current version; an installed app upgrades to it. */
  version: Type.String(),
  plans: Type.Array(AppPlan),
  /** How many users like the app. */
  likeCount: Type.Integer({ minimum: 0 }),
  /** Whether the caller likes it. */
  liked: Type.Boolean(),
});
export type App = Static<typeof App>;

/** The caller's like of an app and the app's like count (spec 7 "GET/POST/DELETE /apps/{id}/like"). */
export const AppLike = Type.Object({ liked: Type.Boolean(), likeCount: Type.Integer({ minimum: 0 }) });
export type AppLike = Static<typeof AppLike>;

export const APP_SORT_KEYS = ['name', 'publisher', 'id'] as const;

/** Paging, search (name, description, publisher) and sort (one of APP_SORT_KEYS; default name). */
export const AppsQuery = PageQuery;
export type AppsQuery = Static<typeof AppsQuery>;

export const AppsPage = Paged(App);
export type AppsPage = Static<typeof AppsPage>;

export const AppParams = Type.Object({ id: AppId });
