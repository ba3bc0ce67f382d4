import { OrganizationSession } from '../auth/organization-session.ts';
import { fetchMyOrganizations } from '../auth/organizations.ts';
import { type PortalSession, requireReadySession } from '../auth/session.ts';

export type SignedInPortal = { session: PortalSession; organizations: OrganizationSession };

let portal: SignedInPortal | undefined;

/** The signed-in portal: the identity session and the organization the user is in. Starts the session if needed. */
export async function signedInPortal(returnTo?: string): Promise<SignedInPortal> {
  if (portal) return portal;
  const session = await requireReadySession(returnTo);
  portal ??= {
    session,
    organizations: new OrganizationSession({
      loadOrganizations: async () => fetchMyOrganizations(await session.accessToken()),
      permissionTokens: session.permissionTokens,
      storage: window.localStorage,
    }),
  };
  return portal;
}

/** The signed-in portal for components rendered behind the session guard. */
export function currentPortal(): SignedInPortal {
  if (!portal) throw new Error('currentPortal() outside the signed-in part of the portal');
  return portal;
}
