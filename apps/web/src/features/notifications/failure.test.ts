import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { failureText, isWebhookRefusal, refusedWebhookHost } from './failure.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options?.status ? `${key}|${String(options.status)}` : key) as unknown as TFunction;
const refused = (status: number, serverMessage?: string) =>
  new HttpError('status', { status, serverMessage });

// The refusal the server's SSRF guard answers (apps/server/src/services/notifications/ssrf.ts).
const SSRF = "the webhook host '127.0.0.1' is a loopback address (127.0.0.0/8), which webhooks never reach";

describe('what a failed save says', () => {
  it("shows the portal's sentence and, for a refused input, the server's explanation", () => {
    expect(failureText(t, refused(400, 'undefined limits'), { 400: 'refused' })).toEqual({
      message: 'refused',
      detail: 'undefined limits',
    });
    expect(failureText(t, refused(409, 'name in use'), { 409: 'taken' })).toEqual({
      message: 'taken',
      detail: 'name in use',
    });
  });

  it('keeps the server text of a refused permission or a missing row to itself', () => {
    expect(failureText(t, refused(403, 'not allowed'), { 403: 'forbidden' })).toEqual({
      message: 'forbidden',
      detail: undefined,
    });
    expect(failureText(t, refused(404, 'not found'), {})).toEqual({
      message: 'errors.status|404',
      detail: undefined,
    });
  });

  it('describes a refusal the screen does not know with the status, keeping the explanation', () => {
    expect(failureText(t, refused(429, 'notifications per day used up'), {})).toEqual({
      message: 'errors.status|429',
      detail: 'notifications per day used up',
    });
    expect(failureText(t, new HttpError('network'), { 400: 'x' })).toEqual({
      message: 'errors.network',
      detail: undefined,
    });
  });

  it('recognises the SSRF refusal of a webhook and the host it names', () => {
    expect(isWebhookRefusal(refused(400, SSRF))).toBe(true);
    expect(
      isWebhookRefusal(
        refused(
          400,
          "the webhook host 'intranet.example' (resolves to 10.0.0.5) is a private address (10.0.0.0/8); only the server-wide setting WEBHOOK_ALLOWED_PRIVATE_HOSTS can open it",
        ),
      ),
    ).toBe(true);
    for (const message of [
      "the webhook host '192.0.2.2' is an address of this server, which webhooks never reach",
      "the webhook host 'hooks.example.com' (port 443) is not one of the organization's allowed webhook hosts",
    ])
      expect(isWebhookRefusal(refused(400, `body/recipients/webhooks/0: ${message}`))).toBe(true);
    expect(isWebhookRefusal(refused(400, 'body/name must NOT have fewer than 1 characters'))).toBe(false);
    expect(isWebhookRefusal(refused(409, SSRF))).toBe(false);
    expect(refusedWebhookHost(SSRF)).toBe('127.0.0.1');
    expect(refusedWebhookHost('refused: http://10.1.2.3/x', ['http://10.1.2.3/x'])).toBe('10.1.2.3');
    expect(refusedWebhookHost(undefined)).toBeUndefined();
  });
});
