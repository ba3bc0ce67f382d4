import { useAbility } from '@casl/react';
import type { AppAbility } from '@edgeport/permissions';

export { AbilityProvider, Can } from '@casl/react';

/** The entered organization's ability (spec 6) for buttons and sections inside the shell. */
export function usePortalAbility(): AppAbility {
  return useAbility<AppAbility>();
}
