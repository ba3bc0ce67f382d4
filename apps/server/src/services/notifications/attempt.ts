import type { Db } from '../../db/index.ts';
import type { EmailSender } from './email.ts';
import type { WebhookNetwork } from './network.ts';
import { channelConfigOf } from './settings.ts';
import { checkWebhookTarget } from './ssrf.ts';
import * as store from './store.ts';
import { postWebhook, SIGNATURE_HEADER, signatureOf, WEBHOOK_TIMEOUT_MS } from './webhook.ts';

/** One attempt's result: sent, or the reason and whether another attempt may succeed. */
export type AttemptResult = { ok: true } | { ok: false; error: string; retry: boolean };

export type AttemptDeps = {
  db: Db;
  sendEmail: EmailSender;
  baseDomain: string;
  /** The network the SSRF guard checks targets against (name resolution, the server's own addresses) and connects through. */
  network: WebhookNetwork;
  /** WEBHOOK_ALLOWED_PRIVATE_HOSTS. */
  privateHosts: readonly string[];
  webhookTimeoutMs?: number;
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** Sends one delivery once: e-mail from the organization's sender, or a signed webhook POST to a checked address. */
export async function attemptDelivery(row: store.DeliveryRow, deps: AttemptDeps): Promise<AttemptResult> {
  const channel = await channelConfigOf(deps.db, row.organizationId);
  if (row.channel === 'email') {
    const organization = await store.findOrganization(deps.db, row.organizationId);
    try {
      await deps.sendEmail({
        realm: organization?.realm ?? '',
        from: channel.sender ?? `no-reply@${deps.baseDomain}`,
        to: row.target,
        subject: row.subject,
        text: row.body,
      });
      return { ok: true };
    } catch (error) {
      return { ok: false, error: `e-mail not accepted: ${reasonOf(error)}`, retry: true };
    }
  }
  // Checked at every attempt against the addresses the host resolves to now, and the request goes to that address.
  const policy = { privateHosts: deps.privateHosts, organizationHosts: channel.allowedWebhookHosts };
  const check = await checkWebhookTarget(row.target, policy, deps.network);
  if (!check.ok) return { ok: false, error: check.reason, retry: !check.refused };
  const body = JSON.stringify({ ...row.payload, sentAt: new Date().toISOString() });
  const headers: Record<string, string> = { 'x-edgeport-delivery': row.id };
  if (channel.webhookSecret) headers[SIGNATURE_HEADER] = signatureOf(body, channel.webhookSecret);
  try {
    await postWebhook(
      check.target,
      body,
      headers,
      deps.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS,
      deps.network.connectLookup(check.target),
    );
    return { ok: true };
  } catch (error) {
    return { ok: false, error: reasonOf(error), retry: true };
  }
}
