import { useState } from 'react';
import { type FeatureFlag, isFeatureEnabled } from '../experimental/flags.ts';

/** An experimental feature flag as it was when the page opened (changing flags reloads the portal). */
export function useFeatureFlag(flag: FeatureFlag): boolean {
  const [enabled] = useState(() => isFeatureEnabled(flag));
  return enabled;
}
