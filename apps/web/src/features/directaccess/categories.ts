import { type AppAbility, canSeeScreen, type OrgFeatures } from '@edgeport/permissions';

/** Spec 2: the sub-routes of /directaccess, in their order. */
const CATEGORIES = ['dashboards', 'applications', 'flows'] as const;
export type Category = (typeof CATEGORIES)[number];

export type Sources = {
  /** Dashboards and flows: the dashboard service answers READ on dashboards in an organization with IoT. */
  dashboards: boolean;
  flows: boolean;
  /** The organization's installed store apps (READ organizations, as the store screen). */
  storeApps: boolean;
  /** The user's remote-access application shortcuts (the VPN screen). */
  vpnShortcuts: boolean;
};

/** What the user's permissions let /directaccess list. */
export function sourcesFor(ability: AppAbility, features: OrgFeatures): Sources {
  const dashboards = features.iot && ability.can('READ', 'dashboards');
  return {
    dashboards,
    flows: dashboards,
    storeApps: canSeeScreen(ability, 'store', features),
    vpnShortcuts: canSeeScreen(ability, 'vpn', features),
  };
}

export function availableCategories(sources: Sources): Category[] {
  return CATEGORIES.filter((category) =>
    category === 'applications' ? sources.storeApps || sources.vpnShortcuts : sources[category],
  );
}

/** The category of a /directaccess address (none for /directaccess itself). */
export function categoryOf(pathname: string): Category | undefined {
  const last = pathname.replace(/\/+$/, '').split('/').at(-1);
  return CATEGORIES.find((category) => category === last);
}

/** Where /directaccess goes: the first category with something in it, else nowhere (the empty card). */
export function firstWithContent(counts: Partial<Record<Category, number>>): Category | undefined {
  return CATEGORIES.find((category) => (counts[category] ?? 0) > 0);
}
