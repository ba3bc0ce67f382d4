import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, HttpError, notFound } from '../../../http/errors.ts';
import { realmOfHost } from '../../../http/principal.ts';
import { findAccountByEmail } from '../../../identity/accounts.ts';
import { latestAgreements, recordAcceptance } from '../agreements/store.ts';
import { addDefaultRoles, addMember, createOrganization, createUser } from '../organizations/provisioning.ts';
import { findRealm } from '../organizations/store.ts';

/**
 * Self-onboarding (spec 7): a new organization in the realm the host names, its default roles, and its first user as
 * Administrator, who has accepted the service's current agreements. The user then signs in normally.
 */
export async function selfOnboard(db: Db, host: string | undefined, input: core.SelfOnboarding) {
  const realmName = realmOfHost(host);
  const realm = realmName ? await findRealm(db, realmName) : undefined;
  if (!realm) throw notFound('the host names no realm to register in');
  if (await findAccountByEmail(db, realm.name, input.email)) {
    throw new HttpError(409, 'email: an account with this email already exists');
  }
  const required = await latestAgreements(db, realm.name, input.agreementsServiceName);
  const missing = required.filter((agreement) => !input.acceptedAgreementIds.includes(agreement.id));
  if (missing.length > 0) {
    throw badRequest(
      `acceptedAgreementIds must include every current agreement (missing: ${missing.map((a) => a.type).join(', ')})`,
    );
  }
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const org = await createOrganization(txDb, { realm: realm.name, name: input.organizationName });
    const roles = await addDefaultRoles(txDb, org.id);
    const user = await createUser(txDb, {
      realm: realm.name,
      email: input.email,
      password: input.password,
      firstName: input.firstName,
      lastName: input.lastName,
    });
    await addMember(txDb, org.id, user.id, [roles.administrator.id]);
    await recordAcceptance(
      txDb,
      user.id,
      required.map((agreement) => agreement.id),
    );
    return { organizationId: org.id, resourceId: org.resourceId };
  });
}
