import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from './ssrf.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const SIGNATURE_HEADER = 'x-edgeport-signature';

/** `sha256=<hex HMAC-SHA256 of the body>` with the organization's webhook secret. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs the JSON body to the checked target, connecting to the addresses the SSRF guard checked (the host name is not
 * resolved again, so DNS rebinding cannot change it; TLS still verifies the certificate for the host name). Redirects
 * are not followed. Resolves on a 2xx answer; throws with the reason otherwise.
 */
export function postWebhook(
  target: WebhookTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  const { url, address } = target;
  // Only checked addresses: all of them where the socket tries several (happy eyeballs), else the first.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, target.addresses);
    else callback(null, address.address, address.family);
  };
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
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`the webhook did not answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(
        error.message.startsWith('the webhook')
          ? error
          : new Error(`the webhook could not be reached: ${error.message}`),
      );
    });
    request.end(body);
  });
}
