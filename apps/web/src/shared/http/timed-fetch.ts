import { HttpError } from './errors.ts';

/** Spec 9: the default HTTP time-out. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Spec 9: core calls may take longer. */
export const CORE_TIMEOUT_MS = 90_000;
/** Spec 9: creating or updating presets and models may take up to 300 s. */
export const PRESET_MODEL_TIMEOUT_MS = 300_000;

type Fetch = (request: Request) => Promise<Response>;

async function serverMessageOf(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.clone().json();
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
      return body.message;
    }
  } catch {
    // Not JSON: there is nothing more to say than the status.
  }
  return undefined;
}

/**
 * The `fetch` the generated clients use: every call gets a time-out, and every failure becomes an HttpError, so a
 * caller only ever sees a successful answer or one of spec 8's errors (never a raw TypeError or a silent non-2xx).
 */
export function timedFetch(
  timeoutMs: number = DEFAULT_TIMEOUT_MS,
  baseFetch: Fetch = (request) => fetch(request),
): Fetch {
  return async (request) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    let response: Response;
    try {
      response = await baseFetch(new Request(request, { signal }));
    } catch (cause) {
      if (timeout.aborted && !request.signal.aborted) throw new HttpError('timeout', { timeoutMs, cause });
      if (request.signal.aborted) throw new HttpError('aborted', { cause });
      throw new HttpError('network', { cause });
    }
    if (!response.ok) {
      throw new HttpError('status', {
        status: response.status,
        serverMessage: await serverMessageOf(response),
      });
    }
    return response;
  };
}
