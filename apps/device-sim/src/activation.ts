import { createLicenseClient } from '@edgeport/api-client';
import type { DeviceCredentials } from './device.ts';
import type { TagKind, TagSpec } from './signals.ts';

export type ActivatedSimulator = DeviceCredentials & { label: string; tags: TagSpec[] };

export type ActivationOptions = {
  server: string;
  apiKey: string;
  organization: string;
  presetId: string;
  count: number;
  labelPrefix?: string;
  onProgress?: (done: number, total: number) => void;
};

const KINDS: readonly string[] = ['number', 'integer', 'boolean', 'string'];

/**
 * Activates `count` devices of a preset the way a person does in the walkthrough, through the licence service with a
 * personal API key: issue activation keys, activate each with a label, keep the credentials and the preset's tags.
 */
export async function activateDevices(options: ActivationOptions): Promise<ActivatedSimulator[]> {
  const client = createLicenseClient({
    baseUrl: options.server,
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  const org = { org: options.organization };
  const activated: ActivatedSimulator[] = [];
  while (activated.length < options.count) {
    const count = Math.min(100, options.count - activated.length);
    const issued = await client.POST('/svc/license/api/v1/organizations/{org}/deviceLicenses', {
      params: { path: org },
      body: { count },
    });
    if (!issued.data) throw new Error(`issuing activation keys failed: ${issued.response.status}`);
    for (const license of issued.data.items) {
      const label = `${options.labelPrefix ?? 'Simulated'} ${String(activated.length + 1).padStart(4, '0')}`;
      const result = await client.POST('/svc/license/api/v1/organizations/{org}/deviceLicenses/activate', {
        params: { path: org },
        body: { activationKey: license.activationKey, label, presetId: options.presetId },
      });
      if (!result.data) throw new Error(`activating ${label} failed: ${result.response.status}`);
      activated.push({
        deviceId: result.data.credentials.username,
        password: result.data.credentials.password,
        label,
        tags: result.data.edgeConfiguration.dataTags
          .filter((tag) => KINDS.includes(tag.type))
          .map((tag) => ({ tag: tag.tag, kind: tag.type as TagKind })),
      });
      options.onProgress?.(activated.length, options.count);
    }
  }
  return activated;
}
