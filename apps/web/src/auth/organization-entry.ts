import type { Organization } from './organizations.ts';

export type EntryDecision =
  | { kind: 'enter'; organization: Organization }
  | { kind: 'select'; unknownOrganization?: string };

/** An organization named in the URL by id or resourceId. */
export function findOrganization(
  organizations: readonly Organization[],
  reference: string,
): Organization | undefined {
  return organizations.find(
    (organization) => organization.id === reference || organization.resourceId === reference,
  );
}

/**
 * Spec 4: an organization named in the URL is entered (an unknown one leads to the selector); otherwise the only one;
 * otherwise the selector (where the one entered last is preselected, not entered).
 */
export function decideEntry(input: {
  organizations: readonly Organization[];
  requested?: string | undefined;
}): EntryDecision {
  const { organizations, requested } = input;
  if (requested) {
    const named = findOrganization(organizations, requested);
    return named
      ? { kind: 'enter', organization: named }
      : { kind: 'select', unknownOrganization: requested };
  }
  const [only] = organizations;
  if (organizations.length === 1 && only) return { kind: 'enter', organization: only };
  return { kind: 'select' };
}

const SELECTOR_PATH = '/organization';
/** Query parameters that belong to the selector itself, never forwarded to the destination. */
const SELECTOR_PARAMS = ['redirectTo', 'org'];

/**
 * Spec 8: the selector with redirectTo (the path the user was going to) and that address's own query, so the user
 * lands exactly where they were going once an organization is entered.
 */
export function selectorUrl(destination: { pathname: string; search: string }, org?: string): string {
  const query = new URLSearchParams(destination.search);
  const params = new URLSearchParams();
  if (destination.pathname && destination.pathname !== SELECTOR_PATH)
    params.set('redirectTo', destination.pathname);
  for (const [key, value] of query) if (!SELECTOR_PARAMS.includes(key)) params.append(key, value);
  const named = org ?? query.get('org') ?? undefined;
  if (named) params.set('org', named);
  const search = params.toString();
  return search ? `${SELECTOR_PATH}?${search}` : SELECTOR_PATH;
}

/** Where the selector sends the user after entry: redirectTo with the forwarded query, else home. */
export function destinationAfterSelection(selectorSearch: string): string {
  const params = new URLSearchParams(selectorSearch);
  const target = params.get('redirectTo');
  const safeTarget = target?.startsWith('/') && !target.startsWith('//') ? target : '/home';
  for (const key of SELECTOR_PARAMS) params.delete(key);
  const search = params.toString();
  return search ? `${safeTarget}?${search}` : safeTarget;
}
