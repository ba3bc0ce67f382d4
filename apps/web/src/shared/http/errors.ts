/** Spec 8: how a failed call ends. */
export type HttpFailureKind = 'network' | 'aborted' | 'timeout' | 'status';

/**
 * A failed service call. The messages are the ones spec 8 names (Network Error, request aborted, timeout exceeded,
 * failed status code); the server's own error text is kept for callers that need a field name but never shown.
 */
export class HttpError extends Error {
  readonly kind: HttpFailureKind;
  readonly status: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly serverMessage: string | undefined;

  constructor(
    kind: HttpFailureKind,
    details: { status?: number; timeoutMs?: number; serverMessage?: string; cause?: unknown } = {},
  ) {
    super(httpErrorMessage(kind, details), { cause: details.cause });
    this.name = 'HttpError';
    this.kind = kind;
    this.status = details.status;
    this.timeoutMs = details.timeoutMs;
    this.serverMessage = details.serverMessage;
  }
}

function httpErrorMessage(kind: HttpFailureKind, details: { status?: number; timeoutMs?: number }): string {
  switch (kind) {
    case 'network':
      return 'Network Error';
    case 'aborted':
      return 'Request aborted';
    case 'timeout':
      return `timeout of ${details.timeoutMs ?? 0}ms exceeded`;
    case 'status':
      return `Request failed with status code ${details.status ?? 0}`;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** 401 and 403: the caller's token does not let it in (spec 8: a security failure). */
export function isSecurityFailure(error: unknown): boolean {
  return isHttpError(error) && error.kind === 'status' && (error.status === 401 || error.status === 403);
}

export function hasStatus(error: unknown, status: number): boolean {
  return isHttpError(error) && error.kind === 'status' && error.status === status;
}

/** The thing asked for does not exist: 404, or 400 for an id that cannot be one (a lookup by id answers either). */
export function isNotFound(error: unknown): boolean {
  return hasStatus(error, 404) || hasStatus(error, 400);
}
