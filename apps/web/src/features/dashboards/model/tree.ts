import type { Action, Binding, Widget } from '@edgeport/dashboard-schema';
import { bindingsOf } from '@edgeport/dashboard-schema';

/**
 * The tree of a page's widgets (a widget's `parentId` names a group of the same page) and the references a widget
 * makes to the rest of the document (slots, variables, pages). Pure functions over immutable widgets.
 */

/** Every id of `ids` with all its descendants (a group's children, their children...). */
export function withDescendants(widgets: readonly Widget[], ids: Iterable<string>): Set<string> {
  const children = new Map<string, string[]>();
  for (const widget of widgets) {
    if (widget.parentId === undefined) continue;
    const list = children.get(widget.parentId);
    if (list) list.push(widget.id);
    else children.set(widget.parentId, [widget.id]);
  }
  const found = new Set<string>();
  const queue = [...ids];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    for (const child of children.get(id) ?? []) queue.push(child);
  }
  return found;
}

/** The ids of `ids` none of whose ancestors is in `ids` (what a drag, a group or a paste moves as a whole). */
export function rootsOf(widgets: readonly Widget[], ids: ReadonlySet<string>): string[] {
  const parentOf = new Map(widgets.map((widget) => [widget.id, widget.parentId]));
  return widgets
    .filter((widget) => {
      if (!ids.has(widget.id)) return false;
      const seen = new Set<string>([widget.id]);
      for (let parent = widget.parentId; parent !== undefined; parent = parentOf.get(parent)) {
        if (ids.has(parent)) return false;
        if (seen.has(parent)) break;
        seen.add(parent);
      }
      return true;
    })
    .map((widget) => widget.id);
}

/** The slot names a widget uses: its bindings, an alarm list's slot, a load-dashboard action's slot mappings. */
export function slotsUsedBy(widget: Widget): string[] {
  const names = bindingsOf(widget).flatMap(([, binding]) => ('slot' in binding ? [binding.slot] : []));
  if (widget.type === 'alarmList' && widget.options.slot !== undefined) names.push(widget.options.slot);
  if (widget.type === 'button' && widget.action.kind === 'loadDashboard') {
    for (const source of Object.values(widget.action.slots)) if ('slot' in source) names.push(source.slot);
  }
  return names;
}

/** The variable names a widget uses: its variable bindings and a set-variable action. */
export function variablesUsedBy(widget: Widget): string[] {
  const names = bindingsOf(widget).flatMap(([, binding]) =>
    'variable' in binding ? [binding.variable] : [],
  );
  if (widget.type === 'button' && widget.action.kind === 'setVariable') names.push(widget.action.variable);
  return names;
}

/** What a widget may refer to in its document. */
export type References = {
  slots: ReadonlySet<string>;
  variables: ReadonlySet<string>;
  pageIds: ReadonlySet<string>;
  rootPageId: string;
};

function withoutBinding<W extends { binding?: unknown }>(widget: W): W {
  const { binding: _dropped, ...rest } = widget;
  return rest as W;
}

function repairAction(action: Action, refs: References): Action {
  const home: Action = { kind: 'navigate', pageId: refs.rootPageId };
  switch (action.kind) {
    case 'navigate':
      return refs.pageIds.has(action.pageId) ? action : home;
    case 'write':
      return refs.slots.has(action.binding.slot) ? action : home;
    case 'setVariable':
      return refs.variables.has(action.variable) ? action : home;
    case 'loadDashboard': {
      const entries = Object.entries(action.slots);
      const kept = entries.filter(([, source]) => !('slot' in source) || refs.slots.has(source.slot));
      return kept.length === entries.length ? action : { ...action, slots: Object.fromEntries(kept) };
    }
  }
}

/**
 * The widget with every reference to something the document lacks taken out (the same object when nothing is
 * missing): bindings to unknown slots or variables are dropped, an alarm list forgets an unknown slot, a
 * load-dashboard action forgets slot mappings to unknown slots, and a button whose action names an unknown page,
 * slot or variable navigates to the root page instead (a harmless action the user sees and can change; one undo
 * brings the old one back).
 */
export function repairWidget(widget: Widget, refs: References): Widget {
  const known = (binding: Binding) =>
    'slot' in binding ? refs.slots.has(binding.slot) : refs.variables.has(binding.variable);
  switch (widget.type) {
    case 'value':
    case 'gauge':
    case 'switch':
    case 'setpoint':
      return widget.binding && !known(widget.binding) ? withoutBinding(widget) : widget;
    case 'lineChart':
    case 'barChart':
    case 'table': {
      const kept = widget.bindings.filter(known);
      return kept.length === widget.bindings.length ? widget : { ...widget, bindings: kept };
    }
    case 'alarmList': {
      if (widget.options.slot === undefined || refs.slots.has(widget.options.slot)) return widget;
      const { slot: _dropped, ...options } = widget.options;
      return { ...widget, options };
    }
    case 'button': {
      const action = repairAction(widget.action, refs);
      return action === widget.action ? widget : { ...widget, action };
    }
    default:
      return widget;
  }
}
