import type { dashboards } from '@edgeport/contract';
import type { FlowDocument, FlowEntry } from '@edgeport/dashboard-schema';

/** The kinds of a row of the three lists, by collection. */
export type Kind = 'dashboard' | 'flow' | 'widget';
/** What the caller may do with a dashboard, flow or widget (the `access` the server reports). */
export type AccessLevel = dashboards.AccessLevel;

/** The most a dashboard's (flow's, widget's) name may hold (the contract's `Name`). */
export const NAME_MAX = 120;

export type RowActions = {
  open: boolean;
  edit: boolean;
  duplicate: boolean;
  share: boolean;
  versions: boolean;
  delete: boolean;
};

/**
 * What a row offers (spec 4/6): readers open and list versions; editors also edit; owners (and the organization's
 * dashboard administrators, whom the server reports as owners) also share and delete. Duplicating makes a new one:
 * it needs CREATE on dashboards. Saved widgets have no viewer or editor of their own.
 */
export function rowActions(kind: Kind, access: AccessLevel, canCreate: boolean): RowActions {
  const viewable = kind !== 'widget';
  return {
    open: viewable,
    edit: viewable && access !== 'r',
    duplicate: canCreate,
    share: access === 'owner',
    versions: true,
    delete: access === 'owner',
  };
}

/** What a version row offers: open and list for all; edit and derive for editors; make current and delete for owners. */
export function versionActions(kind: Kind, access: AccessLevel, current: boolean) {
  const viewable = kind !== 'widget';
  const writes = access !== 'r';
  return {
    open: viewable,
    edit: viewable && writes,
    derive: writes,
    makeCurrent: access === 'owner' && !current,
    delete: access === 'owner' && !current,
  };
}

/** A copy's name ("Line 4 (copy)") within the name limit: the original is shortened, never the suffix. */
export function copyName(name: string, format: (name: string) => string, max = NAME_MAX): string {
  const full = format(name);
  if (full.length <= max) return full;
  const room = max - (full.length - name.length);
  return format(`${name.slice(0, Math.max(0, room - 1)).trimEnd()}…`);
}

/** The number a derived version gets: the next free one (the server refuses any other with 409). */
export function nextVersion(versions: readonly { version: number }[]): number {
  return versions.reduce((highest, entry) => Math.max(highest, entry.version), 0) + 1;
}

export type ShareChoice = 'none' | 'r' | 'r/w';

/** A user's current level on a dashboard. */
export function levelOf(shares: { readers: readonly string[]; editors: readonly string[] }, user: string) {
  if (shares.editors.includes(user)) return 'r/w';
  if (shares.readers.includes(user)) return 'r';
  return 'none';
}

/**
 * The share list call's body for the choices made in the dialog: only the users whose level changed, with their new
 * level, or without one when it is now "none" (spec 4: a user with no level is removed from both lists).
 */
export function shareChanges(
  shares: { readers: readonly string[]; editors: readonly string[] },
  choices: ReadonlyMap<string, ShareChoice>,
): { user: string; level?: 'r' | 'r/w' }[] {
  const changes: { user: string; level?: 'r' | 'r/w' }[] = [];
  for (const [user, choice] of choices) {
    if (levelOf(shares, user) === choice) continue;
    changes.push(choice === 'none' ? { user } : { user, level: choice });
  }
  return changes;
}

/** A fresh id for the editor of a new dashboard (`/dashboards/new-{random}/new`, the editor creates it on save). */
export function newDashboardPath(random: () => string = randomId): string {
  return `/dashboards/new-${random()}/new`;
}

function randomId(): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

/** A new entry id unique in the flow (the schema's `ElementId`: letters, digits, '-' and '_'). */
export function newEntryId(entries: readonly { id: string }[], random: () => string = randomId): string {
  const taken = new Set(entries.map((entry) => entry.id));
  for (;;) {
    const id = `e-${random().slice(0, 8)}`;
    if (!taken.has(id)) return id;
  }
}

// --- The flow's tree -----------------------------------------------------------------------------------------------

/** The flow's first level: the entries without a parent (or whose parent is missing), in document order. */
export function rootEntries(document: FlowDocument): FlowEntry[] {
  const ids = new Set(document.entries.map((entry) => entry.id));
  return document.entries.filter((entry) => entry.parentId === undefined || !ids.has(entry.parentId));
}

export function childrenOf(document: FlowDocument, id: string): FlowEntry[] {
  return document.entries.filter((entry) => entry.parentId === id && entry.id !== id);
}

export function entryOf(document: FlowDocument, id: string): FlowEntry | undefined {
  return document.entries.find((entry) => entry.id === id);
}

/** The entries from the first level down to `id` (the breadcrumbs); empty for an unknown id. Cycle-safe. */
export function trailTo(document: FlowDocument, id: string): FlowEntry[] {
  const trail: FlowEntry[] = [];
  const seen = new Set<string>();
  for (let entry = entryOf(document, id); entry && !seen.has(entry.id); ) {
    seen.add(entry.id);
    trail.unshift(entry);
    entry = entry.parentId === undefined ? undefined : entryOf(document, entry.parentId);
  }
  return trail;
}

/** `id` and every entry below it. */
export function subtreeOf(document: FlowDocument, id: string): Set<string> {
  const found = new Set<string>([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const entry of document.entries) {
      if (entry.parentId !== undefined && found.has(entry.parentId) && !found.has(entry.id)) {
        found.add(entry.id);
        grew = true;
      }
    }
  }
  return found;
}

export type ParentOutcome = { ok: true; document: FlowDocument } | { ok: false; reason: 'cycle' | 'unknown' };

/**
 * Makes `parentId` the parent of `childId` (undefined: a first-level entry). A parent inside the child's own subtree
 * (or the child itself) would make a cycle and is refused.
 */
export function setParent(
  document: FlowDocument,
  childId: string,
  parentId: string | undefined,
): ParentOutcome {
  if (!entryOf(document, childId)) return { ok: false, reason: 'unknown' };
  if (parentId !== undefined) {
    if (!entryOf(document, parentId)) return { ok: false, reason: 'unknown' };
    if (subtreeOf(document, childId).has(parentId)) return { ok: false, reason: 'cycle' };
  }
  return {
    ok: true,
    document: {
      ...document,
      entries: document.entries.map((entry) => {
        if (entry.id !== childId) return entry;
        const { parentId: _old, ...rest } = entry;
        return parentId === undefined ? rest : { ...rest, parentId };
      }),
    },
  };
}

/** Removes entries; their children move up to the removed entry's parent (the first level when it had none). */
export function removeEntries(document: FlowDocument, ids: ReadonlySet<string>): FlowDocument {
  const parentOf = new Map(document.entries.map((entry) => [entry.id, entry.parentId]));
  const survivingParent = (id: string | undefined): string | undefined => {
    const seen = new Set<string>();
    let current = id;
    while (current !== undefined && ids.has(current) && !seen.has(current)) {
      seen.add(current);
      current = parentOf.get(current);
    }
    return current !== undefined && ids.has(current) ? undefined : current;
  };
  return {
    ...document,
    entries: document.entries
      .filter((entry) => !ids.has(entry.id))
      .map((entry) => {
        if (entry.parentId === undefined || !ids.has(entry.parentId)) return entry;
        const { parentId, ...rest } = entry;
        const next = survivingParent(parentId);
        return next === undefined ? rest : { ...rest, parentId: next };
      }),
  };
}

/** Replaces one entry (the entry form's edits); a changed parent goes through `setParent`'s cycle check. */
export function replaceEntry(document: FlowDocument, next: FlowEntry): ParentOutcome {
  const current = entryOf(document, next.id);
  if (!current) return { ok: false, reason: 'unknown' };
  const { parentId, ...rest } = next;
  const replaced: FlowDocument = {
    ...document,
    entries: document.entries.map((entry) =>
      entry.id === next.id
        ? { ...rest, ...(current.parentId !== undefined && { parentId: current.parentId }) }
        : entry,
    ),
  };
  return parentId === current.parentId
    ? { ok: true, document: replaced }
    : setParent(replaced, next.id, parentId);
}

export function moveEntry(
  document: FlowDocument,
  id: string,
  position: { x: number; y: number },
): FlowDocument {
  return {
    ...document,
    entries: document.entries.map((entry) =>
      entry.id === id
        ? { ...entry, position: { x: Math.round(position.x), y: Math.round(position.y) } }
        : entry,
    ),
  };
}

/** Where a new entry goes in the editor: below its parent's lowest child, or below the lowest entry. */
export function placeFor(document: FlowDocument, parentId: string | undefined): { x: number; y: number } {
  const parent = parentId === undefined ? undefined : entryOf(document, parentId);
  if (parent) {
    const siblings = childrenOf(document, parent.id);
    const right = siblings.reduce((most, entry) => Math.max(most, entry.position.x + 240), parent.position.x);
    return { x: siblings.length === 0 ? parent.position.x : right, y: parent.position.y + 140 };
  }
  const lowest = document.entries.reduce((most, entry) => Math.max(most, entry.position.y), -140);
  return { x: 0, y: lowest + 140 };
}

// --- Device slots in the address -----------------------------------------------------------------------------------

export const SLOT_PARAM_PREFIX = 'ecc_device_';

/** The `ecc_device_{slot}` parameters of the address: slot name -> device id. */
export function slotDevicesOf(params: URLSearchParams): Record<string, string> {
  const slots: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name.startsWith(SLOT_PARAM_PREFIX) && value) slots[name.slice(SLOT_PARAM_PREFIX.length)] = value;
  }
  return slots;
}

/** The version asked for in the address (`version=3`), if it is a version number. */
export function versionParam(params: URLSearchParams): number | undefined {
  const raw = params.get('version');
  if (raw === null || !/^[1-9]\d*$/.test(raw)) return undefined;
  return Number(raw);
}
