import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

/**
 * An app id of the store catalogue. It doubles as the `serviceName` under which the app's user preferences are kept
 * (spec 3 "User preference"), so it follows the same pattern.
 */
export const AppId = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.-]+$' });

/** An app of the store catalogue (spec 7 Core "Apps"): the portal embeds it at `entryUrl` through the host/app bridge. */
export const App = Type.Object({
  id: AppId,
  name: Type.String(),
  description: Type.String(),
  publisher: Type.String(),
  /** Where the embedded app starts; its origin is the only one the portal sends the user's token to. */
  entryUrl: Type.String(),
  /** The origin of `entryUrl`. */
  origin: Type.String(),
});
export type App = Static<typeof App>;

export const APP_SORT_KEYS = ['name', 'publisher', 'id'] as const;

/** Paging, search (name, description, publisher) and sort (one of APP_SORT_KEYS; default name). */
export const AppsQuery = PageQuery;
export type AppsQuery = Static<typeof AppsQuery>;

export const AppsPage = Paged(App);
export type AppsPage = Static<typeof AppsPage>;

export const AppParams = Type.Object({ id: AppId });
