import { useSyncExternalStore } from 'react';
import type { EnteredOrganization } from '../../auth/organization-session.ts';
import { currentPortal } from '../portal.ts';

/** The organization the user is in; follows switches and permission-token renewals. */
export function useEnteredOrganization(): EnteredOrganization | undefined {
  const { organizations } = currentPortal();
  const state = useSyncExternalStore(organizations.subscribe, organizations.getState, organizations.getState);
  return state.entered;
}
