import { createHash, randomBytes } from 'node:crypto';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/** Where the server listens (always 127.0.0.1) and which realm the Host header selects. */
export type Target = {
  port: number;
  /** `demo.app.localhost:{port}` */
  realmHost: string;
  /** `http://demo.app.localhost:{port}` */
  realmOrigin: string;
  realm: string;
};

export type Tokens = {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  expires_in: number;
};

export type HttpResponse = { status: number; headers: IncomingHttpHeaders; body: string };

export type RequestOptions = {
  method?: 'GET' | 'POST';
  /** Path and query, starting with `/`. */
  path: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  agent?: Agent;
  timeoutMs?: number;
};

/** One HTTP/1.1 request to 127.0.0.1 with the realm's Host header (node:http keeps a custom Host, fetch does not). */
export function httpRequest(target: Target, options: RequestOptions): Promise<HttpResponse> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { host: target.realmHost, ...options.headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers,
        agent: options.agent,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${options.method ?? 'GET'} ${options.path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

type StoredCookie = { name: string; value: string; path: string; expires: number };

/** Just enough of RFC 6265 for one host: name, value, Path (prefix match), Expires/Max-Age (deletion). */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();

  store(setCookie: string[] | undefined, requestPath: string): void {
    for (const line of setCookie ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const cookie: StoredCookie = {
        name: pair.slice(0, eq).trim(),
        value: pair.slice(eq + 1).trim(),
        path: defaultPath(requestPath),
        expires: Number.POSITIVE_INFINITY,
      };
      for (const attribute of attributes) {
        const [rawKey = '', ...rest] = attribute.split('=');
        const key = rawKey.trim().toLowerCase();
        const value = rest.join('=').trim();
        if (key === 'path' && value.startsWith('/')) cookie.path = value;
        else if (key === 'max-age') cookie.expires = Date.now() + Number(value) * 1000;
        else if (key === 'expires' && cookie.expires === Number.POSITIVE_INFINITY) {
          const time = Date.parse(value);
          if (!Number.isNaN(time)) cookie.expires = time;
        }
      }
      const key = `${cookie.name};${cookie.path}`;
      if (cookie.expires <= Date.now()) this.#cookies.delete(key);
      else this.#cookies.set(key, cookie);
    }
  }

  /** The Cookie header for a request path, longest paths first, or undefined when nothing matches. */
  header(requestPath: string): string | undefined {
    const pathname = requestPath.split('?')[0] ?? '/';
    const now = Date.now();
    const matching = [...this.#cookies.values()]
      .filter((cookie) => cookie.expires > now && pathMatches(pathname, cookie.path))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length
      ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
      : undefined;
  }
}

function defaultPath(requestPath: string): string {
  const pathname = requestPath.split('?')[0] ?? '/';
  const slash = pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : pathname.slice(0, slash);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** A browser-like session against one realm: one keep-alive connection, a cookie jar, redirects by hand. */
export class OidcClient {
  readonly target: Target;
  readonly jar = new CookieJar();
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(target: Target) {
    this.target = target;
  }

  get #base(): string {
    return `/auth/realms/${this.target.realm}/protocol/openid-connect`;
  }

  async send(options: RequestOptions): Promise<HttpResponse> {
    const cookie = this.jar.header(options.path);
    const headers = { ...options.headers, ...(cookie ? { cookie } : {}) };
    const response = await httpRequest(this.target, { ...options, headers, agent: this.#agent });
    const setCookie = response.headers['set-cookie'];
    this.jar.store(setCookie, options.path);
    return response;
  }

  /**
   * The authorization-code flow with PKCE, as keycloak-js runs it: authorize, login page, credentials, resume,
   * code in the fragment, token exchange. Throws on any unexpected answer.
   */
  async login(username: string, password: string): Promise<Tokens> {
    const { target } = this;
    const redirectUri = `${target.realmOrigin}/`;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(16).toString('base64url');
    const query = new URLSearchParams({
      client_id: 'web-portal',
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'fragment',
      scope: 'openid',
      state,
      nonce: randomBytes(16).toString('base64url'),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    const authorize = await this.send({ path: `${this.#base}/auth?${query}` });
    const loginPage = this.#redirectPath(authorize, 'authorize');

    const page = await this.send({ path: loginPage });
    if (page.status !== 200) throw unexpected('login page', page);
    const action = /<form[^>]*\baction="([^"]+)"/.exec(page.body)?.[1];
    if (!action) throw unexpected('login page without a form', page);

    const submitted = await this.send({
      method: 'POST',
      path: decodeHtml(action),
      form: { username, password },
    });
    const resume = this.#redirectPath(submitted, 'credentials');

    const resumed = await this.send({ path: resume });
    const location = resumed.headers.location;
    if (resumed.status !== 303 || !location) throw unexpected('resume', resumed);
    const callback = new URL(location, target.realmOrigin);
    const fragment = new URLSearchParams(callback.hash.slice(1));
    const code = fragment.get('code');
    if (!code || fragment.get('state') !== state) throw unexpected('callback without code or state', resumed);

    const exchanged = await this.send({
      method: 'POST',
      path: `${this.#base}/token`,
      form: {
        grant_type: 'authorization_code',
        client_id: 'web-portal',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
    });
    return tokensOf('token exchange', exchanged);
  }

  /** A fresh set of tokens for a refresh token (which the server then considers used). */
  async refresh(refreshToken: string): Promise<Tokens> {
    const response = await this.send({
      method: 'POST',
      path: `${this.#base}/token`,
      form: { grant_type: 'refresh_token', client_id: 'web-portal', refresh_token: refreshToken },
    });
    return tokensOf('refresh', response);
  }

  /** Keycloak's RPT for one resource (an organization's resource id) of the platform audience. */
  async requestRpt(accessToken: string, permission: string): Promise<string> {
    const response = await this.send({
      method: 'POST',
      path: `${this.#base}/token`,
      headers: { authorization: `Bearer ${accessToken}` },
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:uma-ticket', audience: 'platform', permission },
    });
    if (response.status !== 200) throw unexpected('RPT', response);
    const token = (JSON.parse(response.body) as { access_token?: unknown }).access_token;
    if (typeof token !== 'string') throw unexpected('RPT without access_token', response);
    return token;
  }

  close(): void {
    this.#agent.destroy();
  }

  /** The path of a 302/303 to this server's realm origin (or a relative one). */
  #redirectPath(response: HttpResponse, step: string): string {
    const location = response.headers.location;
    if ((response.status !== 302 && response.status !== 303) || !location) throw unexpected(step, response);
    const url = new URL(location, this.target.realmOrigin);
    if (url.origin !== this.target.realmOrigin) throw unexpected(`${step} redirected off-realm`, response);
    return `${url.pathname}${url.search}`;
  }
}

function tokensOf(step: string, response: HttpResponse): Tokens {
  if (response.status !== 200) throw unexpected(step, response);
  const tokens = JSON.parse(response.body) as Partial<Tokens>;
  if (typeof tokens.access_token !== 'string' || typeof tokens.refresh_token !== 'string') {
    throw unexpected(`${step} without tokens`, response);
  }
  return tokens as Tokens;
}

function decodeHtml(value: string): string {
  return value
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
}

export class UnexpectedResponse extends Error {
  readonly status: number;
  constructor(step: string, response: HttpResponse) {
    super(`${step}: HTTP ${response.status} ${response.body.slice(0, 300).replace(/\s+/g, ' ')}`);
    this.status = response.status;
  }
}

function unexpected(step: string, response: HttpResponse): UnexpectedResponse {
  return new UnexpectedResponse(step, response);
}
