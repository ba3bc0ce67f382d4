import { createHash, randomBytes } from 'node:crypto';
import type { App } from '../../src/app.ts';

/** A browser stand-in for server tests: follows the Keycloak login flow through `app.inject`, keeping cookies. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly #app: App;
  readonly host: string;

  constructor(app: App, realm: string, port = 8080) {
    this.#app = app;
    this.host = `${realm}.app.localhost:${port}`;
  }

  get origin() {
    return `http://${this.host}`;
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const path = url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url;
    const response = await this.#app.inject({
      method,
      url: path,
      headers: {
        host: this.host,
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const setCookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        setCookie.maxAge === 0 || (setCookie.expires && setCookie.expires.getTime() < Date.now());
      if (expired || setCookie.value === '') this.cookies.delete(setCookie.name);
      else this.cookies.set(setCookie.name, setCookie.value);
    }
    return response;
  }

  /** Follows 30x redirects within this server; stops at the first non-redirect or at the app's redirect_uri. */
  async follow(method: 'GET' | 'POST', url: string, form?: Record<string, string>, stopAt?: string) {
    let response = await this.request(method, url, form);
    let location = response.headers.location as string | undefined;
    for (
      let hops = 0;
      location && response.statusCode >= 300 && response.statusCode < 400 && hops < 10;
      hops++
    ) {
      if (stopAt && isAt(location, stopAt)) return { response, location };
      response = await this.request('GET', location);
      location = response.headers.location as string | undefined;
    }
    return { response, location };
  }
}

export type TokenSet = { access_token: string; refresh_token: string; id_token: string; expires_in: number };

export function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export type LoginStart = {
  browser: TestBrowser;
  loginPage: string;
  action: string;
  verifier: string;
  redirectUri: string;
  nonce: string;
};

export async function startLogin(
  browser: TestBrowser,
  realm: string,
  extra: Record<string, string> = {},
): Promise<LoginStart> {
  const { verifier, challenge } = pkce();
  const redirectUri = extra.redirect_uri ?? `${browser.origin}/`;
  const nonce = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    client_id: 'web-portal',
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    response_mode: 'fragment',
    response_type: 'code',
    scope: 'openid',
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  const { response } = await browser.follow(
    'GET',
    `/auth/realms/${realm}/protocol/openid-connect/auth?${query}`,
  );
  const action = formAction(response.body);
  return { browser, loginPage: response.body, action, verifier, redirectUri, nonce };
}

export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no form in page: ${html.slice(0, 400)}`);
  return match[1].replace(/&#38;/g, '&');
}

/** Submits a login-flow form; returns the next page, or the authorization code once the flow reaches the app. */
export async function submitForm(start: LoginStart, action: string, form: Record<string, string>) {
  const { response, location } = await start.browser.follow('POST', action, form, start.redirectUri);
  if (location && isAt(location, start.redirectUri)) {
    const params = new URLSearchParams(new URL(location).hash.slice(1));
    return { code: params.get('code') ?? undefined, page: '', status: response.statusCode };
  }
  return { code: undefined, page: response.body, status: response.statusCode };
}

export async function exchangeCode(start: LoginStart, realm: string, code: string): Promise<TokenSet> {
  const response = await start.browser.request(
    'POST',
    `/auth/realms/${realm}/protocol/openid-connect/token`,
    {
      grant_type: 'authorization_code',
      client_id: 'web-portal',
      code,
      redirect_uri: start.redirectUri,
      code_verifier: start.verifier,
    },
  );
  if (response.statusCode !== 200) throw new Error(`token exchange failed: ${response.body}`);
  return response.json() as TokenSet;
}

export async function passwordLogin(browser: TestBrowser, realm: string, email: string, password: string) {
  const start = await startLogin(browser, realm);
  const result = await submitForm(start, start.action, { username: email, password });
  if (!result.code) throw new Error(`login failed: ${result.status} ${result.page.slice(0, 300)}`);
  return exchangeCode(start, realm, result.code);
}

export function decodePayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

function isAt(location: string, target: string): boolean {
  const a = new URL(location);
  const b = new URL(target);
  return a.origin === b.origin && a.pathname === b.pathname;
}
