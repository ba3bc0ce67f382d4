import { useHotkeys } from 'react-hotkeys-hook';
import { ExperimentalFeaturesModal } from './ExperimentalFeaturesModal.tsx';
import { experimentalModalOpen, switchAllExperimentalFeatures } from './experimental-actions.ts';

const ANYWHERE = { preventDefault: true, enableOnFormTags: true, enableOnContentEditable: true } as const;

/** Spec 2: anywhere in the portal, Ctrl+Alt+Shift+E enables all experimental features, D disables all, S selects. */
export function ExperimentalShortcuts() {
  useHotkeys('ctrl+alt+shift+e', () => switchAllExperimentalFeatures(true), ANYWHERE);
  useHotkeys('ctrl+alt+shift+d', () => switchAllExperimentalFeatures(false), ANYWHERE);
  useHotkeys('ctrl+alt+shift+s', () => experimentalModalOpen.set(true), ANYWHERE);
  return <ExperimentalFeaturesModal />;
}
