import { useEffect } from 'react';
import { currentPortal } from '../../app/portal.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { legacyKeepAlive } from './legacy-session.ts';

/**
 * Spec 4/7: while a VPN screen is open, the legacy remote-access session is signed in once (`{email}/{org
 * resourceId}`, the current access token) and pinged every 180 s; leaving the VPN screens stops the pings.
 */
export function useLegacyKeepAlive(): void {
  const { organization } = useOrganizationApi();
  const resourceId = organization.resourceId;
  useEffect(() => {
    const { session } = currentPortal();
    const keepAlive = legacyKeepAlive(() => session.accessToken());
    return keepAlive.acquire(`${session.user.username}/${resourceId}`);
  }, [resourceId]);
}
