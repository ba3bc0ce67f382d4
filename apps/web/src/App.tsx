import type { RptRule } from '@edgeport/permissions';
import { useCallback, useEffect, useState } from 'react';
import { fetchMyOrganizations, type Organization } from './api/core.ts';
import { freshAccessToken } from './auth/keycloak.ts';
import { permissionsOf } from './auth/rpt.ts';
import type { PortalSession, Startup } from './auth/session.ts';
import { strings } from './strings.ts';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `startup` is undefined while the identity client initialises. */
export function App({ startup }: { startup: Startup | undefined }) {
  if (!startup) {
    return (
      <main className="centered" aria-busy="true">
        <p data-testid="loading">{strings.loading}</p>
      </main>
    );
  }
  if (startup.kind === 'fatal') {
    return (
      <main className="centered">
        <p className="fatal" role="alert" data-testid="fatal-error">
          {startup.message}
        </p>
      </main>
    );
  }
  return <SignedIn session={startup.session} />;
}

function SignedIn({ session }: { session: PortalSession }) {
  const { keycloak } = session;
  const email: unknown = keycloak.tokenParsed?.email;
  const [issuedAt, setIssuedAt] = useState(keycloak.tokenParsed?.iat);
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState(false);

  useEffect(() => {
    keycloak.onAuthRefreshSuccess = () => setIssuedAt(keycloak.tokenParsed?.iat);
    return () => {
      keycloak.onAuthRefreshSuccess = undefined;
    };
  }, [keycloak]);

  const refresh = async () => {
    setRefreshing(true);
    setRefreshError(false);
    try {
      await keycloak.updateToken(-1);
      setIssuedAt(keycloak.tokenParsed?.iat);
    } catch (error) {
      console.warn('token refresh failed', error);
      setRefreshError(true);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <>
      <header className="topbar">
        <strong>{strings.productName}</strong>
        <span className="spacer" />
        <span>
          {strings.signedInAs} <span data-testid="user-email">{typeof email === 'string' ? email : ''}</span>
        </span>
        <button type="button" onClick={() => void session.signOut()}>
          {strings.signOut}
        </button>
      </header>
      <main className="content">
        <section aria-labelledby="token-heading">
          <h2 id="token-heading">{strings.tokenIssuedAt}</h2>
          <p>
            <code data-testid="token-iat">{issuedAt ?? ''}</code>{' '}
            <button type="button" onClick={() => void refresh()} disabled={refreshing}>
              {refreshing ? strings.refreshing : strings.refreshToken}
            </button>
          </p>
          {refreshError && <p role="alert">{strings.refreshFailed}</p>}
        </section>
        <Organizations session={session} />
      </main>
    </>
  );
}

type OrganizationsState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; organizations: Organization[] };

type Entry =
  | { kind: 'entering'; organization: Organization }
  | { kind: 'entered'; organization: Organization; rules: RptRule[]; expiresAt: number }
  | { kind: 'failed'; message: string };

function Organizations({ session }: { session: PortalSession }) {
  const [state, setState] = useState<OrganizationsState>({ kind: 'loading' });
  const [entry, setEntry] = useState<Entry | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    freshAccessToken(session.keycloak)
      .then((token) => fetchMyOrganizations(token, controller.signal))
      .then(
        (organizations) => setState({ kind: 'loaded', organizations }),
        (error: unknown) => {
          if (!controller.signal.aborted) setState({ kind: 'failed', message: errorMessage(error) });
        },
      );
    return () => controller.abort();
  }, [session]);

  const enter = useCallback(
    async (organization: Organization) => {
      setEntry({ kind: 'entering', organization });
      try {
        const token = await session.permissionTokens.get({
          permission: organization.resourceId,
          organizationId: organization.id,
        });
        const rules = permissionsOf(token.token);
        if (rules.length === 0) {
          session.permissionTokens.clear();
          setEntry({ kind: 'failed', message: strings.noPermissions(organization.id) });
          return;
        }
        setEntry({ kind: 'entered', organization, rules, expiresAt: token.expiresAt });
      } catch (error) {
        setEntry({ kind: 'failed', message: strings.entryFailed(errorMessage(error)) });
      }
    },
    [session],
  );

  return (
    <section aria-labelledby="organizations-heading">
      <h2 id="organizations-heading">{strings.organizations}</h2>
      {state.kind === 'loading' && <p aria-busy="true">{strings.loadingOrganizations}</p>}
      {state.kind === 'failed' && <p role="alert">{strings.organizationsFailed(state.message)}</p>}
      {state.kind === 'loaded' && state.organizations.length === 0 && <p>{strings.noOrganizations}</p>}
      {state.kind === 'loaded' && state.organizations.length > 0 && (
        <ul className="organizations" data-testid="organizations">
          {state.organizations.map((organization) => (
            <li key={organization.id} data-testid="organization" data-resource-id={organization.resourceId}>
              <span>
                {organization.name} <code>{organization.resourceId}</code>
              </span>
              <button
                type="button"
                onClick={() => void enter(organization)}
                disabled={entry?.kind === 'entering'}
              >
                {strings.enterOrganization}
              </button>
            </li>
          ))}
        </ul>
      )}
      {entry?.kind === 'entering' && <p aria-busy="true">{strings.entering}</p>}
      {entry?.kind === 'failed' && (
        <p role="alert" data-testid="entry-error">
          {entry.message}
        </p>
      )}
      {entry?.kind === 'entered' && (
        <>
          <h3>{strings.permissionsIn(entry.organization.name)}</h3>
          <p>{strings.tokenExpires(new Date(entry.expiresAt).toLocaleTimeString('en'))}</p>
          <ul data-testid="rpt-permissions">
            {entry.rules.map((rule) => (
              <li key={`${rule.inverted ? '!' : ''}${rule.rsname}:${rule.scopes.join(',')}`}>
                {rule.inverted ? 'not ' : ''}
                {rule.rsname}: {rule.scopes.join(', ')}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
