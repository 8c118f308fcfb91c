const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A canonical UUID string: ids in paths and query parameters are checked before they reach SQL. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** A handle: 1-39 letters, digits, "-" or "_", starting with a letter or digit (GitHub's shape). */
export const handlePattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/;

export function isHandle(value: string): boolean {
  return handlePattern.test(value) && !isUuid(value);
}
