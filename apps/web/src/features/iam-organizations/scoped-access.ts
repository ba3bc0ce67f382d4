import { type AppAbility, buildAbility } from '@edgeport/permissions';
import { useQuery } from '@tanstack/react-query';
import { currentPortal } from '../../app/portal.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { authServerUrl, tokenEndpoint } from '../../auth/keycloak.ts';
import { PermissionTokens, permissionsOf } from '../../auth/rpt.ts';
import type { OrganizationNode } from './api.ts';

/** What acting inside one organization of the tree needs: its permission token and the ability built from it. */
export type ScopedAccess = {
  organization: OrganizationNode;
  /** The organization the user entered (its token comes from the portal session). */
  entered: boolean;
  ability: AppAbility;
  token: () => Promise<string>;
};

/**
 * The entered organization's permission token only carries permissions there. Acting on a sub-organization takes a
 * permission token of that sub-organization: the same UMA exchange the portal makes on entry, which succeeds when a
 * role of an ancestor carries INHERIT. One token holder per organization, kept for the page's life.
 */
const holders = new Map<string, PermissionTokens>();

function holderFor(organizationId: string): PermissionTokens {
  let holder = holders.get(organizationId);
  if (!holder) {
    const { session } = currentPortal();
    holder = new PermissionTokens({
      tokenEndpoint: tokenEndpoint(authServerUrl(window.location.origin), session.realm),
      accessToken: session.accessToken,
    });
    holders.set(organizationId, holder);
  }
  return holder;
}

async function descendantToken(organization: OrganizationNode): Promise<string> {
  const held = await holderFor(organization.id).get({
    permission: organization.resourceId,
    organizationId: organization.id,
  });
  return held.token;
}

/** Forgets a sub-organization's token (after it was deleted or moved away). */
export function forgetScopedToken(organizationId: string): void {
  holders.get(organizationId)?.clear();
  holders.delete(organizationId);
}

export type ScopedAccessState =
  | { status: 'pending' }
  | { status: 'denied'; error: unknown }
  | { status: 'ready'; access: ScopedAccess };

/** The access to `organization`: the entered one directly, a descendant through its own permission token. */
export function useScopedAccess(organization: OrganizationNode): ScopedAccessState {
  const api = useOrganizationApi();
  const entered = organization.id === api.organization.id;
  const features = { iot: organization.iotEnabled, vpn: organization.vpnEnabled };
  const exchange = useQuery({
    queryKey: ['iam-organizations', 'scoped-token', organization.id, organization.resourceId],
    queryFn: async () => permissionsOf(await descendantToken(organization)),
    enabled: !entered,
    retry: false,
    staleTime: 60_000,
  });
  if (entered) {
    return {
      status: 'ready',
      access: {
        organization,
        entered,
        ability: api.ability,
        token: api.token,
      },
    };
  }
  if (exchange.isPending) return { status: 'pending' };
  if (exchange.isError) return { status: 'denied', error: exchange.error };
  if (exchange.data.length === 0) return { status: 'denied', error: undefined };
  return {
    status: 'ready',
    access: {
      organization,
      entered,
      ability: buildAbility(exchange.data, features),
      token: () => descendantToken(organization),
    },
  };
}
