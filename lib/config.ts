import { z } from 'zod';

// Every environment variable the service reads, in one schema, checked once.
const intFrom = (fallback: number, min = 0) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min))
    .optional()
    .transform((v) => v ?? fallback);

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

// The query alone: postgres.js takes host lists (h1:5432,h2:5432) that WHATWG URLs refuse.
const maxParam = (databaseUrl: string) => new URLSearchParams(databaseUrl.split('?')[1] ?? '').get('max');

/** The PostgreSQL pool size a DATABASE_URL asks for (`?max=N`), if any. */
export function poolSizeOf(databaseUrl: string): number | undefined {
  const max = maxParam(databaseUrl);
  return max === null ? undefined : Number(max);
}

export const configSchema = z.object({
  PORT: intFrom(3000, 1),
  // Where clients reach the site: absolute URLs (badge embeds, the social image, sign-in
  // callbacks) are built from it. Unset: from the request's Host (or a trusted proxy's headers).
  SITE_URL: optionalString.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((url) => new URL(url).origin)
      .optional(),
  ),
  // How many reverse proxies stand in front of the server: their X-Forwarded-For/-Host/-Proto are
  // believed. 0 (the default): those headers are ignored, whoever sent them.
  TRUST_PROXY: optionalString
    .transform((v) => (v === undefined || v === 'false' ? '0' : v === 'true' ? '1' : v))
    .pipe(z.string().regex(/^\d{1,2}$/, 'must be true, false or the number of proxies in front (0-99)').transform(Number)),
  // The longest a client may take to send one whole request (headers and body).
  HTTP_REQUEST_TIMEOUT_SECONDS: intFrom(30, 1),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .refine((url) => maxParam(url) === null || /^[1-9]\d{0,3}$/.test(maxParam(url)!), 'max (the pool size) must be a whole number from 1 to 9999')
      .optional(),
  ),
  // `transaction` when DATABASE_URL goes through a pooler in transaction mode (lib/db/client.ts).
  DATABASE_POOLER: optionalString.pipe(z.enum(['session', 'transaction'], { error: 'must be "session" or "transaction"' }).optional()),
  // Where migrations run when DATABASE_URL is a transaction pooler: the direct (unpooled) URL.
  // Migrations hold a session lock, which such a pooler does not keep.
  DATABASE_MIGRATION_URL: optionalString.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional()),
  // Streaming replicas of DATABASE_URL (comma-separated URLs) that serve public figure reads
  // (lib/db/replicas.ts), and how far behind one may fall before reads leave it for the primary.
  DATABASE_REPLICA_URL: optionalString.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((url) => url.trim()).filter(Boolean))
      .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, 'must be postgres:// or postgresql:// URLs, comma-separated')).min(1))
      .optional(),
  ),
  REPLICA_MAX_LAG_SECONDS: intFrom(10, 1),
  DATA_DIR: optionalString.transform((v) => v ?? './.data'),
  // Imports of WakaTime data dumps wait in DATA_DIR/imports until read (lib/wakatime/importing/imports.ts):
  // the largest one upload (an account has one import at a time: the most it spools), and the
  // most all uploads waiting on this server take together.
  IMPORT_MAX_BYTES: intFrom(4 * 1024 ** 3, 1),
  IMPORT_SPOOL_MAX_BYTES: intFrom(16 * 1024 ** 3, 1),
  // WakaTime's API, asked once at an import given the user's WakaTime key for the User-Agents a
  // dump's heartbeats name by id (lib/wakatime/importing/user-agents-fetch.ts): its base, without a trailing
  // slash. Another value only for a WakaTime-compatible service or a stand-in.
  WAKATIME_API_URL: optionalString.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional()
      .transform((v) => v ?? 'https://wakatime.com/api/v1'),
  ),
  // Hosts an import by key or a relay may reach although their addresses are loopback or private
  // (lib/http/outbound.ts): `host` or `host:port`, comma-separated. Unset, a user-given address
  // must be public.
  IMPORT_ALLOWED_HOSTS: optionalString.pipe(z.string().regex(/^[a-z0-9.:[\]_-]+(,\s*[a-z0-9.:[\]_-]+)*$/i, 'must be host or host:port items, comma-separated').optional()),
  // Hosts an import by key downloads a WakaTime data dump from (its `download_url`, or a link the
  // user pasted): `host` or `host:port`, comma-separated, trusted as set (loopback or private too).
  IMPORT_DOWNLOAD_HOSTS: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.:[\]_-]+(,\s*[a-z0-9.:[\]_-]+)*$/i, 'must be host or host:port items, comma-separated')
      .optional()
      .transform((v) => v ?? 'wakatime.s3.amazonaws.com'),
  ),
  // Selling plans (lib/plans/limits.ts): `on`, accounts start on DEFAULT_PLAN and its limits apply;
  // unset or `off` (a default install), every account sees all of its history and meets only the
  // caps that protect the server, whatever plan is stored.
  PLANS: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).optional().transform((v) => v === 'on'),
  // The plan new accounts start on (a plan's id; unset: free); it applies while PLANS=on. The
  // server says at start which it is.
  DEFAULT_PLAN: optionalString.pipe(z.string().max(64, 'must be a plan id, e.g. pro').optional()),
  ADMIN_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  // Accounts whose sign-in address is listed (comma-separated) are operators: the console at
  // /admin and the operator routes with their session (lib/admin/operators.ts).
  ADMIN_EMAILS: optionalString.transform((v) => (v ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
  // `on`: an account a signal flags is hidden from public boards pending review (lib/leaderboards/trust/).
  LEADERBOARD_AUTO_HIDE: z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).optional().transform((v) => v === 'on'),
  // GET /metrics (Prometheus) answers a caller presenting it; unset, the route does not exist.
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  PUBLIC_MIN_USERS: intFrom(3, 1),
  // The scale of the noise on every site-wide cell (lib/stats/community.ts); 0 turns noise and
  // rounding off (for installs whose members all trust one another).
  PUBLIC_NOISE_SECONDS: intFrom(900),
  PUBLIC_CACHE_SECONDS: intFrom(300),
  LEADERBOARD_MAX_AGE: intFrom(300),
  SYNC_RATE_LIMIT_PER_MINUTE: intFrom(120),
  // Write requests a minute of one user over all their tokens; unset: twice the per-token limit.
  SYNC_USER_RATE_LIMIT_PER_MINUTE: optionalString.pipe(z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).optional()),
  // Requests a minute of one token other than activity writes (reads above all), and of one user
  // over all their tokens and sessions (unset: twice the per-token limit): counted apart from the
  // write budgets. The default leaves room for every real client at once: a status bar asking
  // every few seconds, the dashboard, Raycast, README actions.
  READ_RATE_LIMIT_PER_MINUTE: intFrom(600),
  READ_USER_RATE_LIMIT_PER_MINUTE: optionalString.pipe(z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).optional()),
  // Sign-in (Auth.js). Each provider is on when its variables are set.
  AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  AUTH_PASSWORD: z
    .enum(['on', 'off'], { error: 'must be "on" or "off"' })
    .optional(),
  AUTH_GITHUB_ID: optionalString,
  AUTH_GITHUB_SECRET: optionalString,
  AUTH_OIDC_ISSUER: optionalString.pipe(z.url({ error: 'must be the issuer URL' }).optional()),
  AUTH_OIDC_ID: optionalString,
  AUTH_OIDC_SECRET: optionalString,
  AUTH_OIDC_NAME: optionalString.transform((v) => v ?? 'OpenID Connect'),
  // Mail (lib/mail/): both or neither. Without them nothing is mailed and an operator resets
  // passwords (npm run admin -- reset-password).
  SMTP_URL: optionalString.pipe(
    z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587' })
      .optional(),
  ),
  MAIL_FROM: optionalString.pipe(
    z
      .string()
      .regex(/^([^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, 'must be an address, e.g. codetally@example.com or "Codetally <codetally@example.com>"')
      .optional(),
  ),
  // Set by Vercel in its builds and functions.
  VERCEL: optionalString,
}).superRefine((cfg, ctx) => {
  if (!cfg.SMTP_URL !== !cfg.MAIL_FROM)
    ctx.addIssue({
      code: 'custom',
      path: [cfg.SMTP_URL ? 'MAIL_FROM' : 'SMTP_URL'],
      message: 'SMTP_URL and MAIL_FROM go together: set both to send mail, or neither',
    });
  // A link in a mail must name the site itself: taken from a request's Host, a forged Host would
  // send someone's password-reset link to another site.
  if (cfg.SMTP_URL && !cfg.SITE_URL)
    ctx.addIssue({ code: 'custom', path: ['SITE_URL'], message: 'is required with SMTP_URL: the links in mail (password reset, confirmation, unsubscribe) are made from it' });
  if (cfg.DATABASE_POOLER === 'transaction' && !cfg.DATABASE_MIGRATION_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_MIGRATION_URL'],
      message: 'is required with DATABASE_POOLER=transaction: the direct (unpooled) URL migrations run on, under a lock such a pooler does not keep',
    });
  // A replica is used only where a change can be known to have reached it: PostgreSQL's change
  // feed, which the embedded database (no replicas) and a transaction pooler (no LISTEN) lack.
  if (cfg.DATABASE_REPLICA_URL && !cfg.DATABASE_URL)
    ctx.addIssue({ code: 'custom', path: ['DATABASE_REPLICA_URL'], message: 'needs DATABASE_URL: replicas are PostgreSQL streaming replicas of it (the embedded database has none)' });
  if (cfg.DATABASE_REPLICA_URL && cfg.DATABASE_POOLER === 'transaction')
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_REPLICA_URL'],
      message: 'cannot be used with DATABASE_POOLER=transaction: replicas need the change feed (LISTEN), which such a pooler does not keep',
    });
  // An upload between the two could never find room: every one would be refused with 503.
  if (cfg.IMPORT_MAX_BYTES > cfg.IMPORT_SPOOL_MAX_BYTES)
    ctx.addIssue({
      code: 'custom',
      path: ['IMPORT_MAX_BYTES'],
      message: `must be at most IMPORT_SPOOL_MAX_BYTES (${cfg.IMPORT_SPOOL_MAX_BYTES}), the room all uploads waiting share: a larger upload could never be taken`,
    });
  // A function's disk does not outlive it, and instances share nothing: the embedded database
  // cannot work there. Refused at build (migrations run in it) and in every function.
  if (cfg.VERCEL && !cfg.DATABASE_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_URL'],
      message: 'is required on Vercel (the embedded database needs a disk that lasts): set it to your PostgreSQL service\'s pooled URL, e.g. postgres://user:pass@host:6543/db?max=2',
    });
});

export type Config = z.infer<typeof configSchema>;

/** The two write budgets (lib/http/rate-limit.ts); 0 turns one off. */
export function writeLimits(cfg: Config = config()): { kind: 'write'; token: number; user: number } {
  const token = cfg.SYNC_RATE_LIMIT_PER_MINUTE;
  return { kind: 'write', token, user: cfg.SYNC_USER_RATE_LIMIT_PER_MINUTE ?? 2 * token };
}

/** The two read budgets (lib/http/rate-limit.ts); 0 turns one off. */
export function readLimits(cfg: Config = config()): { kind: 'read'; token: number; user: number } {
  const token = cfg.READ_RATE_LIMIT_PER_MINUTE;
  return { kind: 'read', token, user: cfg.READ_USER_RATE_LIMIT_PER_MINUTE ?? 2 * token };
}

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

let cached: Config | undefined;

/** The configuration of this process, parsed from the environment on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between files; this forgets the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}
