import {
  bindingsOf,
  DASHBOARD_SCHEMA_VERSION,
  type DeviceSlot,
  type WidgetDocument,
} from '@edgeport/dashboard-schema';
import type { ClipboardPayload } from '../model/types.ts';

/**
 * A saved widget (the `widgets` collection) as a clipboard payload, so that inserting it is a paste: the slots its
 * bindings name come along (labelled by their name) and are added to the dashboard when it lacks them.
 */
export function savedWidgetPayload(document: WidgetDocument): ClipboardPayload {
  const slots = new Map<string, DeviceSlot>();
  for (const widget of document.widgets) {
    for (const [, binding] of bindingsOf(widget)) {
      if ('slot' in binding && !slots.has(binding.slot)) {
        slots.set(binding.slot, { name: binding.slot, label: binding.slot });
      }
    }
  }
  return {
    format: 'edgeport/widgets',
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    widgets: document.widgets,
    slots: [...slots.values()],
  };
}
