import { i18n } from '../../shared/i18n/i18n.ts';
import { createStore } from '../../shared/store.ts';
import { allFlags, writeFeatureFlags } from './flags.ts';

/** Whether the 'Experimental features' modal is open; the user menu and Ctrl+Alt+Shift+S open it. */
export const experimentalModalOpen = createStore(false);

type Browser = {
  confirm: (message: string) => boolean;
  reload: () => void;
  storage: Storage;
};

const realBrowser = (): Browser => ({
  confirm: (message) => window.confirm(message),
  reload: () => window.location.reload(),
  storage: window.localStorage,
});

/** Spec 2: Ctrl+Alt+Shift+E (value true) or D (false), after the confirmation, then a reload. */
export function switchAllExperimentalFeatures(enabled: boolean, browser: Browser = realBrowser()): boolean {
  const question = enabled ? 'experimental.enableAllConfirm' : 'experimental.disableAllConfirm';
  if (!browser.confirm(i18n.t(question))) return false;
  writeFeatureFlags(allFlags(enabled), browser.storage);
  browser.reload();
  return true;
}
