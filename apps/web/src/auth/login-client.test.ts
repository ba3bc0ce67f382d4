import type { KeycloakLogoutOptions } from 'keycloak-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLIENT_ID_MISSING,
  freshAccessToken,
  LOGOUT_FAILED,
  loginConfig,
  logOut,
  NO_SESSION_WARNING,
  REALM_MISSING,
  TOKEN_MIN_VALIDITY_SECONDS,
  WEB_PORTAL_CLIENT_ID,
} from './keycloak.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the portal's login set-up (spec 8: 'realm missing', 'clientId missing')", () => {
  it('gives keycloak-js the realm under the portal origin with the web-portal client', () => {
    expect(loginConfig('acme', 'http://acme.app.localhost:8080')).toEqual({
      url: 'http://acme.app.localhost:8080/auth',
      realm: 'acme',
      clientId: WEB_PORTAL_CLIENT_ID,
    });
  });

  it('refuses a configuration without a realm or without a client id', () => {
    for (const realm of [undefined, '', '  ']) {
      expect(() => loginConfig(realm, 'http://localhost')).toThrow(new Error(REALM_MISSING));
    }
    for (const clientId of ['', ' ']) {
      expect(() => loginConfig('acme', 'http://localhost', clientId)).toThrow(new Error(CLIENT_ID_MISSING));
    }
    expect(REALM_MISSING).toBe('realm missing');
    expect(CLIENT_ID_MISSING).toBe('clientId missing');
  });
});

describe("login token without an identity session (spec 8: 'Cannot acquire token: are we logged in?')", () => {
  it('warns and refuses when there is no session', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const updateToken = vi.fn(async (_minValidity?: number) => true);
    await expect(freshAccessToken({ authenticated: false, token: undefined, updateToken })).rejects.toThrow(
      'Not authenticated',
    );
    expect(warn).toHaveBeenCalledWith('Cannot acquire token: are we logged in?');
    expect(NO_SESSION_WARNING).toBe('Cannot acquire token: are we logged in?');
    expect(updateToken).not.toHaveBeenCalled();
  });

  it('also when the session ended during the refresh (the token is gone)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const keycloak = {
      authenticated: true,
      token: 'a' as string | undefined,
      updateToken: vi.fn(async () => true),
    };
    keycloak.updateToken.mockImplementation(async () => {
      keycloak.token = undefined;
      return true;
    });
    await expect(freshAccessToken(keycloak)).rejects.toThrow('Not authenticated');
    expect(warn).toHaveBeenCalledWith(NO_SESSION_WARNING);
  });

  it('answers the refreshed token of a session without a warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const updateToken = vi.fn(async (_minValidity?: number) => true);
    await expect(freshAccessToken({ authenticated: true, token: 'token-1', updateToken })).resolves.toBe(
      'token-1',
    );
    expect(updateToken).toHaveBeenCalledWith(TOKEN_MIN_VALIDITY_SECONDS);
    expect(warn).not.toHaveBeenCalled();
  });
});

const LOGOUT_URL = 'http://acme.app.localhost/auth/realms/acme/protocol/openid-connect/logout';
const PORTAL = 'http://acme.app.localhost/';

function signedIn() {
  const logout = vi.fn(async (_options?: KeycloakLogoutOptions) => {});
  return {
    keycloak: {
      clientId: 'web-portal',
      idToken: 'id-token',
      createLogoutUrl: (options?: KeycloakLogoutOptions) =>
        options?.logoutMethod === 'POST' ? LOGOUT_URL : `${LOGOUT_URL}?client_id=web-portal`,
      logout,
    },
    logout,
  };
}

/** A stubbed fetch answering the logout request with `status`, recording what was sent. */
function stubLogoutFetch(status: number) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchStub = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    return new Response(status >= 300 && status < 400 ? null : 'page', { status });
  });
  vi.stubGlobal('fetch', fetchStub);
  return requests;
}

describe("logout (spec 8: 'Logout failed, request returned an error code.')", () => {
  it('POSTs the id token hint, client and return address to the logout endpoint', async () => {
    const requests = stubLogoutFetch(302);
    const navigate = vi.fn();
    const { keycloak, logout } = signedIn();
    await logOut(keycloak, PORTAL, undefined, navigate);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(LOGOUT_URL);
    expect(requests[0]?.init?.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(String(requests[0]?.init?.body)))).toEqual({
      client_id: 'web-portal',
      id_token_hint: 'id-token',
      post_logout_redirect_uri: PORTAL,
    });
    // Keycloak ended the session and redirects: the portal goes to its root.
    expect(navigate).toHaveBeenCalledWith(PORTAL);
    expect(logout).not.toHaveBeenCalled();
  });

  it('fails with the error text when the logout request returns an error code, and stays', async () => {
    for (const status of [400, 404, 500, 503]) {
      stubLogoutFetch(status);
      const navigate = vi.fn();
      const { keycloak, logout } = signedIn();
      await expect(logOut(keycloak, PORTAL, undefined, navigate)).rejects.toThrow(
        new Error('Logout failed, request returned an error code.'),
      );
      expect(navigate).not.toHaveBeenCalled();
      expect(logout).not.toHaveBeenCalled();
    }
    expect(LOGOUT_FAILED).toBe('Logout failed, request returned an error code.');
  });

  it('shows the browser the page a server answers with (a confirmation that submits itself)', async () => {
    stubLogoutFetch(200);
    const navigate = vi.fn();
    const { keycloak, logout } = signedIn();
    await logOut(keycloak, PORTAL, undefined, navigate);
    expect(logout).toHaveBeenCalledWith({ redirectUri: PORTAL });
    expect(navigate).not.toHaveBeenCalled();
  });
});
