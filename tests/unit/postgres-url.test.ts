import { describe, expect, it } from 'vitest';
import { socketTarget } from '../../lib/db/postgres-url';

describe('DATABASE_URL with a Unix socket directory (libpq’s host= query parameter)', () => {
  it('turns host=/dir into the socket path of the URL’s port, and leaves the rest of the query', () => {
    expect(socketTarget('postgres://app@localhost:5433/codetally?host=/var/run/postgresql&max=4')).toEqual({
      url: 'postgres://app@localhost:5433/codetally?max=4',
      path: '/var/run/postgresql/.s.PGSQL.5433',
    });
  });

  it('takes ?port= before the authority’s port, and 5432 when neither is given', () => {
    expect(socketTarget('postgresql://app@localhost/db?host=/tmp/&port=6000').path).toBe('/tmp/.s.PGSQL.6000');
    expect(socketTarget('postgresql://app:secret@db.internal/db?host=/run/pg')).toEqual({ url: 'postgresql://app:secret@db.internal/db', path: '/run/pg/.s.PGSQL.5432' });
  });

  it('leaves a URL without a socket directory as it is (a host name in host= is postgres.js’s own business)', () => {
    for (const url of ['postgres://app@localhost/db', 'postgres://app@h1:5432,h2:5432/db?max=2', 'postgres://app@localhost/db?host=db.internal']) {
      expect(socketTarget(url)).toEqual({ url });
    }
  });
});
