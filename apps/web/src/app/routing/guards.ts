import { canSeeScreen } from '@edgeport/permissions';
import { redirect } from 'react-router';
import { findOrganization, selectorUrl } from '../../auth/organization-entry.ts';
import type { EnteredOrganization } from '../../auth/organization-session.ts';
import { ensureSession } from '../../auth/session.ts';
import {
  AGREEMENTS_PATH,
  agreementsUrl,
  markAgreementsShown,
  shouldShowAgreements,
} from '../../features/agreements/agreement-gate.ts';
import { fetchPendingAgreements } from '../../features/agreements/api.ts';
import { type SignedInPortal, signedInPortal } from '../portal.ts';
import { announceDenied } from './denied.ts';
import type { PortalRoute } from './route-types.ts';
import { homePath } from './screens.ts';

type Destination = { pathname: string; search: string };

function destinationOf(request: Request): Destination {
  const url = new URL(request.url);
  return { pathname: url.pathname, search: url.search };
}

/** A page that is leaving for another host: keep the loader pending instead of flashing an error. */
const never = () => new Promise<never>(() => {});

/** Signed in (sign-in is required at start), and past the once-per-session agreements check. */
export async function requireSession(request: Request): Promise<SignedInPortal> {
  const destination = destinationOf(request);
  const returnTo = `#${destination.pathname}${destination.search}`;
  const startup = await ensureSession(returnTo);
  if (startup.kind === 'redirected') return never();
  const portal = await signedInPortal(returnTo);
  const { session } = portal;
  if (destination.pathname === AGREEMENTS_PATH) {
    markAgreementsShown(session.sessionId, window.sessionStorage);
  } else {
    const show = await shouldShowAgreements({
      sessionId: session.sessionId,
      storage: window.sessionStorage,
      hasPending: async () => (await fetchPendingAgreements(await session.accessToken())).length > 0,
    });
    if (show) throw redirect(agreementsUrl(destination));
  }
  return portal;
}

/** Inside an organization (spec 4): the one the URL names, else the only one, else the selector. */
export async function requireOrganization(request: Request): Promise<EnteredOrganization> {
  const { organizations } = await requireSession(request);
  const destination = destinationOf(request);
  const requested = new URLSearchParams(destination.search).get('org') ?? undefined;
  const { entered } = organizations.getState();
  if (entered && (!requested || findOrganization([entered.organization], requested))) return entered;
  try {
    const decision = await organizations.decide(requested);
    if (decision.kind === 'select') throw redirect(selectorUrl(destination, decision.unknownOrganization));
    return await organizations.enter(decision.organization);
  } catch (error) {
    if (error instanceof Response) throw error;
    organizations.failEntry(error);
    throw redirect(selectorUrl(destination));
  }
}

/** The loader of a route in the shell: its screen's guard, then its page (or /home while it is not built). */
export function screenLoader(route: PortalRoute) {
  return async ({ request }: { request: Request }) => {
    const entered = await requireOrganization(request);
    if (route.screen && !canSeeScreen(entered.ability, route.screen, entered.features)) {
      announceDenied(route.screen);
      throw redirect('/home');
    }
    if (!route.page) throw redirect('/home');
    return null;
  };
}

export function homeLoader(routes: readonly PortalRoute[]) {
  return async ({ request }: { request: Request }) => {
    const entered = await requireOrganization(request);
    throw redirect(homePath(routes, entered.ability, entered.features));
  };
}
