import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/index.ts';
import { accountClaims, findAccount } from './accounts.ts';
import { ActionTokenPages } from './action-token-page.ts';
import { databaseAdapterFactory } from './adapter.ts';
import { LoginFlow, type ThemeLookup } from './login-flow.ts';
import { DEFAULT_LOGIN_THEME } from './login-page.ts';
import type { RealmRegistry, RealmRuntime } from './realms.ts';
import { effectivePermissions, findPermissionOrganization, signRpt, UMA_GRANT_TYPE } from './rpt.ts';
import { checkSessionIframe, thirdPartyCookiesStep1, thirdPartyCookiesStep2 } from './session-pages.ts';
import { endCookieSessionPastLifespan, endRefreshPastLifespan, sessionOfToken } from './sessions.ts';
import { TokenRejected, type TokenVerifier } from './verify.ts';

export type IdentityOptions = {
  db: Db;
  realms: RealmRegistry;
  verifyToken: TokenVerifier;
  /** The server's time, against which security policies' `maxSessionMinutes` is measured. */
  clock: Clock;
  themeFor?: ThemeLookup;
};

type RealmParams = { realm: string };
type RawWithBody = IncomingMessage & { body?: unknown; originalUrl?: string };

declare module 'fastify' {
  interface FastifyRequest {
    realmRuntime?: RealmRuntime;
  }
}

/** The built-in identity server: Keycloak's URL layout under /auth/realms/{realm}, one oidc-provider per realm. */
export async function identityRoutes(app: FastifyInstance, options: IdentityOptions) {
  const { db, realms, verifyToken, clock } = options;
  const loginFlow = new LoginFlow(db, options.themeFor ?? (async () => DEFAULT_LOGIN_THEME));
  const actionTokenPages = new ActionTokenPages(db, options.themeFor ?? (async () => DEFAULT_LOGIN_THEME));
  const sessions = databaseAdapterFactory(db)('Session');
  const callbacks = new WeakMap<RealmRuntime, ReturnType<RealmRuntime['provider']['callback']>>();

  // oidc-provider reads the already parsed body from req.body; keep the raw string there for it.
  for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 56 * 1024 }, (request, body, done) => {
      const text = String(body);
      (request.raw as RawWithBody).body = text;
      try {
        done(
          null,
          type === 'application/json'
            ? JSON.parse(text || '{}')
            : Object.fromEntries(new URLSearchParams(text)),
        );
      } catch {
        const error = new Error('request body is not valid JSON') as Error & { statusCode: number };
        error.statusCode = 400;
        done(error);
      }
    });
  }

  app.addHook<{ Params: RealmParams }>('preHandler', async (request, reply) => {
    const realm = await realms.get(request.params.realm);
    if (!realm) return reply.code(404).send({ error: 'Realm does not exist' });
    request.realmRuntime = realm;
  });

  const realmOf = (request: FastifyRequest) => request.realmRuntime as RealmRuntime;

  // The link of invitation and password-change e-mails (Keycloak's execute-actions e-mail).
  app.get('/auth/realms/:realm/login-actions/action-token', (request, reply) =>
    actionTokenPages.show(request, reply, realmOf(request)),
  );
  app.post('/auth/realms/:realm/login-actions/action-token', (request, reply) =>
    actionTokenPages.submit(request, reply, realmOf(request)),
  );
  app.get<{ Params: RealmParams & { uid: string } }>(
    '/auth/realms/:realm/login-actions/:uid',
    (request, reply) => loginFlow.show(request, reply, realmOf(request), request.params.uid),
  );
  app.post<{ Params: RealmParams & { uid: string; step: string } }>(
    '/auth/realms/:realm/login-actions/:uid/:step',
    (request, reply) =>
      loginFlow.submit(request, reply, realmOf(request), request.params.uid, request.params.step),
  );

  app.get('/auth/realms/:realm/protocol/openid-connect/login-status-iframe.html', (_request, reply) =>
    sendScriptPage(reply, checkSessionIframe),
  );
  app.get<{ Querystring: { sid?: string } }>(
    '/auth/realms/:realm/protocol/openid-connect/login-status-iframe.html/check',
    async (request, reply) => {
      const cookie = request.cookies._session;
      const stored = cookie ? await sessions.find(cookie) : undefined;
      const state = stored && stored.uid === request.query.sid ? 'unchanged' : 'changed';
      return reply.header('cache-control', 'no-store').send({ state });
    },
  );
  app.get('/auth/realms/:realm/protocol/openid-connect/3p-cookies/step1.html', (_request, reply) =>
    sendScriptPage(reply, thirdPartyCookiesStep1),
  );
  app.get('/auth/realms/:realm/protocol/openid-connect/3p-cookies/step2.html', (_request, reply) =>
    sendScriptPage(reply, thirdPartyCookiesStep2),
  );

  /** The account of the request's bearer token while the token's session is live, else a 401 sent. */
  const liveAccountOf = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const token = await verifyToken(bearer(request) ?? '', realmOf(request).name);
      const account = await findAccount(db, realmOf(request).name, token.subject);
      if (!account?.enabled) throw new TokenRejected('account not found');
      // As Keycloak: a token of a session that was logged out reads nothing any more.
      const session = await sessionOfToken(db, token.payload.sid, account.id, clock.now());
      if (session === 'ended' || session === 'tooOld') throw new TokenRejected('session not active');
      return account;
    } catch {
      await reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send({ error: 'invalid_token', error_description: 'Token verification failed' });
      return undefined;
    }
  };
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const account = await liveAccountOf(request, reply);
    return account ? accountClaims(account) : reply;
  };
  // keycloak-js loadUserProfile(): Keycloak's account representation of the token's user.
  app.get('/auth/realms/:realm/account', async (request, reply) => {
    const account = await liveAccountOf(request, reply);
    if (!account) return reply;
    return reply.header('cache-control', 'no-store').send({
      id: account.id,
      username: account.email,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      emailVerified: true,
      attributes: account.locale ? { locale: [account.locale] } : {},
    });
  });
  app.get('/auth/realms/:realm/protocol/openid-connect/userinfo', userinfo);
  app.post('/auth/realms/:realm/protocol/openid-connect/userinfo', userinfo);

  app.post('/auth/realms/:realm/protocol/openid-connect/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    try {
      if (form.grant_type === UMA_GRANT_TYPE) return await umaTicket(request, reply, form);
      if (
        form.grant_type === 'refresh_token' &&
        form.refresh_token &&
        (await endRefreshPastLifespan(db, form.refresh_token, clock.now()))
      )
        return reply.code(400).send(SESSION_TOO_OLD);
    } catch (error) {
      // Answered as oidc-provider answers its own unexpected failures: a bare server_error, the cause in the log.
      app.log.error({ err: error, realm: realmOf(request).name }, 'identity server error');
      return reply.code(500).send({ error: 'server_error', error_description: 'oops! something went wrong' });
    }
    return passToProvider(request, reply);
  });

  // A sign-in session past its policies' lifespan must not give new tokens through its cookie either.
  app.route({
    method: ['GET', 'POST'],
    url: '/auth/realms/:realm/protocol/openid-connect/auth',
    handler: async (request, reply) => {
      const cookie = request.cookies._session;
      if (cookie) await endCookieSessionPastLifespan(db, cookie, clock.now());
      return passToProvider(request, reply);
    },
  });
  // keycloak-js's logoutMethod 'POST' sends the logout parameters as a form. oidc-provider takes POST there only with
  // SameSite=None cookies (which plain http cannot set), so the form goes on as the GET it also answers.
  app.post('/auth/realms/:realm/protocol/openid-connect/logout', (request, reply) => {
    const raw = request.raw as RawWithBody;
    const url = new URL(raw.url ?? '/', 'http://localhost');
    for (const [name, value] of Object.entries((request.body ?? {}) as Record<string, unknown>))
      if (typeof value === 'string') url.searchParams.set(name, value);
    raw.method = 'GET';
    raw.url = `${url.pathname}${url.search}`;
    delete raw.body;
    delete raw.headers['content-type'];
    delete raw.headers['content-length'];
    return passToProvider(request, reply);
  });
  app.all('/auth/realms/:realm', passToProvider);
  app.all('/auth/realms/:realm/*', passToProvider);

  /** Keycloak's RPT request: the caller's access token as bearer, no client authentication in the body. */
  async function umaTicket(
    request: FastifyRequest,
    reply: FastifyReply,
    form: Record<string, string | undefined>,
  ) {
    const realm = realmOf(request);
    let token: Awaited<ReturnType<TokenVerifier>>;
    try {
      token = await verifyToken(bearer(request) ?? '', realm.name);
    } catch {
      return reply.code(401).send({ error: 'invalid_grant', error_description: 'Invalid bearer token' });
    }
    if (form.audience !== 'platform') {
      return reply
        .code(400)
        .send({ error: 'invalid_request', error_description: 'audience must be platform' });
    }
    if (!form.permission) {
      return reply.code(400).send({ error: 'invalid_request', error_description: 'permission is required' });
    }
    const org = await findPermissionOrganization(db, realm.name, form.permission);
    if (!org) {
      return reply.code(400).send({
        error: 'invalid_resource',
        error_description: `Resource with id [${form.permission}] does not exist.`,
      });
    }
    const orgInScope = /(?:^|\s)org:(\S+)/.exec(form.scope ?? '')?.[1];
    if (orgInScope !== undefined && orgInScope !== org.id) {
      return reply
        .code(400)
        .send({ error: 'invalid_scope', error_description: 'scope names another organization' });
    }
    const account = await findAccount(db, realm.name, token.subject);
    if (!account?.enabled)
      return reply.code(401).send({ error: 'invalid_grant', error_description: 'Account disabled' });
    // Only a token of a live session buys a permission token, or one RPT would renew the next past logout.
    const session = await sessionOfToken(db, token.payload.sid, account.id, clock.now());
    if (session === 'ended') return reply.code(401).send(SESSION_ENDED);
    if (session === 'tooOld') return reply.code(401).send(SESSION_TOO_OLD);
    const granted = await effectivePermissions(db, account.id, org);
    if (!granted.member)
      return reply.code(403).send({ error: 'access_denied', error_description: 'not_authorized' });
    const rpt = await signRpt({
      issuer: realm.issuer,
      signingKey: realm.signingKey,
      subject: account.id,
      clientId:
        typeof token.payload.azp === 'string' ? token.payload.azp : (token.payload.client_id as string),
      sessionId: session.uid,
      email: account.email,
      org,
      permissions: granted.permissions,
    });
    return reply.header('cache-control', 'no-store').send({
      upgraded: false,
      access_token: rpt.token,
      expires_in: rpt.expiresIn,
      refresh_expires_in: 0,
      token_type: 'Bearer',
      'not-before-policy': 0,
    });
  }

  function passToProvider(request: FastifyRequest, reply: FastifyReply) {
    const realm = realmOf(request);
    let callback = callbacks.get(realm);
    if (!callback) {
      // oidc-provider answers an unexpected failure with a bare server_error; the cause goes to the log.
      realm.provider.on('server_error', (_context: unknown, error: unknown) =>
        app.log.error({ err: error, realm: realm.name }, 'identity server error'),
      );
      callback = realm.provider.callback();
      callbacks.set(realm, callback);
    }
    const raw = request.raw as RawWithBody;
    forwardAsFastifyTrusts(request, new URL(realm.issuer).protocol === 'https:');
    const prefix = `/auth/realms/${realm.name}`;
    raw.url = withDefaultClientScopes((raw.url ?? '').slice(prefix.length) || '/');
    // oidc-provider derives its mount path from originalUrl minus url.
    raw.originalUrl = `${prefix}${raw.url}`;
    // oidc-provider's own pages (logout confirmation, form_post) carry small inline scripts.
    reply.raw.setHeader('content-security-policy', PROVIDER_PAGES_CSP);
    reply.hijack();
    callback(raw, reply.raw);
  }
}

const SESSION_ENDED = { error: 'invalid_grant', error_description: 'Session not active' };
const SESSION_TOO_OLD = {
  error: 'invalid_grant',
  error_description: 'Session not active: longer than a security policy allows (maxSessionMinutes)',
};

const AUTH_PATH = '/protocol/openid-connect/auth';
const DEFAULT_CLIENT_SCOPES = ['profile', 'email'];

/** Keycloak applies its default client scopes (profile, email) whatever `scope` asks for; so does this server. */
function withDefaultClientScopes(url: string): string {
  if (!url.startsWith(`${AUTH_PATH}?`)) return url;
  const query = new URLSearchParams(url.slice(AUTH_PATH.length + 1));
  const scopes = new Set((query.get('scope') ?? 'openid').split(' ').filter(Boolean));
  if (!scopes.has('openid')) return url;
  for (const scope of DEFAULT_CLIENT_SCOPES) scopes.add(scope);
  query.set('scope', [...scopes].join(' '));
  return `${AUTH_PATH}?${query}`;
}

/**
 * oidc-provider (Koa with `proxy` on) builds its URLs and cookies from X-Forwarded-*: it gets the client address,
 * scheme and host Fastify settled under TRUSTED_PROXIES, never what a direct client sent. A server whose public
 * scheme (PUBLIC_SCHEME, part of the issuer) is https is reached over https, trusted proxy or not.
 */
function forwardAsFastifyTrusts(request: FastifyRequest, publicHttps: boolean) {
  const { ip, protocol, host } = request;
  const headers = request.raw.headers;
  for (const name of Object.keys(headers))
    if (name === 'forwarded' || name.startsWith('x-forwarded-')) delete headers[name];
  headers['x-forwarded-for'] = ip;
  headers['x-forwarded-proto'] = publicHttps ? 'https' : protocol;
  headers['x-forwarded-host'] = host;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

const PROVIDER_PAGES_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'";

/** The hidden-frame pages run one inline script, allowed by a nonce of this response only. */
function sendScriptPage(reply: FastifyReply, page: (nonce: string) => string) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'self'; script-src 'nonce-${nonce}'; frame-ancestors 'self'`,
    )
    .type('text/html; charset=utf-8')
    .send(page(nonce));
}
