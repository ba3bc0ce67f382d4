import type { TestServer } from './server.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls the server in-process with a realm host and an optional bearer token. */
export function caller(server: TestServer, realm = 'acme') {
  return (method: Method, url: string, token?: string, payload?: unknown) =>
    server.app.inject({
      method,
      url,
      headers: {
        host: `${realm}.app.localhost:8080`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
}
