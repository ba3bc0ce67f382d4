import { createHostConnection, type HostConnection, type PageId, PORTAL_ROUTES } from '@edgeport/bridge';
import { Alert, Badge, Group, Stack, Text, Title, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { useEnteredOrganization } from '../../app/shell/useEnteredOrganization.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { useStore } from '../../shared/store.ts';
import { portalTheme } from '../../shared/theme/portal-theme.ts';
import { appPreferences, type StoreApp } from './api.ts';
import { frameAddress, hostDomainOf, renewalDelay } from './frame-address.ts';
import { useAppHref } from './use-app-href.ts';

type Status = 'waiting' | 'connected' | 'failed';

/** The embedded app may run scripts and forms in its own origin; it may not navigate the portal (it asks). */
const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-downloads';

/**
 * The portal as host (spec 2/4): the app's entry address in a frame, connected through the bridge. The app gets the
 * user's permission token (and every renewal), the organization, theme and brand; its address is kept in appHref (of
 * the page query or of the hash query, see useAppHref), both ways, so a reload or back/forward shows the app's own page
 * again.
 */
export function AppFrame({ app }: { app: StoreApp }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const entered = useEnteredOrganization();
  const theme = useStore(portalTheme);
  const colorScheme = useComputedColorScheme('light');
  const navigate = useNavigate();
  const { appHref, keep } = useAppHref();
  const frame = useRef<HTMLIFrameElement>(null);
  const connection = useRef<HostConnection | undefined>(undefined);
  /** The app address the portal and the app agree on (the last one either side set). */
  const known = useRef<string | undefined>(undefined);
  const [status, setStatus] = useState<Status>('waiting');
  const [renewals, setRenewals] = useState(0);

  // Callbacks of the connection see the latest router functions without recreating the connection.
  // (useOrganizationApi gives a new token function on every render: it is read through here too.)
  const latest = useRef({ navigate, keep, appHref, token });
  latest.current = { navigate, keep, appHref, token };
  const initial = useRef({ organization, theme, colorScheme });

  useEffect(() => {
    const element = frame.current;
    let created: HostConnection | undefined;
    let cancelled = false;
    const { session } = currentPortal();
    const permissionToken = () => latest.current.token();
    const start = async () => {
      const jwt = await permissionToken();
      if (cancelled || !element) return;
      const { organization: org, theme: look, colorScheme: scheme } = initial.current;
      created = createHostConnection({
        jwt,
        username: session.user.username,
        organizationId: org.id,
        organizationResourceId: org.resourceId,
        host: window.location.origin,
        domain: hostDomainOf(window.location.hostname),
        hostWindow: window,
        appWindow: element.contentWindow,
        appOrigin: app.origin,
        theme: { colorScheme: scheme, primaryColor: look.primaryColor, logoUrl: look.logoUrl },
        defaultStandardTime: Intl.DateTimeFormat().resolvedOptions().timeZone,
        brandName: look.brandName,
        onConnect: () => setStatus('connected'),
        onNavigate: (page: PageId) => {
          // A trace of which app moved the portal where (the route's guard may then send the user elsewhere).
          console.debug(`bridge: app ${app.id} asked for page ${page} -> ${PORTAL_ROUTES[page]}`);
          latest.current.navigate(PORTAL_ROUTES[page]);
        },
        onHref: ({ href, type }) => {
          known.current = href;
          if (href === latest.current.appHref) return;
          latest.current.keep(href, type);
        },
        preferences: appPreferences(app.id, session.user.username, permissionToken),
      });
      connection.current = created;
      const address = frameAddress(app, latest.current.appHref);
      known.current = address;
      // Only now, with the connection listening, may the app load and ask to initialise.
      element.src = address;
    };
    start().catch((error: unknown) => {
      console.warn('the app frame could not be connected', error);
      if (!cancelled) setStatus('failed');
    });
    return () => {
      cancelled = true;
      created?.destroy();
      connection.current = undefined;
    };
  }, [app]);

  // The portal's history moved (back/forward, an edited address): give the app its address back.
  // Back to the entry without appHref (the first one): the app's entry address.
  useEffect(() => {
    const current = connection.current;
    const target = frameAddress(app, appHref);
    if (!current || target === known.current) return;
    known.current = target;
    if (current.connected) current.setFrameHref(target);
    else if (frame.current) frame.current.src = target;
  }, [appHref, app]);

  // Spec 3: a change message with the jwt on every token refresh.
  const jwt = entered?.token;
  useEffect(() => {
    if (jwt) connection.current?.update({ jwt });
  }, [jwt]);

  // Keep the app's token valid: renew it shortly before it expires (the change above then reaches the app).
  // biome-ignore lint/correctness/useExhaustiveDependencies: renewals re-arms the timer when a renewal kept the token.
  useEffect(() => {
    const delay = renewalDelay(jwt, Date.now());
    if (delay === undefined) return;
    const timer = window.setTimeout(() => {
      latest.current
        .token()
        .catch((error: unknown) => console.warn('renewing the app token failed', error))
        .finally(() => setRenewals((count) => count + 1));
    }, delay);
    return () => window.clearTimeout(timer);
  }, [jwt, renewals]);

  useEffect(() => {
    connection.current?.update({
      organizationId: organization.id,
      organizationResourceId: organization.resourceId,
    });
  }, [organization.id, organization.resourceId]);

  useEffect(() => {
    connection.current?.update({
      theme: { colorScheme, primaryColor: theme.primaryColor, logoUrl: theme.logoUrl },
      brandName: theme.brandName,
    });
  }, [colorScheme, theme.primaryColor, theme.logoUrl, theme.brandName]);

  return (
    <Stack gap="xs" data-testid="app-container" data-app={app.id} data-status={status}>
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Title order={1} size="h3">
            {app.name}
          </Title>
          {app.publisher && (
            <Text size="sm" c="dimmed">
              {t('appContainer.publisher', { publisher: app.publisher })}
            </Text>
          )}
        </div>
        <Badge
          color={status === 'connected' ? 'green' : status === 'failed' ? 'red' : 'gray'}
          variant="light"
        >
          {t(`appContainer.status.${status}`)}
        </Badge>
      </Group>
      {status === 'failed' && (
        <Alert color="red" title={t('appContainer.failedTitle')}>
          {t('appContainer.failed')}
        </Alert>
      )}
      <iframe
        ref={frame}
        title={t('appContainer.frameTitle', { name: app.name })}
        sandbox={SANDBOX}
        referrerPolicy="strict-origin"
        data-testid="app-frame"
        style={{ width: '100%', height: 'calc(100dvh - 150px)', minHeight: 360, border: 0 }}
      />
    </Stack>
  );
}
