import postgres from 'postgres';

// DATABASE_URL as libpq reads it, where postgres.js differs: libpq takes a Unix socket's
// directory as the `host` query parameter (postgresql://user@localhost/db?host=/var/run/postgresql),
// which postgres.js would send to the server as a setting and fail on. A database on the same
// machine is reached through its socket: no TCP stack, and no loopback receive charged to the
// service's CPU on every statement it sends.

/** The URL postgres.js should read, and the socket path a `host=/dir` query parameter names. */
export function socketTarget(databaseUrl: string): { url: string; path?: string } {
  const [base, query = ''] = databaseUrl.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  const dir = params.get('host');
  if (!dir?.startsWith('/')) return { url: databaseUrl };
  // The port names the socket file (.s.PGSQL.<port>): ?port= first, as libpq, then the URL's own.
  const authorityPort = /^[a-z]+:\/\/(?:[^@/?]*@)?[^/?:]*:(\d+)/i.exec(base)?.[1];
  const port = params.get('port') ?? authorityPort ?? '5432';
  params.delete('host');
  params.delete('port');
  const rest = params.toString();
  return { url: rest ? `${base}?${rest}` : base, path: `${dir.replace(/\/+$/, '')}/.s.PGSQL.${port}` };
}

/** A postgres.js client for DATABASE_URL, its socket directory (`?host=/dir`) honoured. */
export function postgresClient<T extends Record<string, postgres.PostgresType>>(databaseUrl: string, options: postgres.Options<T>): postgres.Sql<Record<string, never>> {
  const { url, path } = socketTarget(databaseUrl);
  return postgres(url, path ? { ...options, path } : options) as unknown as postgres.Sql<Record<string, never>>;
}
