import type { BridgeContext } from '@edgeport/bridge';

/**
 * What both sample store apps do with their page: find elements, show a status line, and show who they run for (user,
 * organization, theme) from the bridge context.
 */

export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found as T;
}

export function setState(id: string, text: string, state: 'connecting' | 'connected' | 'error' | 'info') {
  const target = element(id);
  target.textContent = text;
  target.dataset.state = state;
}

export function showWho(context: BridgeContext) {
  element('user').textContent = context.username;
  element('organization').textContent = context.organizationResourceId || context.organizationId;
  document.body.classList.toggle('dark', context.theme?.colorScheme === 'dark');
  if (context.theme?.primaryColor)
    document.documentElement.style.setProperty('--accent', context.theme.primaryColor);
}
