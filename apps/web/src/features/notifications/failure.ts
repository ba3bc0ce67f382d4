import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { isHttpError } from '../../shared/http/errors.ts';

/**
 * A failed call of the notification, trigger and limit screens: the portal's own sentence, and — for a refused input
 * (400, 409, 429) — the server's explanation beside it, because there the server names what it refused (a webhook
 * host the SSRF check blocks, a recipient that is not a member, 'undefined limits').
 */
export type FailureText = { message: string; detail: string | undefined };

/** The sentence per status this screen knows; anything else is described as the portal describes every failure. */
export type FailureMessages = Partial<Record<400 | 403 | 404 | 409 | 429, string>>;

const EXPLAINED = new Set([400, 409, 422, 429]);

export function failureText(t: TFunction, error: unknown, messages: FailureMessages): FailureText {
  if (isHttpError(error) && error.kind === 'status' && error.status !== undefined) {
    const known = messages[error.status as keyof FailureMessages];
    const detail = EXPLAINED.has(error.status) ? error.serverMessage?.trim() || undefined : undefined;
    if (known) return { message: known, detail };
    if (detail) return { message: describeError(t, error), detail };
  }
  return { message: describeError(t, error), detail: undefined };
}

/**
 * The host a webhook refusal names ("the webhook host '10.0.0.5' is a private address; …"), else the host of the
 * first of `webhooks` the message mentions; undefined when none.
 */
export function refusedWebhookHost(
  serverMessage: string | undefined,
  webhooks: readonly string[] = [],
): string | undefined {
  if (!serverMessage) return undefined;
  const named = /webhook host '([^']+)'/i.exec(serverMessage)?.[1];
  if (named) return named;
  for (const webhook of webhooks) {
    let host: string;
    try {
      host = new URL(webhook).hostname;
    } catch {
      continue;
    }
    if (host && serverMessage.toLowerCase().includes(host.toLowerCase())) return host;
  }
  return undefined;
}

/**
 * Whether a 400 is the SSRF check refusing a webhook target (loopback, private, link-local, metadata address, the
 * server's own address, a host outside the organization's allowed hosts).
 */
export function isWebhookRefusal(error: unknown): boolean {
  if (!isHttpError(error) || error.status !== 400) return false;
  const message = error.serverMessage ?? '';
  return (
    /webhook/i.test(message) &&
    /never reach|allowed webhook hosts|loopback|private|link-local|metadata|reserved|multicast|not allowed|refused|blocked/i.test(
      message,
    )
  );
}
