import {
  createHostConnection,
  type HostConnection,
  type HrefType,
  type PageId,
  PORTAL_ROUTES,
  type PreferenceStore,
} from '@edgeport/bridge';

/**
 * A host page embedding the portal (or, with `?frame=`, any app) through the bridge. It keeps the embedded page's
 * address in its own page query (`appHref`), answers navigation requests (for the portal: by sending it to the page's
 * route), and keeps preferences in this origin's local storage.
 */

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found as T;
}

function originOf(address: string): string | undefined {
  try {
    const url = new URL(address, window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const params = new URLSearchParams(window.location.search);
const mode = params.get('mode') ?? 'answer';
/** The product domain: what follows `.app.` in a realm host, else the host name without its first label. */
const domain = window.location.hostname.includes('.app.')
  ? window.location.hostname.slice(window.location.hostname.indexOf('.app.') + 5)
  : window.location.hostname.split('.').slice(1).join('.') || window.location.hostname;
const port = window.location.port ? `:${window.location.port}` : '';
const portalOrigin = `${window.location.protocol}//${params.get('realm') ?? 'demo'}.app.${domain}${port}`;
const entry = params.get('frame') ?? `${portalOrigin}/`;
/** The origin registered for what this page embeds: the only one it talks to. */
const frameOrigin = originOf(entry) ?? portalOrigin;
const embedsPortal = frameOrigin === portalOrigin;

const frame = element<HTMLIFrameElement>('frame');
let connection: HostConnection | undefined;

/** The appHref of the page query, if it is an address of the embedded origin (anything else is ignored). */
function appHref(): string | undefined {
  const value = new URLSearchParams(window.location.search).get('appHref');
  return value && originOf(value) === frameOrigin ? value : undefined;
}

function keepAppHref(href: string, type: HrefType) {
  if (href === appHref()) return;
  const url = new URL(window.location.href);
  url.searchParams.set('appHref', href);
  if (type === 'push') window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
  element('frame-href').textContent = href;
}

const preferences: PreferenceStore = {
  get: async (key) => window.localStorage.getItem(`bridge-host:${key}`),
  set: async (key, value) => window.localStorage.setItem(`bridge-host:${key}`, value),
};

function navigate(page: PageId) {
  const item = document.createElement('li');
  item.textContent = page;
  item.dataset.page = page;
  element('navigations').append(item);
  // The portal as guest leaves navigation to its host: this host sends it to the page's route.
  if (embedsPortal && connection) {
    const href = `${portalOrigin}/#${PORTAL_ROUTES[page]}`;
    connection.setFrameHref(href);
    keepAppHref(href, 'push');
  }
}

function setStatus(text: string, state: 'connecting' | 'connected' | 'error') {
  const status = element('host-status');
  status.textContent = text;
  status.dataset.state = state;
}

/** (Re)creates the host connection from the form; a validation message is shown as it is. */
function connectHost(): boolean {
  const form = new FormData(element<HTMLFormElement>('host-form'));
  const field = (name: string) => String(form.get(name) ?? '');
  connection?.destroy();
  connection = undefined;
  try {
    connection = createHostConnection({
      jwt: field('jwt'),
      username: field('username'),
      organizationId: field('organizationId'),
      organizationResourceId: field('organizationResourceId'),
      host: field('host'),
      domain: field('domain'),
      hostWindow: form.get('withWindow') ? window : (undefined as unknown as Window),
      appWindow: frame.contentWindow,
      appOrigin: frameOrigin,
      theme: { colorScheme: window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light' },
      defaultStandardTime: Intl.DateTimeFormat().resolvedOptions().timeZone,
      brandName: 'Sample host',
      onNavigate: navigate,
      onHref: ({ href, type }) => keepAppHref(href, type),
      onConnect: () => setStatus(`Connected to ${frameOrigin}`, 'connected'),
      ...(mode === 'no-preferences' ? {} : { preferences }),
    });
    element('host-error').textContent = '';
    setStatus('Waiting for the embedded page', 'connecting');
    return true;
  } catch (error) {
    element('host-error').textContent = error instanceof Error ? error.message : String(error);
    setStatus('Not connected', 'error');
    return false;
  }
}

function setUp() {
  const form = element<HTMLFormElement>('host-form');
  (form.elements.namedItem('host') as HTMLInputElement).value = window.location.origin;
  (form.elements.namedItem('domain') as HTMLInputElement).value = domain;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    connectHost();
  });
  // Back/forward on this page: give the embedded page its address back.
  window.addEventListener('popstate', () => {
    const href = appHref();
    if (!href) return;
    element('frame-href').textContent = href;
    if (connection?.connected) connection.setFrameHref(href);
    else frame.src = href;
  });
  // The connection listens before the frame loads, so the frame's initialise request is never missed.
  if (mode === 'silent') setStatus('Silent: this host never answers', 'error');
  else connectHost();
  const start = appHref() ?? entry;
  element('frame-href').textContent = start;
  frame.src = start;
}

setUp();
