import { createHmac } from 'node:crypto';
import type { JWK } from 'jose';
import Provider, { type Configuration, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../db/index.ts';
import { type Account, accountClaims, findAccount } from './accounts.ts';
import { databaseAdapterFactory } from './adapter.ts';
import { LOGIN_MESSAGES, pickLoginLocale } from './login-messages.ts';
import { DEFAULT_LOGIN_THEME, escapeHtml, renderPage } from './login-page.ts';

/** Keycloak's public client of the portal. */
export const WEB_PORTAL_CLIENT_ID = 'web-portal';
/** The resource server all services form; access tokens are JWTs for it. */
export const PLATFORM_RESOURCE = 'urn:edgeport:platform';
export const PLATFORM_AUDIENCE = 'platform';

export const TOKEN_TTL = {
  AccessToken: 300,
  AuthorizationCode: 60,
  IdToken: 300,
  RefreshToken: 1800,
  Interaction: 1800,
  Session: 10 * 60 * 60,
  Grant: 10 * 60 * 60,
} as const;

const OIDC_SCOPES = 'openid profile email offline_access';

/** Keycloak's paths relative to `/auth/realms/{realm}`. */
const KEYCLOAK_ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  end_session: '/protocol/openid-connect/logout',
  userinfo: '/protocol/openid-connect/userinfo',
  jwks: '/protocol/openid-connect/certs',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
};

export type RealmProviderOptions = {
  db: Db;
  realm: string;
  issuer: string;
  origin: string;
  /** The product's base host, where the portal runs with a realm cookie instead of a realm host name. */
  baseOrigin: string;
  signingKeys: JWK[];
  cookieKeys: string[];
};

export function createRealmProvider(options: RealmProviderOptions): Provider {
  const { db, realm, origin, baseOrigin } = options;
  // oidc-provider asks for the same account several times while answering one request (claims, token claims).
  const accountsOfRequest = new WeakMap<object, Map<string, Promise<Account | undefined>>>();
  const accountOf = (ctx: object, id: string) => {
    let accounts = accountsOfRequest.get(ctx);
    if (!accounts) {
      accounts = new Map();
      accountsOfRequest.set(ctx, accounts);
    }
    let account = accounts.get(id);
    if (!account) {
      account = findAccount(db, realm, id);
      accounts.set(id, account);
    }
    return account;
  };
  const portalOrigins = [origin, baseOrigin];
  const configuration: Configuration = {
    adapter: databaseAdapterFactory(db),
    clients: [
      {
        client_id: WEB_PORTAL_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${origin}/`],
        post_logout_redirect_uris: [`${origin}/`],
      },
    ],
    jwks: { keys: options.signingKeys },
    cookies: { keys: options.cookieKeys },
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: {
      // sid in the ID token too, as Keycloak's (keycloak-js keeps it as the session id).
      openid: ['sub', 'amr', 'sid'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
    },
    conformIdTokenClaims: false,
    // Keycloak names its session-check page (served by routes.ts) in the discovery document.
    discovery: {
      claim_types_supported: ['normal'],
      check_session_iframe: `${options.issuer}/protocol/openid-connect/login-status-iframe.html`,
    },
    extraParams: ['kc_action', 'kc_locale', 'kc_idp_hint'],
    ttl: { ...TOKEN_TTL },
    routes: KEYCLOAK_ROUTES,
    interactions: {
      policy: keycloakPromptPolicy(),
      url: (_ctx, interaction) => `/auth/realms/${realm}/login-actions/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => logoutPage(ctx, form, realm),
        postLogoutSuccessSource: (ctx) => signedOutPage(ctx),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => PLATFORM_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: OIDC_SCOPES,
          audience: PLATFORM_AUDIENCE,
          accessTokenTTL: TOKEN_TTL.AccessToken,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    findAccount: async (ctx, sub, token) => {
      const account = await accountOf(ctx, sub);
      if (!account?.enabled) return undefined;
      const sid = token && 'sessionUid' in token ? token.sessionUid : undefined;
      return {
        accountId: account.id,
        claims: () => ({ ...accountClaims(account), ...(sid ? { sid } : {}) }),
      };
    },
    // Keycloak issues refresh tokens to every standard-flow client, not only with offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The portal is a first-party client: like Keycloak with consent off, the grant is given without asking.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      const grant =
        existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(OIDC_SCOPES);
      grant.addOIDCClaims([
        'sub',
        'sid',
        'email',
        'email_verified',
        'name',
        'given_name',
        'family_name',
        'preferred_username',
      ]);
      grant.addResourceScope(PLATFORM_RESOURCE, OIDC_SCOPES);
      await grant.save();
      return grant;
    },
    extraTokenClaims: async (ctx, token) => {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const account = await accountOf(ctx, token.accountId);
      return {
        sid: 'sessionUid' in token ? token.sessionUid : undefined,
        azp: 'clientId' in token ? token.clientId : undefined,
        // Keycloak's default roles of every user, for keycloak-js hasRealmRole / hasResourceRole.
        realm_access: { roles: [`default-roles-${realm}`, 'offline_access', 'uma_authorization'] },
        resource_access: { account: { roles: ['manage-account', 'view-profile'] } },
        typ: 'Bearer',
        email: account?.email,
        preferred_username: account?.email,
      };
    },
    clientBasedCORS: (_ctx, requestOrigin) => portalOrigins.includes(requestOrigin),
    renderError: async (ctx, out) => {
      const locale = pickLoginLocale(ctx.get('accept-language'));
      ctx.type = 'html';
      ctx.body = renderPage({
        locale,
        theme: DEFAULT_LOGIN_THEME,
        title: LOGIN_MESSAGES[locale].errorTitle,
        body: `<p id="kc-error-message">${escapeHtml(String(out.error_description ?? out.error))}</p>`,
      });
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  useSignedJwtRefreshTokens(provider, options.cookieKeys[0] ?? '');
  allowAnyPathOnPortalOrigins(provider, portalOrigins);
  return provider;
}

/**
 * Keycloak's application-initiated actions (`kc_action`) need an interaction even with a live session — once: the
 * resume after the action carries its result and must not ask again.
 */
function keycloakPromptPolicy() {
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('kc_action', 'an account action was requested', (ctx) =>
        ctx.oidc.params?.kc_action && !ctx.oidc.result
          ? interactionPolicy.Check.REQUEST_PROMPT
          : interactionPolicy.Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}

/**
 * keycloak-js decodes the refresh token as a JWT, and Keycloak's are signed (HMAC with a realm secret). oidc-provider's
 * refresh tokens are opaque, so their id is made a JWT signed with HS512 by the realm's first cookie key, its random
 * id as `jti`. The value is still only a lookup key: a token that is not stored is refused whatever it says.
 */
function useSignedJwtRefreshTokens(provider: Provider, secret: string) {
  if (!secret) throw new Error('a realm needs a cookie key to sign refresh tokens');
  const proto = provider.RefreshToken.prototype as unknown as { generateTokenId(): string };
  const original = proto.generateTokenId;
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  proto.generateTokenId = function generateSignedJwtId(this: unknown) {
    const signed = `${part({ alg: 'HS512', typ: 'JWT' })}.${part({
      typ: 'Refresh',
      iat: Math.floor(Date.now() / 1000),
      jti: original.call(this),
    })}`;
    return `${signed}.${createHmac('sha512', secret).update(signed).digest('base64url')}`;
  };
}

/** Keycloak's `{origin}/*` redirect pattern: any path on the realm's own or the base origin, nothing else. */
function allowAnyPathOnPortalOrigins(provider: Provider, origins: string[]) {
  const sameOrigin = (uri: string) => {
    try {
      return origins.includes(new URL(uri).origin);
    } catch {
      return false;
    }
  };
  const proto = provider.Client.prototype as unknown as {
    redirectUriAllowed(uri: string): boolean;
    postLogoutRedirectUriAllowed(uri: string): boolean;
  };
  proto.redirectUriAllowed = sameOrigin;
  proto.postLogoutRedirectUriAllowed = sameOrigin;
}

/** With a valid id_token_hint Keycloak signs out without asking; the form submits itself. Otherwise it asks. */
function logoutPage(ctx: KoaContextWithOIDC, form: string, _realm: string) {
  const locale = pickLoginLocale(
    ctx.oidc.params?.ui_locales as string | undefined,
    ctx.get('accept-language'),
  );
  const m = LOGIN_MESSAGES[locale];
  const hinted = Boolean(ctx.oidc.params?.id_token_hint) && Boolean(ctx.oidc.client);
  const autoSubmit = hinted
    ? `<input type="hidden" form="op.logoutForm" name="logout" value="yes"><script>document.getElementById('op.logoutForm').submit()</script>`
    : '';
  ctx.type = 'html';
  ctx.body = renderPage({
    locale,
    theme: DEFAULT_LOGIN_THEME,
    title: m.signOutQuestion,
    body: `${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${m.signOutYes}</button>
<button type="submit" form="op.logoutForm" class="secondary">${m.signOutNo}</button>${autoSubmit}`,
  });
}

function signedOutPage(ctx: KoaContextWithOIDC) {
  const locale = pickLoginLocale(ctx.get('accept-language'));
  const m = LOGIN_MESSAGES[locale];
  ctx.type = 'html';
  ctx.body = renderPage({ locale, theme: DEFAULT_LOGIN_THEME, title: m.signedOut, body: '' });
}
