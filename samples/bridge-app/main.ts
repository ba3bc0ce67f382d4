import {
  type AppConnection,
  type BridgeContext,
  CHANGE_EVENTS,
  connect,
  type HrefType,
  PAGE_IDS,
  type PageId,
} from '@edgeport/bridge';

/**
 * A tiny app embedded by a host through the bridge: it shows the context it got, the change events, asks the host to
 * navigate, reads and writes a user preference, and keeps the host informed of its own address (three internal
 * pages in the hash). The host keeps that address (appHref) and gives it back after a reload or back/forward.
 */

const INTERNAL_PAGES = { one: 'Overview', two: 'Details', three: 'Settings' } as const;
type InternalPage = keyof typeof INTERNAL_PAGES;

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found as T;
}

let connection: AppConnection | undefined;

function setStatus(text: string, state: 'connecting' | 'connected' | 'error') {
  const status = element('status');
  status.textContent = text;
  status.dataset.state = state;
}

function internalPageOf(href: string): InternalPage {
  const name = new URL(href, window.location.href).hash.replace(/^#\//, '');
  return name in INTERNAL_PAGES ? (name as InternalPage) : 'one';
}

function render() {
  const page = internalPageOf(window.location.href);
  element('page-title').textContent = INTERNAL_PAGES[page];
  element('page-href').textContent = window.location.href;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-internal]')) {
    if (link.dataset.internal === page) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

/**
 * Shows an internal page. The entry is replaced, not pushed: the host keeps the history (it pushes its own entry
 * when told 'push'), so back/forward in the browser move the host, which gives the address back through 'href'.
 */
function show(page: InternalPage, report: HrefType | false) {
  window.history.replaceState(null, '', `#/${page}`);
  render();
  if (report && connection) connection.reportHref(window.location.href, report);
}

/** The payload part of a JWT, for showing its scope and expiry (the token itself is not shown). */
function claimsOf(jwt: string): { scope?: string; exp?: number } {
  try {
    const part = jwt.split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { scope?: string; exp?: number };
  } catch {
    return {};
  }
}

function showContext(context: BridgeContext) {
  const claims = claimsOf(context.jwt);
  const rows: [string, string][] = [
    ['jwt', `…${context.jwt.slice(-12)}`],
    ['jwt scope', claims.scope ?? ''],
    ['jwt expires', claims.exp ? new Date(claims.exp * 1000).toISOString() : ''],
    ['username', context.username],
    ['organizationId', context.organizationId],
    ['organizationResourceId', context.organizationResourceId],
    ['host', context.host],
    ['domain', context.domain],
    ['theme', JSON.stringify(context.theme)],
    ['defaultStandardTime', context.defaultStandardTime],
    ['brandName', context.brandName],
  ];
  const list = element('context');
  list.replaceChildren(
    ...rows.flatMap(([name, value]) => {
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      detail.textContent = value;
      detail.dataset.field = name;
      return [term, detail];
    }),
  );
  document.body.classList.toggle('dark', context.theme?.colorScheme === 'dark');
  if (context.theme?.primaryColor)
    document.documentElement.style.setProperty('--accent', context.theme.primaryColor);
}

function logEvent(text: string) {
  const item = document.createElement('li');
  item.textContent = text;
  element('events').append(item);
}

async function start() {
  connection?.close();
  connection = undefined;
  setStatus('Connecting…', 'connecting');
  try {
    const connected = await connect();
    connection = connected;
    setStatus(`Connected to ${connected.hostOrigin}`, 'connected');
    showContext(connected.context);
    for (const event of CHANGE_EVENTS) {
      connected.subscribe(event, (value) => {
        const shown = event === 'jwt' ? `…${String(value).slice(-12)}` : JSON.stringify(value);
        logEvent(`${event}: ${shown}`);
        if (event === 'jwt') {
          const counter = element('jwt-changes');
          counter.textContent = String(Number(counter.textContent) + 1);
        }
        showContext(connected.context);
      });
    }
    // The host's history moved (back/forward, reload): show that address without reporting it back.
    connected.subscribe('href', (href) => show(internalPageOf(href), false));
    connected.reportHref(window.location.href, 'replace');
  } catch (error) {
    setStatus(error instanceof Error ? error.message : String(error), 'error');
  }
}

function withConnection(run: (connection: AppConnection) => void) {
  if (!connection) {
    element('check-result').textContent = 'Not connected';
    return;
  }
  run(connection);
}

function check(name: string, connected: AppConnection) {
  const subscribe = connected.subscribe as (event: unknown, callback: unknown) => unknown;
  const navigate = connected.navigate as (page: unknown) => void;
  const checks: Record<string, () => unknown> = {
    'subscribe-no-event': () => subscribe(undefined, () => {}),
    'subscribe-bad-event': () => subscribe('password', () => {}),
    'subscribe-no-callback': () => subscribe('jwt', undefined),
    'navigate-no-path': () => navigate(''),
  };
  try {
    checks[name]?.();
    element('check-result').textContent = 'accepted';
  } catch (error) {
    element('check-result').textContent = error instanceof Error ? error.message : String(error);
  }
}

async function preference(action: 'get' | 'set') {
  const result = element<HTMLOutputElement>('pref-result');
  if (!connection) {
    result.textContent = 'Not connected';
    return;
  }
  const key = element<HTMLInputElement>('pref-key').value;
  result.textContent = 'Waiting…';
  try {
    if (action === 'set') {
      const value = element<HTMLInputElement>('pref-value').value;
      await connection.setUserPreference(key, value);
      result.textContent = `saved ${key} = ${value}`;
    } else {
      const value = await connection.getUserPreference(key);
      result.textContent = value === null ? `${key} is not set` : `${key} = ${value}`;
    }
  } catch (error) {
    result.textContent = error instanceof Error ? error.message : String(error);
  }
}

function setUp() {
  const buttons = element('navigate-buttons');
  for (const page of PAGE_IDS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = page;
    button.dataset.page = page;
    button.addEventListener('click', () => withConnection((connected) => connected.navigate(page)));
    buttons.append(button);
  }
  element('navigate-unknown').addEventListener('click', () =>
    withConnection((connected) => connected.navigate('admin-console' as PageId)),
  );
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-internal]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      show(link.dataset.internal as InternalPage, 'push');
    });
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-check]')) {
    button.addEventListener('click', () =>
      withConnection((connected) => check(button.dataset.check ?? '', connected)),
    );
  }
  element('pref-get').addEventListener('click', () => void preference('get'));
  element('pref-set').addEventListener('click', () => void preference('set'));
  element('connect').addEventListener('click', () => void start());
  show(internalPageOf(window.location.href), false);
  void start();
}

setUp();
