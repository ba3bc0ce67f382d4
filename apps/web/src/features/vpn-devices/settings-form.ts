import type { Gateway, GatewayChanges } from './api.ts';
import { parseIpFilter } from './validation.ts';

/** The gateway settings form: description, LAN network, application profile and IP filter (one entry a line). */
export type SettingsValues = {
  description: string;
  lanNetwork: string;
  profileId: string | null;
  ipFilter: string;
};

export function settingsOf(
  gateway: Pick<Gateway, 'description' | 'lanNetwork' | 'profileId' | 'ipFilter'>,
): SettingsValues {
  return {
    description: gateway.description,
    lanNetwork: gateway.lanNetwork ?? '',
    profileId: gateway.profileId,
    ipFilter: gateway.ipFilter.join('\n'),
  };
}

/** What changed in the form, as the PATCH body: only changed fields, the IP filter only when it is shown. */
export function changesOf(
  before: SettingsValues,
  after: SettingsValues,
  withIpFilter: boolean,
): GatewayChanges {
  const changes: GatewayChanges = {};
  if (after.description !== before.description) changes.description = after.description;
  const lan = after.lanNetwork.trim();
  if (lan !== before.lanNetwork) changes.lanNetwork = lan === '' ? null : lan;
  if (after.profileId !== before.profileId) changes.profileId = after.profileId;
  if (withIpFilter) {
    const filter = parseIpFilter(after.ipFilter);
    if (filter.join('\n') !== parseIpFilter(before.ipFilter).join('\n')) changes.ipFilter = filter;
  }
  return changes;
}
