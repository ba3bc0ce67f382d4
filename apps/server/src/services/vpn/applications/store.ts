import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { gateways, vpnActionProfiles, vpnActions, vpnApplicationPreferences } from '../../../db/schema.ts';

export type ProfileRow = typeof vpnActionProfiles.$inferSelect;
export type ActionRow = typeof vpnActions.$inferSelect;
export type PreferenceRow = typeof vpnApplicationPreferences.$inferSelect;
export type ProfileView = ProfileRow & { actionCount: number; gatewayCount: number };

const actionCount =
  sql<number>`(select count(*) from vpn_actions a where a.profile_id = "vpn_action_profiles"."id")`.mapWith(
    Number,
  );
const gatewayCount =
  sql<number>`(select count(*) from gateways g where g.profile_id = "vpn_action_profiles"."id")`.mapWith(
    Number,
  );

function profileViews(db: Db) {
  return db.select({ profile: vpnActionProfiles, actionCount, gatewayCount }).from(vpnActionProfiles);
}

const toProfileView = (row: {
  profile: ProfileRow;
  actionCount: number;
  gatewayCount: number;
}): ProfileView => ({
  ...row.profile,
  actionCount: row.actionCount,
  gatewayCount: row.gatewayCount,
});

// --- profiles -------------------------------------------------------------------------------------------------

export async function listProfiles(db: Db, organizationId: string): Promise<ProfileView[]> {
  const rows = await profileViews(db)
    .where(eq(vpnActionProfiles.organizationId, organizationId))
    .orderBy(asc(vpnActionProfiles.name));
  return rows.map(toProfileView);
}

export async function findProfile(
  db: Db,
  organizationId: string,
  id: string,
): Promise<ProfileView | undefined> {
  const [row] = await profileViews(db).where(
    and(eq(vpnActionProfiles.organizationId, organizationId), eq(vpnActionProfiles.id, id)),
  );
  return row ? toProfileView(row) : undefined;
}

export async function profileNamed(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select({ id: vpnActionProfiles.id })
    .from(vpnActionProfiles)
    .where(and(eq(vpnActionProfiles.organizationId, organizationId), eq(vpnActionProfiles.name, name)));
  return row;
}

export type ProfileFields = Pick<
  typeof vpnActionProfiles.$inferInsert,
  'name' | 'description' | 'otpRequired'
>;

export async function insertProfile(
  db: Db,
  organizationId: string,
  fields: ProfileFields,
): Promise<ProfileRow> {
  const [row] = await db
    .insert(vpnActionProfiles)
    .values({ ...fields, organizationId })
    .returning();
  if (!row) throw new Error('profile insert returned nothing');
  return row;
}

export async function updateProfile(db: Db, id: string, fields: Partial<ProfileFields>): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db.update(vpnActionProfiles).set(fields).where(eq(vpnActionProfiles.id, id));
}

export async function deleteProfile(db: Db, id: string): Promise<void> {
  await db.delete(vpnActionProfiles).where(eq(vpnActionProfiles.id, id));
}

export async function gatewaysUsingProfile(db: Db, profileId: string): Promise<string[]> {
  const rows = await db
    .select({ name: gateways.name })
    .from(gateways)
    .where(eq(gateways.profileId, profileId))
    .orderBy(asc(gateways.name));
  return rows.map((row) => row.name);
}

// --- actions --------------------------------------------------------------------------------------------------

export async function listActions(db: Db, organizationId: string): Promise<ActionRow[]> {
  return db
    .select()
    .from(vpnActions)
    .where(eq(vpnActions.organizationId, organizationId))
    .orderBy(asc(vpnActions.name));
}

export async function findAction(db: Db, organizationId: string, id: string): Promise<ActionRow | undefined> {
  const [row] = await db
    .select()
    .from(vpnActions)
    .where(and(eq(vpnActions.organizationId, organizationId), eq(vpnActions.id, id)));
  return row;
}

export async function actionNamed(
  db: Db,
  organizationId: string,
  name: string,
): Promise<ActionRow | undefined> {
  const [row] = await db
    .select()
    .from(vpnActions)
    .where(and(eq(vpnActions.organizationId, organizationId), eq(vpnActions.name, name)));
  return row;
}

export type ActionFields = Pick<
  typeof vpnActions.$inferInsert,
  'name' | 'profileId' | 'protocol' | 'port' | 'path' | 'clientOs' | 'description'
>;

export async function insertAction(db: Db, organizationId: string, fields: ActionFields): Promise<ActionRow> {
  const [row] = await db
    .insert(vpnActions)
    .values({ ...fields, organizationId })
    .returning();
  if (!row) throw new Error('action insert returned nothing');
  return row;
}

export async function updateAction(db: Db, id: string, fields: ActionFields): Promise<ActionRow | undefined> {
  const [row] = await db.update(vpnActions).set(fields).where(eq(vpnActions.id, id)).returning();
  return row;
}

export async function deleteAction(db: Db, id: string): Promise<void> {
  await db.delete(vpnActions).where(eq(vpnActions.id, id));
}

// --- preferences ----------------------------------------------------------------------------------------------

export async function pageOfPreferences(
  db: Db,
  owner: { organizationId: string; userId: string },
  gatewayName: string | undefined,
  window: { offset: number; pageSize: number },
): Promise<{ items: PreferenceRow[]; total: number }> {
  const where = and(
    eq(vpnApplicationPreferences.organizationId, owner.organizationId),
    eq(vpnApplicationPreferences.userId, owner.userId),
    gatewayName === undefined ? undefined : eq(vpnApplicationPreferences.gatewayName, gatewayName),
  );
  const items = await db
    .select()
    .from(vpnApplicationPreferences)
    .where(where)
    .orderBy(desc(vpnApplicationPreferences.createdAt), asc(vpnApplicationPreferences.id))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db.select({ total: count() }).from(vpnApplicationPreferences).where(where);
  return { items, total: total?.total ?? 0 };
}

export async function countPreferences(db: Db, owner: { organizationId: string; userId: string }) {
  const [row] = await db
    .select({ total: count() })
    .from(vpnApplicationPreferences)
    .where(
      and(
        eq(vpnApplicationPreferences.organizationId, owner.organizationId),
        eq(vpnApplicationPreferences.userId, owner.userId),
      ),
    );
  return row?.total ?? 0;
}

export async function insertPreference(
  db: Db,
  values: Omit<typeof vpnApplicationPreferences.$inferInsert, 'id' | 'createdAt'>,
): Promise<PreferenceRow> {
  const [row] = await db.insert(vpnApplicationPreferences).values(values).returning();
  if (!row) throw new Error('preference insert returned nothing');
  return row;
}

/** Deletes the user's own preference; undefined when it is not theirs (or not there). */
export async function deleteOwnPreference(
  db: Db,
  owner: { organizationId: string; userId: string },
  id: string,
): Promise<PreferenceRow | undefined> {
  const [row] = await db
    .delete(vpnApplicationPreferences)
    .where(
      and(
        eq(vpnApplicationPreferences.id, id),
        eq(vpnApplicationPreferences.organizationId, owner.organizationId),
        eq(vpnApplicationPreferences.userId, owner.userId),
      ),
    )
    .returning();
  return row;
}
