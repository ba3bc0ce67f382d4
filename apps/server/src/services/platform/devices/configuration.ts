type JsonObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A device's effective configuration: its own settings over its preset's deviceConfiguration. Objects merge key by
 * key (at any depth); anything else the device sets (a value, a list, null) replaces the preset's value.
 */
export function mergeConfiguration(preset: JsonObject, device: JsonObject): JsonObject {
  const merged: JsonObject = { ...preset };
  for (const [key, value] of Object.entries(device)) {
    if (key === '__proto__') continue;
    const base = merged[key];
    merged[key] = isPlainObject(base) && isPlainObject(value) ? mergeConfiguration(base, value) : value;
  }
  return merged;
}
