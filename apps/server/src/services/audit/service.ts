import type { Db } from '../../db/index.ts';
import type { Principal } from '../../http/principal.ts';
import * as store from './store.ts';

export type AuditEvent = {
  /** The organization the change happened in (null for realm-wide changes such as a user's own account). */
  organizationId: string | null;
  /** `{resourceType}.{verb}`, for example `roles.update`. */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  resourceName?: string;
  /** What changed; stored as given, shown back as text. Never put secrets here. */
  detail?: Record<string, unknown>;
};

function actorEmail(principal: Principal): string {
  const { email, preferred_username: username } = principal.token as {
    email?: unknown;
    preferred_username?: unknown;
  };
  if (typeof email === 'string') return email;
  return typeof username === 'string' ? username : '';
}

/** Records one mutation for the audit log. Every service calls this after a change succeeded. */
export async function recordAudit(db: Db, principal: Principal, event: AuditEvent): Promise<void> {
  await store.insertAuditRecord(db, {
    realm: principal.realm,
    organizationId: event.organizationId,
    actorId: principal.userId,
    actorEmail: actorEmail(principal),
    action: event.action,
    resourceType: event.resourceType,
    resourceId: event.resourceId ?? null,
    resourceName: event.resourceName ?? '',
    detail: event.detail ?? {},
  });
}
