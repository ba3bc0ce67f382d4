import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest } from '../../../http/errors.ts';
import { type Principal, realmOfHost } from '../../../http/principal.ts';
import * as store from './store.ts';

function toAgreement({ realm: _realm, ...row }: store.AgreementRow): core.Agreement {
  return { ...row, publishedAt: row.publishedAt.toISOString() };
}

/** The current agreements of the realm the host names (none for a host without realm). */
export async function lastAgreements(
  db: Db,
  host: string | undefined,
  serviceName: string,
): Promise<core.Agreement[]> {
  const realm = realmOfHost(host);
  return realm ? (await store.latestAgreements(db, realm, serviceName)).map(toAgreement) : [];
}

/** Agreements of the service whose newest version the caller has not accepted yet. */
export async function pendingAgreements(
  db: Db,
  principal: Principal,
  serviceName: string,
): Promise<core.Agreement[]> {
  const latest = await store.latestAgreements(db, principal.realm, serviceName);
  const accepted = await store.acceptedAgreementIds(
    db,
    principal.userId,
    latest.map((row) => row.id),
  );
  return latest.filter((row) => !accepted.has(row.id)).map(toAgreement);
}

export async function acceptAgreements(db: Db, principal: Principal, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const known = await store.existingAgreementIds(db, principal.realm, unique);
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length > 0) throw badRequest(`ids contains unknown agreements: ${unknown.join(', ')}`);
  await store.recordAcceptance(db, principal.userId, unique);
}
