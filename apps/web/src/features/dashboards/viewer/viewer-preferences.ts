/** The preference keys the viewer stores per user and dashboard (spec 7 "userPreferences"). */
export const PAGE_KEY = 'viewer.page';
export const SLOTS_KEY = 'viewer.slots';

export type ViewerPreferences = { pageId?: string; slots: Record<string, string> };

const SLOT_NAME = /^[a-z][a-z0-9_]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The viewer's stored choices out of the caller's preferences; anything malformed is ignored. */
export function parseViewerPreferences(
  list: readonly { key: string; value: unknown }[] | undefined,
): ViewerPreferences {
  const result: ViewerPreferences = { slots: {} };
  for (const { key, value } of list ?? []) {
    if (key === PAGE_KEY && typeof value === 'string' && value.length > 0 && value.length <= 200) {
      result.pageId = value;
    }
    if (key === SLOTS_KEY && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [slot, id] of Object.entries(value)) {
        if (SLOT_NAME.test(slot) && typeof id === 'string' && UUID.test(id)) result.slots[slot] = id;
      }
    }
  }
  return result;
}

/** The address asks for a page (`page={id}`), or undefined. */
export function requestedPage(params: URLSearchParams): string | undefined {
  return params.get('page') || undefined;
}

/** Whether the stored choices matter: only when the address leaves the devices or the page open (one GET then). */
export function needsStoredChoices(
  addressSlots: Readonly<Record<string, string>>,
  addressPage?: string,
): boolean {
  return Object.keys(addressSlots).length === 0 || addressPage === undefined;
}

/**
 * What the viewer opens with: the address always wins; the stored devices apply only when the address names no
 * device at all (a partial address is a deliberate choice), the stored page only when it names no page.
 */
export function initialChoices(
  addressSlots: Readonly<Record<string, string>>,
  addressPage: string | undefined,
  stored: ViewerPreferences,
): { slots: Record<string, string>; pageId: string | undefined } {
  return {
    slots: Object.keys(addressSlots).length > 0 ? { ...addressSlots } : { ...stored.slots },
    pageId: addressPage ?? stored.pageId,
  };
}
