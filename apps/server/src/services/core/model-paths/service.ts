import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { modelPathsOfOrganization } from '../../mappings/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';

/** Lists are merged and paged in memory, so an organization's registered paths stay bounded. */
export const MAX_REGISTERED_PATHS = 10_000;
const DEFAULT_PAGE_SIZE = 100;

/** Code-unit order, the same on PGlite and PostgreSQL whatever their collation. */
function byPath(a: core.KnownModelPath, b: core.KnownModelPath): number {
  if (a.path === b.path) return 0;
  return a.path < b.path ? -1 : 1;
}

/** One row per path; a registered path stays `registered` when a model has it too. */
function merged(registered: string[], fromModels: string[]): core.KnownModelPath[] {
  const sources = new Map<string, core.ModelPathSource>();
  for (const path of fromModels) sources.set(path, 'model');
  for (const path of registered) sources.set(path, 'registered');
  return [...sources].map(([path, source]) => ({ path, source })).sort(byPath);
}

/** The paths the organization's roles can grant: the registered ones and those of its models (READ roles). */
export async function listModelPaths(
  db: Db,
  principal: Principal,
  ref: string,
  query: core.ModelPathQuery,
): Promise<core.ModelPathPage> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  const search = query.search?.trim() || undefined;
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const [registered, fromModels] = await Promise.all([
    store.registeredPaths(db, org.id, search),
    modelPathsOfOrganization(db, org.id, search),
  ]);
  const all = merged(registered, fromModels);
  return { items: all.slice(page * pageSize, (page + 1) * pageSize), total: all.length, page, pageSize };
}

/** The trimmed paths; 400 naming the first one that does not start with '/' or repeats an earlier one. */
function checkPaths(paths: string[]): string[] {
  const seen = new Set<string>();
  return paths.map((raw, index) => {
    const path = raw.trim();
    if (!path.startsWith('/')) throw badRequest(`body/paths/${index} must start with '/'`);
    if (seen.has(path)) throw badRequest(`body/paths/${index} '${path}' is listed twice`);
    seen.add(path);
    return path;
  });
}

async function ensureRoom(db: Db, organizationId: string, adding: number): Promise<void> {
  if ((await store.countRegistered(db, organizationId)) + adding > MAX_REGISTERED_PATHS)
    throw conflict(`an organization can register at most ${MAX_REGISTERED_PATHS} model paths`);
}

/** Registers paths for the organization's roles to grant (UPDATE roles); those registered already are kept. */
export async function registerModelPaths(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.ModelPathRegistration,
): Promise<core.KnownModelPath[]> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'roles');
  const paths = checkPaths(input.paths);
  await ensureRoom(db, org.id, paths.length);
  const added = await store.registerPaths(db, org.id, paths);
  if (added.length > 0) {
    const fresh = new Set(added);
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'modelPaths.register',
      resourceType: 'modelPaths',
      resourceName: added.length === 1 ? (added[0] ?? '') : `${added.length} model paths`,
      detail: { added, kept: paths.filter((path) => !fresh.has(path)) },
    });
  }
  return paths.map((path): core.KnownModelPath => ({ path, source: 'registered' })).sort(byPath);
}
