import type { Kind } from './logic.ts';

/**
 * Where each kind opens (spec 2): a dashboard in its viewer `/dashboards/{id}` (optional `version`), a flow as its
 * card app `/flow/{id}`; saved widgets have no page of their own.
 */
export function openPath(kind: Kind, id: string, version?: number): string {
  const query = version === undefined ? '' : `?version=${version}`;
  return kind === 'flow' ? `/flow/${id}${query}` : `/dashboards/${id}${query}`;
}

/**
 * Where each kind is edited: a dashboard in its editor `/dashboards/{id}/edit`; a flow in the flow editor, which is
 * the flow viewer's edit mode `/flow/{id}?edit=1` (so it opens at an address and the browser's back leaves it).
 */
export function editPath(kind: Kind, id: string, version?: number): string {
  if (kind === 'flow') return `/flow/${id}?edit=1${version === undefined ? '' : `&version=${version}`}`;
  return `/dashboards/${id}/edit${version === undefined ? '' : `?version=${version}`}`;
}

/** A flow entry in the viewer: `/flow/{flowId}/{entryId}`, keeping the version asked for. */
export function entryPath(flowId: string, entryId: string | undefined, version?: number): string {
  const base = entryId === undefined ? `/flow/${flowId}` : `/flow/${flowId}/${entryId}`;
  return version === undefined ? base : `${base}?version=${version}`;
}
