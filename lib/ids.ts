const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A canonical UUID string: ids in paths and query parameters are checked before they reach SQL. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
