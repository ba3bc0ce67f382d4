/** The parts of an organization the tree needs. */
export type TreeOrganization = {
  id: string;
  name: string;
  parentId: string | null;
  iotEnabled: boolean;
  vpnEnabled: boolean;
};

export type TreeRow<T extends TreeOrganization> = {
  organization: T;
  depth: number;
  childCount: number;
  parentName: string | undefined;
};

/**
 * The root and its descendants in tree order (each parent before its children, siblings by name), with their depth.
 * Descendants whose parent is not in the list are left out: they cannot be placed.
 */
export function treeRows<T extends TreeOrganization>(root: T, descendants: readonly T[]): TreeRow<T>[] {
  const children = new Map<string, T[]>();
  for (const organization of descendants) {
    if (!organization.parentId || organization.id === root.id) continue;
    const siblings = children.get(organization.parentId) ?? [];
    siblings.push(organization);
    children.set(organization.parentId, siblings);
  }
  for (const siblings of children.values()) {
    siblings.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }
  const rows: TreeRow<T>[] = [];
  const seen = new Set<string>();
  const visit = (organization: T, depth: number, parentName: string | undefined) => {
    if (seen.has(organization.id)) return;
    seen.add(organization.id);
    const below = children.get(organization.id) ?? [];
    rows.push({ organization, depth, childCount: below.length, parentName });
    for (const child of below) visit(child, depth + 1, organization.name);
  };
  visit(root, 0, undefined);
  return rows;
}

/** `id` and every organization below it in `rows`. */
export function subtreeIds(
  items: readonly { id: string; parentId: string | null }[],
  id: string,
): Set<string> {
  const found = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of items) {
      if (item.parentId && found.has(item.parentId) && !found.has(item.id)) {
        found.add(item.id);
        grew = true;
      }
    }
  }
  return found;
}
