import { GRID_COLUMNS, type Layout, type Widget } from '@edgeport/dashboard-schema';

/** One item of react-grid-layout's layout (the fields the editor uses). */
export type GridItem = { i: string; x: number; y: number; w: number; h: number };

const MAX_Y = 10_000;
const MAX_H = 200;

/** The widgets shown directly in a grid: the page's top level (no parent) or a group's children. */
export function widgetsIn(widgets: readonly Widget[], parentId: string | undefined): Widget[] {
  return widgets.filter((widget) => widget.parentId === parentId);
}

/** The grid layout of the widgets of one grid. */
export function gridLayoutOf(widgets: readonly Widget[]): GridItem[] {
  return widgets.map((widget) => ({ i: widget.id, ...widget.layout }));
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** A grid position brought inside the schema's bounds (24 columns, rows up to 10,000, heights up to 200). */
export function clampLayout(item: { x: number; y: number; w: number; h: number }): Layout {
  const w = clamp(item.w, 1, GRID_COLUMNS);
  return {
    x: clamp(item.x, 0, GRID_COLUMNS - w),
    y: clamp(item.y, 0, MAX_Y),
    w,
    h: clamp(item.h, 1, MAX_H),
  };
}

/** The widgets whose position changed in the grid's new layout (one history step for all of them). */
export function movedLayouts(
  widgets: readonly Widget[],
  next: readonly GridItem[],
): { id: string; layout: Layout }[] {
  const byId = new Map(widgets.map((widget) => [widget.id, widget]));
  const moved: { id: string; layout: Layout }[] = [];
  for (const item of next) {
    const widget = byId.get(item.i);
    if (!widget) continue;
    const layout = clampLayout(item);
    const old = widget.layout;
    if (layout.x !== old.x || layout.y !== old.y || layout.w !== old.w || layout.h !== old.h) {
      moved.push({ id: widget.id, layout });
    }
  }
  return moved;
}

/** The selection after a click on a widget: Ctrl, Cmd or Shift toggles it, a plain click selects only it. */
export function clickSelection(modifiers: {
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): 'replace' | 'toggle' {
  return modifiers.ctrlKey || modifiers.metaKey || modifiers.shiftKey ? 'toggle' : 'replace';
}
