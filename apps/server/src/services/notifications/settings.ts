import type { notifications } from '@edgeport/contract';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { hostAddresses } from './network.ts';
import { isTimeZone } from './quiet-hours.ts';
import { allowedHostRefusal, normalizeAllowedHost, type WebhookPolicy } from './ssrf.ts';
import * as store from './store.ts';

/** The organization's channel settings as the notifier uses them (defaults when none were saved). */
export type ChannelConfig = {
  sender: string | null;
  webhookSecret: string | null;
  quietHours: { start: string; end: string; timeZone: string } | null;
  allowedWebhookHosts: string[];
};

export async function channelConfigOf(db: Db, organizationId: string): Promise<ChannelConfig> {
  const row = await store.findSettings(db, organizationId);
  return {
    sender: row?.sender ?? null,
    webhookSecret: row?.webhookSecret ?? null,
    quietHours: row?.quietHours ?? null,
    allowedWebhookHosts: row?.allowedWebhookHosts ?? [],
  };
}

/**
 * Where the organization's webhooks may go: public hosts (only its allowed webhook hosts when it lists any), and private
 * addresses of the hosts the server opened (`privateHosts`: WEBHOOK_ALLOWED_PRIVATE_HOSTS).
 */
export async function webhookPolicyOf(
  db: Db,
  organizationId: string,
  privateHosts: readonly string[],
): Promise<WebhookPolicy> {
  const organizationHosts = (await store.findSettings(db, organizationId))?.allowedWebhookHosts ?? [];
  return { privateHosts, organizationHosts };
}

function toSettings(config: ChannelConfig): notifications.ChannelSettings {
  return {
    sender: config.sender,
    webhookSecretSet: config.webhookSecret !== null,
    quietHours: config.quietHours,
    allowedWebhookHosts: config.allowedWebhookHosts,
  };
}

export async function getSettings(db: Db, principal: Principal, ref: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  return toSettings(await channelConfigOf(db, org.id));
}

/**
 * The allowed webhook hosts as stored: normalised, without repeats. They narrow where webhooks go and open nothing, so
 * an entry webhooks could never reach (loopback, link-local, metadata, this server's own address, a private address
 * the server did not open) is refused, naming it.
 */
function allowedHosts(entries: readonly string[], privateHosts: readonly string[]): string[] {
  const hosts: string[] = [];
  const own = hostAddresses();
  for (const [index, entry] of entries.entries()) {
    const field = `body/allowedWebhookHosts/${index}`;
    const normalized = normalizeAllowedHost(entry);
    if (!normalized)
      throw badRequest(`${field} must be a host name or address, optionally with :port (got '${entry}')`);
    const refusal = allowedHostRefusal(normalized, privateHosts, own);
    if (refusal)
      throw badRequest(
        `${field}: '${entry}' is ${refusal}; allowed webhook hosts only narrow where webhooks may go`,
      );
    if (!hosts.includes(normalized)) hosts.push(normalized);
  }
  return hosts;
}

/** Changes the given settings; the secret is write-only and never reaches the audit log. */
export async function updateSettings(
  db: Db,
  principal: Principal,
  ref: string,
  update: notifications.ChannelSettingsUpdate,
  privateHosts: readonly string[],
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const values: store.SettingsValues = {};
  const detail: Record<string, unknown> = {};
  if (update.sender !== undefined) {
    values.sender = update.sender === null ? null : update.sender.trim();
    detail.sender = values.sender;
  }
  if (update.webhookSecret !== undefined) {
    values.webhookSecret = update.webhookSecret;
    detail.webhookSecret = update.webhookSecret === null ? 'removed' : 'set';
  }
  if (update.quietHours !== undefined) {
    if (update.quietHours !== null && !isTimeZone(update.quietHours.timeZone))
      throw badRequest(
        `body/quietHours/timeZone must be an IANA time zone such as Europe/Berlin (got '${update.quietHours.timeZone}')`,
      );
    values.quietHours = update.quietHours;
    detail.quietHours = update.quietHours;
  }
  if (update.allowedWebhookHosts !== undefined) {
    const hosts = allowedHosts(update.allowedWebhookHosts, privateHosts);
    values.allowedWebhookHosts = hosts;
    detail.allowedWebhookHosts = hosts;
  }
  await store.saveSettings(db, org.id, values);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'notificationSettings.update',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail,
  });
  return toSettings(await channelConfigOf(db, org.id));
}
