import { badRequest, HttpError } from '../../../http/errors.ts';

/** The image types dashboards may show, each with how its first bytes look. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The largest file one upload may carry. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_TEXT = '10 MiB';

const NAMES: Record<ImageType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/svg+xml': 'SVG',
};

/** The declared media type without parameters, lowercase (`image/svg+xml; charset=utf-8` -> `image/svg+xml`). */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Whether the text is an SVG document: after an optional BOM, XML declaration, comments and doctype, `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^<svg[\s>]/.test(rest);
}

/**
 * Active content an SVG may carry: scripts, event handlers, javascript: URLs, embedded HTML. Such files are refused
 * (they are also served with a sandboxing Content-Security-Policy, so this is the second line of defence).
 */
const SVG_ACTIVE = /<script|<foreignObject|<iframe|<embed|<object|\son[a-z]+\s*=|javascript:|<!ENTITY/i;

/** The image type the bytes really are, or undefined. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (looksLikeSvg(bytes)) return 'image/svg+xml';
  return undefined;
}

/**
 * Checks an uploaded file: its declared type is one of the image types, its bytes are of that type (magic bytes),
 * it is not empty and not larger than the limit, and an SVG carries no script. Returns the type to store.
 * `field` names where the file came from in error messages (`body`, `body/file`).
 */
export function checkImage(declared: string | undefined, bytes: Uint8Array, field: string): ImageType {
  const type = mediaTypeOf(declared);
  if (!(IMAGE_TYPES as readonly string[]).includes(type))
    throw badRequest(
      `${field} content-type must be one of ${IMAGE_TYPES.join(', ')}${type ? `, got '${type}'` : ''}`,
    );
  const imageType = type as ImageType;
  if (bytes.length === 0) throw badRequest(`${field} must not be empty`);
  if (bytes.length > MAX_FILE_BYTES) throw fileTooLarge(field);
  if (sniffImageType(bytes) !== imageType)
    throw badRequest(`${field} is not a ${NAMES[imageType]} image (its content does not match ${imageType})`);
  if (imageType === 'image/svg+xml' && SVG_ACTIVE.test(new TextDecoder().decode(bytes)))
    throw badRequest(
      `${field} is an SVG image with active content (scripts, event handlers, embedded documents or entities); ` +
        'remove it and upload again',
    );
  return imageType;
}

export function fileTooLarge(field: string) {
  return new HttpError(413, `${field} is larger than ${MAX_FILE_TEXT}, the most one file may be`);
}

/**
 * Headers of a file download: its type, never sniffed, private caching, and a Content-Security-Policy that lets a
 * file opened directly run nothing (an SVG's script stays inert on the portal's origin). SVGs are attachments.
 */
export function downloadHeaders(file: {
  contentType: string;
  size: number;
  filename: string;
}): Record<string, string> {
  const svg = file.contentType === 'image/svg+xml';
  const filename = file.filename.replace(/[^A-Za-z0-9._ -]/g, '_');
  return {
    'content-type': file.contentType,
    'content-length': String(file.size),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-cache',
    'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'content-disposition': `${svg ? 'attachment' : 'inline'}; filename="${filename}"`,
  };
}
