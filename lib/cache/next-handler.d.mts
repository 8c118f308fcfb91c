// The shape of next-handler.mjs (plain JavaScript, loaded by Next itself), for TypeScript callers (tests).
export default class CodetallyCacheHandler {
  get(key: string): Promise<{ lastModified: number; value: unknown; cacheControl: unknown } | null>;
  set(key: string, data: unknown, ctx: { tags?: string[]; cacheControl?: unknown }): Promise<void>;
  revalidateTag(tags: string | string[]): Promise<void>;
  resetRequestCache(): void;
}
