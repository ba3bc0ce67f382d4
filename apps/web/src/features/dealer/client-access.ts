import { type AppAbility, buildAbility } from '@edgeport/permissions';
import { useQuery } from '@tanstack/react-query';
import { currentPortal } from '../../app/portal.ts';
import { authServerUrl, tokenEndpoint } from '../../auth/keycloak.ts';
import { PermissionTokens, permissionsOf } from '../../auth/rpt.ts';
import type { Client } from './api.ts';
import { DEALER_KEY } from './query-keys.ts';

/**
 * Reaching into a client organization (its activation keys, its own screens) takes a permission token of that
 * organization: the UMA exchange the portal makes on entry, which succeeds when one of the dealer user's roles in the
 * dealer organization carries INHERIT. One token holder per client, kept for the page's life.
 */
const holders = new Map<string, PermissionTokens>();

function holderFor(clientId: string): PermissionTokens {
  let holder = holders.get(clientId);
  if (!holder) {
    const { session } = currentPortal();
    holder = new PermissionTokens({
      tokenEndpoint: tokenEndpoint(authServerUrl(window.location.origin), session.realm),
      accessToken: session.accessToken,
    });
    holders.set(clientId, holder);
  }
  return holder;
}

async function clientToken(client: Pick<Client, 'id' | 'resourceId'>): Promise<string> {
  return (await holderFor(client.id).get({ permission: client.resourceId, organizationId: client.id })).token;
}

export type ClientAccess =
  | { status: 'pending' }
  /** The dealer user's roles do not reach into the client (no INHERIT entries), or the exchange failed. */
  | { status: 'none' }
  | { status: 'ready'; ability: AppAbility; token: () => Promise<string> };

/** What the signed-in dealer user may do inside the client organization, and its permission token. */
export function useClientAccess(client: Client): ClientAccess {
  const exchange = useQuery({
    queryKey: [DEALER_KEY, 'client-access', client.id, client.resourceId],
    queryFn: async () => permissionsOf(await clientToken(client)),
    retry: false,
    staleTime: 60_000,
  });
  if (exchange.isPending) return { status: 'pending' };
  if (exchange.isError || exchange.data.length === 0) return { status: 'none' };
  return {
    status: 'ready',
    ability: buildAbility(exchange.data, { iot: client.iotEnabled, vpn: client.vpnEnabled }),
    token: () => clientToken(client),
  };
}
