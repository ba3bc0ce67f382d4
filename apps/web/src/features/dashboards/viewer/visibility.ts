import type { Widget } from '@edgeport/dashboard-schema';
import type { Dashboard } from '../api.ts';

/** The caller's access to a dashboard, as the server answers it ('owner', 'r/w' or 'r'). */
export type DashboardAccess = Dashboard['access'];

/**
 * Whether a caller with this access sees the widget (widgetPermissions): a widget `visibleTo: 'editors'` is shown to
 * owners and editors only, never to readers ('r').
 *
 * This is presentation only, not a permission: it keeps a reader's screen to what matters to them. The document and
 * the values its bindings read are the reader's to see anyway (they read the dashboard and their device rights
 * decide the values), so nothing is secret here and the server does not filter.
 */
export function shownTo(widget: Widget, access: DashboardAccess): boolean {
  return access !== 'r' || widget.visibleTo !== 'editors';
}

/**
 * The widgets of a page the caller sees, in document order: those hidden from them left out, and with a hidden group
 * everything inside it. The same array when nothing is hidden.
 */
export function visibleWidgets(widgets: readonly Widget[], access: DashboardAccess): readonly Widget[] {
  if (access !== 'r' || !widgets.some((widget) => widget.visibleTo === 'editors')) return widgets;
  const byId = new Map(widgets.map((widget) => [widget.id, widget]));
  const hidden = new Map<string, boolean>();
  const isHidden = (widget: Widget, seen: Set<string>): boolean => {
    const known = hidden.get(widget.id);
    if (known !== undefined) return known;
    let result = !shownTo(widget, access);
    const parent = widget.parentId === undefined ? undefined : byId.get(widget.parentId);
    // A parent cycle (refused by the schema) is not followed twice.
    if (!result && parent && !seen.has(parent.id)) result = isHidden(parent, seen.add(widget.id));
    hidden.set(widget.id, result);
    return result;
  };
  return widgets.filter((widget) => !isHidden(widget, new Set()));
}
