import { PROTOCOL, PROTOCOL_VERSION } from '@edgeport/bridge';

/**
 * A frame of a third origin: it posts the bridge's app messages to the top window (as if it were the embedded app)
 * and host messages to its parent (as if it were the host), to every origin ('*'), then lists every bridge message it
 * receives for a second. A host and an app that check origin AND window send it nothing.
 */

const WAIT_MS = 1000;

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found;
}

const received: unknown[] = [];

window.addEventListener('message', (event) => {
  const data = event.data as { protocol?: unknown } | null;
  if (typeof data !== 'object' || data === null || data.protocol !== PROTOCOL) return;
  received.push(data);
  element('received').textContent = String(received.length);
  const item = document.createElement('li');
  item.textContent = `${event.origin}: ${JSON.stringify(data)}`;
  element('messages').append(item);
});

function message(type: string, payload: Record<string, unknown>, id?: string) {
  return { protocol: PROTOCOL, version: PROTOCOL_VERSION, type, ...(id ? { id } : {}), payload };
}

function send() {
  const status = element('status');
  status.textContent = 'sending';
  const asApp = [
    message('init', {}, 'probe-init'),
    message('navigate', { page: 'home' }),
    message('href', { href: `${window.location.origin}/phish`, type: 'push' }),
    message('preference.get', { key: 'probe-key' }, 'probe-get'),
    message('preference.set', { key: 'probe-key', value: 'set-by-probe' }, 'probe-set'),
  ];
  const asHost = [
    message('change', { event: 'jwt', value: 'forged-by-probe' }),
    message('change', { event: 'href', value: `${window.location.origin}/phish` }),
    message('context', { jwt: 'forged-by-probe' }, 'probe-context'),
  ];
  for (const target of new Set([window.top, window.parent])) {
    if (!target || target === window) continue;
    for (const data of asApp) target.postMessage(data, '*');
  }
  if (window.parent !== window) for (const data of asHost) window.parent.postMessage(data, '*');
  window.setTimeout(() => {
    status.textContent = 'done';
  }, WAIT_MS);
}

element('send').addEventListener('click', send);
send();
