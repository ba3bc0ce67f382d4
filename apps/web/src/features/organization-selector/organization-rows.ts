import type { Organization } from '../../auth/organizations.ts';

export type OrganizationRow = {
  organization: Organization;
  /** 0 for a top-level organization, 1 for its sub-organizations, and so on. */
  depth: number;
  /** The parent's name, when the parent is in the list. */
  parentName: string | undefined;
};

const byName = (a: Organization, b: Organization) => a.name.localeCompare(b.name);

/**
 * The selector's rows: without a query, the organizations as a tree (sub-organizations indented under their
 * parent); with one, the matches on name or resourceId, flat, each naming its parent.
 */
export function organizationRows(organizations: readonly Organization[], query: string): OrganizationRow[] {
  const byId = new Map(organizations.map((organization) => [organization.id, organization]));
  const parentName = (organization: Organization) =>
    organization.parentId ? byId.get(organization.parentId)?.name : undefined;
  const needle = query.trim().toLowerCase();
  if (needle) {
    return organizations
      .filter(
        (organization) =>
          organization.name.toLowerCase().includes(needle) ||
          organization.resourceId.toLowerCase().includes(needle),
      )
      .sort(byName)
      .map((organization) => ({ organization, depth: 0, parentName: parentName(organization) }));
  }
  const children = new Map<string, Organization[]>();
  const roots: Organization[] = [];
  for (const organization of organizations) {
    const parentId = organization.parentId;
    if (parentId && byId.has(parentId))
      children.set(parentId, [...(children.get(parentId) ?? []), organization]);
    else roots.push(organization);
  }
  const rows: OrganizationRow[] = [];
  const visit = (organization: Organization, depth: number, seen: Set<string>) => {
    if (seen.has(organization.id)) return;
    seen.add(organization.id);
    rows.push({ organization, depth, parentName: parentName(organization) });
    for (const child of (children.get(organization.id) ?? []).sort(byName)) visit(child, depth + 1, seen);
  };
  const seen = new Set<string>();
  for (const root of roots.sort(byName)) visit(root, 0, seen);
  return rows;
}
