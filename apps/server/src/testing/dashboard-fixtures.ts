import { emptyDocument, readDocument } from '@edgeport/dashboard-schema';
import { and, eq } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/index.ts';
import { devices, models } from '../db/schema.ts';
import { insertDashboard, upsertShares } from '../services/dashboard/dashboards/store.ts';

/**
 * A dashboard, flow or widget of a seeded organization (by key; absent: the first one), owned by a seeded user (by
 * key), shared with others (by key). `document` is a document of `@edgeport/dashboard-schema` (absent: an empty one;
 * checked and migrated like the API does). Any string of the document that is exactly
 * `{{device:<label>}}`, `{{model:<name>}}` or `{{dashboard:<name>}}` becomes the id of that seeded device, model of
 * the organization, or dashboard/flow/widget seeded earlier in the same fixture. Answered as dashboards: name -> id.
 */
export const DashboardFixture = Type.Object({
  org: Type.Optional(Type.String()),
  name: Type.String({ minLength: 1 }),
  kind: Type.Optional(Type.Union([Type.Literal('dashboard'), Type.Literal('flow'), Type.Literal('widget')])),
  description: Type.Optional(Type.String()),
  owner: Type.String({ description: 'user key' }),
  document: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  shares: Type.Optional(
    Type.Array(
      Type.Object({ user: Type.String(), level: Type.Union([Type.Literal('r'), Type.Literal('r/w')]) }),
    ),
  ),
});
export type DashboardFixture = Static<typeof DashboardFixture>;

const refused = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

const PLACEHOLDER = /^\{\{(device|model|dashboard):(.+)\}\}$/;

type Lookup = (what: 'device' | 'model' | 'dashboard', name: string) => Promise<string>;

async function substitute(value: unknown, lookup: Lookup): Promise<unknown> {
  if (typeof value === 'string') {
    const match = PLACEHOLDER.exec(value);
    return match ? lookup(match[1] as 'device' | 'model' | 'dashboard', match[2] ?? '') : value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => substitute(item, lookup)));
  if (value && typeof value === 'object') {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await substitute(item, lookup)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

/** Inserts the dashboards with version 1 and their shares; answers their ids by name. */
export async function seedDashboards(
  db: Db,
  organizations: Record<string, { id: string }>,
  users: Record<string, { id: string }>,
  fixtures: readonly DashboardFixture[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const fixture of fixtures) {
    const org = fixture.org === undefined ? Object.values(organizations)[0] : organizations[fixture.org];
    if (!org) throw refused(`dashboards.org '${fixture.org ?? ''}' is not a seeded organization`);
    const owner = users[fixture.owner];
    if (!owner) throw refused(`dashboards.owner '${fixture.owner}' is not a seeded user`);
    const kind = fixture.kind ?? 'dashboard';
    const lookup: Lookup = async (what, name) => {
      if (what === 'dashboard') {
        const id = ids[name];
        if (!id) throw refused(`dashboards '${fixture.name}': no dashboard '${name}' seeded before it`);
        return id;
      }
      const table = what === 'device' ? devices : models;
      const column = what === 'device' ? devices.label : models.name;
      const [row] = await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.organizationId, org.id), eq(column, name)));
      if (!row) throw refused(`dashboards '${fixture.name}': no ${what} '${name}' in the organization`);
      return row.id;
    };
    const raw =
      fixture.document === undefined ? emptyDocument(kind) : await substitute(fixture.document, lookup);
    const read = readDocument(kind, raw, `dashboards/${fixture.name}/document`);
    if (!read.ok) throw refused(read.errors.join('; '));
    const document = read.document as unknown as Record<string, unknown>;
    const row = await insertDashboard(db, {
      organizationId: org.id,
      kind,
      name: fixture.name,
      description: fixture.description ?? '',
      ownerId: owner.id,
      document,
    });
    const shares = (fixture.shares ?? []).map((share) => {
      const user = users[share.user];
      if (!user) throw refused(`dashboards '${fixture.name}': shares user '${share.user}' is not seeded`);
      return { userId: user.id, level: share.level };
    });
    await upsertShares(db, row.id, shares);
    ids[fixture.name] = row.id;
  }
  return ids;
}
