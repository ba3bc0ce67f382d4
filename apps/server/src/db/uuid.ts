const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid column rejects any other text with an error, so ids from requests are checked before they reach a query. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
