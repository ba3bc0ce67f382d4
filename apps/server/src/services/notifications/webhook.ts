import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedLookup } from './network.ts';
import type { WebhookTarget } from './ssrf.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const SIGNATURE_HEADER = 'x-edgeport-signature';
/**
 * The one reason for every failure short of an HTTP answer — refused, reset, timed out, TLS or no HTTP at all — so a
 * delivery's error does not tell closed, open and non-HTTP ports apart.
 */
export const UNREACHABLE = 'the webhook could not be reached or gave no HTTP answer in time';

/** `sha256=<hex HMAC-SHA256 of the body>` with the organization's webhook secret. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs the JSON body to the checked target, connecting to the addresses the SSRF guard checked (the host name is not
 * resolved again, so DNS rebinding cannot change it; TLS still verifies the certificate for the host name). Redirects
 * are not followed. Resolves on a 2xx answer; throws with the HTTP status, or UNREACHABLE without an HTTP answer.
 */
export function postWebhook(
  target: WebhookTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  lookup: LookupFunction = checkedLookup(target),
): Promise<void> {
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<void>((resolve, reject) => {
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: target.host,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Edgeport-Notifier/1',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        response.on('end', () => {
          clearTimeout(timer);
          if (status >= 200 && status < 300) resolve();
          else
            reject(
              new Error(
                status >= 300 && status < 400
                  ? `the webhook answered HTTP ${status} (redirects are not followed)`
                  : `the webhook answered HTTP ${status}`,
              ),
            );
        });
        response.on('error', () => {
          clearTimeout(timer);
          reject(new Error(UNREACHABLE));
        });
      },
    );
    const timer = setTimeout(() => request.destroy(), timeoutMs);
    request.on('error', () => {
      clearTimeout(timer);
      reject(new Error(UNREACHABLE));
    });
    request.end(body);
  });
}
