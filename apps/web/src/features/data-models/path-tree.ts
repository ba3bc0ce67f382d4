/**
 * The `structs` view of a model: its paths grouped by their '/' segments (`/motor/speed` sits in group `/motor`).
 * Pure, so the tree can be tested without rendering.
 */
export type PathTreeNode<Entry> = {
  /** The last segment: `speed` of `/motor/speed`. */
  name: string;
  /** The node's own path: `/motor` for a group, `/motor/speed` for a value. */
  path: string;
  /** The model path entry when the node holds a value. */
  entry?: Entry;
  children: PathTreeNode<Entry>[];
};

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/**
 * Groups entries by their path segments. Groups come before values at each level, both by name (numbers in names
 * compare as numbers: `axis2` before `axis10`); entries without any segment are left out.
 */
export function buildPathTree<Entry extends { path: string }>(
  entries: readonly Entry[],
): PathTreeNode<Entry>[] {
  const root: PathTreeNode<Entry> = { name: '', path: '', children: [] };
  const byPath = new Map<string, PathTreeNode<Entry>>([['', root]]);
  for (const entry of entries) {
    const segments = segmentsOf(entry.path);
    if (segments.length === 0) continue;
    let parent = root;
    let path = '';
    for (const segment of segments) {
      path = `${path}/${segment}`;
      let node = byPath.get(path);
      if (!node) {
        node = { name: segment, path, children: [] };
        byPath.set(path, node);
        parent.children.push(node);
      }
      parent = node;
    }
    if (parent.entry === undefined) parent.entry = entry;
  }
  sortTree(root);
  return root.children;
}

function sortTree<Entry>(node: PathTreeNode<Entry>): void {
  node.children.sort((a, b) => {
    const aGroup = a.children.length > 0;
    const bGroup = b.children.length > 0;
    if (aGroup !== bGroup) return aGroup ? -1 : 1;
    return collator.compare(a.name, b.name);
  });
  for (const child of node.children) sortTree(child);
}

/** How many values a node holds, itself included. */
export function valueCount<Entry>(node: PathTreeNode<Entry>): number {
  return (
    (node.entry === undefined ? 0 : 1) + node.children.reduce((sum, child) => sum + valueCount(child), 0)
  );
}

/** The paths of every group (a node with children), depth first: what "expand all" opens. */
export function groupPaths<Entry>(nodes: readonly PathTreeNode<Entry>[]): string[] {
  const paths: string[] = [];
  const visit = (node: PathTreeNode<Entry>) => {
    if (node.children.length === 0) return;
    paths.push(node.path);
    for (const child of node.children) visit(child);
  };
  for (const node of nodes) visit(node);
  return paths;
}
