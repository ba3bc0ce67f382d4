import type { BoundTag, PresetBinding } from '../services/mappings/binding.ts';

export type DataValue = number | boolean | string;

/** Why a message or one of its values was not stored; each reason has its own counter per device. */
export type Refusal = 'malformed' | 'unknownPath' | 'wrongType';

/** A data message turned into what is stored: values keyed by model path, plus what was refused and why. */
export type DecodedMessage = {
  ts: number;
  values: Record<string, DataValue>;
  /** Data tags the device reported with the type of their raw value (the device's `availableTags`). */
  reportedTags: Map<string, string>;
  refusals: { reason: Refusal; detail: string }[];
};

export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const MAX_STRING_VALUE = 1000;
export const MAX_TAGS_PER_MESSAGE = 1000;
export const MAX_TAG_LENGTH = 200;
/** Device clocks may lag or run ahead; values older than a year or more than a day in the future are refused. */
const OLDEST_MS = 366 * 24 * 3600 * 1000;
const NEWEST_MS = 24 * 3600 * 1000;

export type MalformedMessage = { malformed: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function timestampOf(raw: unknown, now: number): number | string {
  if (raw === undefined) return now;
  const ts = typeof raw === 'string' ? Date.parse(raw) : raw;
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return 'ts must be epoch milliseconds or an ISO date';
  if (ts < now - OLDEST_MS || ts > now + NEWEST_MS)
    return 'ts is more than a year old or more than a day ahead';
  return ts;
}

type Typed = { ok: true; value: DataValue } | { ok: false; reason: string };

/** A raw value converted to its model path's type (through the preset's formula), or why it does not fit. */
export function typedValue(bound: BoundTag, raw: unknown): Typed {
  switch (bound.type) {
    case 'number':
    case 'integer': {
      if (typeof raw !== 'number' || !Number.isFinite(raw)) {
        return { ok: false, reason: `expects a ${bound.type}, got ${typeName(raw)}` };
      }
      const value = bound.formula ? bound.formula(raw) : raw;
      if (!Number.isFinite(value)) return { ok: false, reason: `formula gave no finite number for ${raw}` };
      if (bound.type === 'integer' && !Number.isInteger(value)) {
        return { ok: false, reason: `expects an integer, got ${value}` };
      }
      return { ok: true, value };
    }
    case 'boolean':
      return typeof raw === 'boolean'
        ? { ok: true, value: raw }
        : { ok: false, reason: `expects a boolean, got ${typeName(raw)}` };
    case 'string':
      if (typeof raw !== 'string') return { ok: false, reason: `expects a string, got ${typeName(raw)}` };
      return raw.length <= MAX_STRING_VALUE
        ? { ok: true, value: raw }
        : { ok: false, reason: `string longer than ${MAX_STRING_VALUE} characters` };
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}

/**
 * Decodes `{"ts": <epoch ms | ISO>, "values": {"<data tag>": value}}` and maps each tag through the device's preset.
 * Never throws: a message that is not such an object is malformed as a whole; a tag the preset does not map or a
 * value of the wrong type is refused on its own and the rest is kept.
 */
export function decodeMessage(
  payload: Buffer,
  binding: PresetBinding | undefined,
  now = Date.now(),
): DecodedMessage | MalformedMessage {
  if (payload.length > MAX_PAYLOAD_BYTES)
    return { malformed: `payload larger than ${MAX_PAYLOAD_BYTES} bytes` };
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return { malformed: 'payload is not JSON' };
  }
  if (!isRecord(body) || !isRecord(body.values))
    return { malformed: 'payload must be an object with "values"' };
  const ts = timestampOf(body.ts, now);
  if (typeof ts === 'string') return { malformed: ts };

  const entries = Object.entries(body.values);
  if (entries.length > MAX_TAGS_PER_MESSAGE) return { malformed: `more than ${MAX_TAGS_PER_MESSAGE} values` };

  const decoded: DecodedMessage = { ts, values: {}, reportedTags: new Map(), refusals: [] };
  for (const [tag, raw] of entries) {
    if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) {
      decoded.refusals.push({
        reason: 'unknownPath',
        detail: `tag names must be 1 to ${MAX_TAG_LENGTH} characters`,
      });
      continue;
    }
    decoded.reportedTags.set(tag, raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw);
    const bound = binding?.tags.get(tag);
    if (!bound) {
      decoded.refusals.push({
        reason: 'unknownPath',
        detail: `tag '${tag}' is not mapped by the device's preset`,
      });
      continue;
    }
    const typed = typedValue(bound, raw);
    if (typed.ok) decoded.values[bound.path] = typed.value;
    else
      decoded.refusals.push({ reason: 'wrongType', detail: `tag '${tag}' (${bound.path}) ${typed.reason}` });
  }
  return decoded;
}

export function isMalformed(message: DecodedMessage | MalformedMessage): message is MalformedMessage {
  return 'malformed' in message;
}
