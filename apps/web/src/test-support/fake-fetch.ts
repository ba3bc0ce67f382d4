import { vi } from 'vitest';

/** A call the code under test made. */
export type FetchCall = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
};

/** How the fake server answers a call; a thrown error is a network failure. */
export type FetchAnswer = (call: FetchCall) => Response | Promise<Response>;

/** The page the relative service paths resolve against, as in the browser. */
const PAGE_ORIGIN = 'http://portal.test';

/** A Request that resolves a relative address against the page, as a browser's does (Node's refuses it). */
class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, PAGE_ORIGIN) : input, init);
  }
}

export type FakeFetch = {
  /** Every call made, in order. */
  calls: FetchCall[];
  /** How the following calls are answered. */
  answer: (answer: FetchAnswer) => void;
};

/**
 * Stubs the global fetch (and Request) with a fake server, for the web app's real service calls. The generated clients
 * keep the Request of the time they are created: import the module under test after this (a dynamic import).
 * `vi.unstubAllGlobals()` puts the real ones back.
 */
export function fakeFetch(): FakeFetch {
  const calls: FetchCall[] = [];
  let respond: FetchAnswer = () => new Response(null, { status: 404 });
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new PageRequest(input, init);
    const url = new URL(request.url);
    const call = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: await request.text(),
    };
    calls.push(call);
    return respond(call);
  });
  return {
    calls,
    answer: (next) => {
      respond = next;
    },
  };
}
