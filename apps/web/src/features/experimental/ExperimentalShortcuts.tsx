import { useHotkeys } from 'react-hotkeys-hook';
import { ExperimentalFeaturesModal } from './ExperimentalFeaturesModal.tsx';
import { experimentalModalOpen, switchAllExperimentalFeatures } from './experimental-actions.ts';

const ANYWHERE = { preventDefault: true, enableOnFormTags: true, enableOnContentEditable: true } as const;

/** Each shortcut as react-hotkeys-hook names the matched key: one hook, as the library runs every hook on every key. */
const ACTIONS: Readonly<Record<string, () => void>> = {
  'ctrl+alt+shift+e': () => switchAllExperimentalFeatures(true),
  'ctrl+alt+shift+d': () => switchAllExperimentalFeatures(false),
  'ctrl+alt+shift+s': () => experimentalModalOpen.set(true),
};
const KEYS = Object.keys(ACTIONS).join(',');

/** Spec 2: anywhere in the portal, Ctrl+Alt+Shift+E enables all experimental features, D disables all, S selects. */
export function ExperimentalShortcuts() {
  useHotkeys(KEYS, (_, hotkey) => ACTIONS[hotkey.hotkey]?.(), ANYWHERE);
  return <ExperimentalFeaturesModal />;
}
