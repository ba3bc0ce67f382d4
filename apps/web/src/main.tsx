import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadUiFont } from './app/fonts/ui-font.ts';
import { Providers } from './app/providers.tsx';
import { ROUTE_TABLE } from './app/routing/route-table.ts';
import { createPortalRouter } from './app/routing/router.tsx';
import { FullPageLoader } from './app/shell/FullPageLoader.tsx';
import { ensureSession } from './auth/session.ts';
import { FatalError } from './features/errors/ErrorScreen.tsx';
import { setUpI18n } from './shared/i18n/i18n.ts';
import { initialLocale } from './shared/i18n/locales.ts';
import { applyTheme, fetchHostTheme } from './shared/theme/portal-theme.ts';

const container = document.getElementById('root');
if (!container) throw new Error('the page has no #root element');
const root = createRoot(container);

function render(content: ReactNode) {
  root.render(
    <StrictMode>
      <Providers>{content}</Providers>
    </StrictMode>,
  );
}

/** The route the address names (`#/register?x=1` -> `/register`). */
function hashPath(hash: string): string {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  return path === '' ? '/' : path;
}

function isPublicAddress(hash: string): boolean {
  const path = hashPath(hash);
  return ROUTE_TABLE.some((route) => route.access === 'public' && route.path === path);
}

async function start() {
  void loadUiFont();
  await setUpI18n(initialLocale(document.cookie, navigator.languages));
  fetchHostTheme().then(applyTheme, (error: unknown) => console.warn('host theme unavailable', error));
  render(<FullPageLoader />);
  // Sign-in comes first (spec 4: required at start) so keycloak-js reads its answer from the address before the
  // hash router does; public pages start without it.
  if (!isPublicAddress(window.location.hash)) {
    const startup = await ensureSession();
    if (startup.kind === 'fatal') return render(<FatalError message={startup.message} />);
    if (startup.kind === 'redirected') return;
  }
  render(<RouterProvider router={createPortalRouter()} />);
}

void start();
