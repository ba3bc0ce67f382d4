import { readDocument } from '@edgeport/dashboard-schema';
import type { ClipboardPayload } from '../model/types.ts';
import { savedWidgetPayload } from './saved-widgets.ts';

/**
 * A gallery widget's document as a clipboard payload (inserted like a paste, as saved widgets are), or the reasons it
 * cannot be: the document is checked (and migrated) like any widget document first.
 */
export function galleryWidgetPayload(
  document: unknown,
): { ok: true; payload: ClipboardPayload } | { ok: false; errors: string[] } {
  const read = readDocument('widget', document);
  if (!read.ok) return { ok: false, errors: read.errors };
  if (read.document.widgets.length === 0) return { ok: false, errors: ['document/widgets is empty'] };
  return { ok: true, payload: savedWidgetPayload(read.document) };
}
