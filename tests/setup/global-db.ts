import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startPgBouncer } from '../helpers/postgres-cluster';
import { dropPostgresDatabases, makePgliteTemplate, makePostgresTemplate } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
    poolerPort: number;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB;
  if (kind === 'postgres' || kind === 'pgbouncer') {
    const baseUrl = process.env.TEST_DATABASE_URL!;
    const template = await makePostgresTemplate(baseUrl, `${process.pid}_${Date.now()}`);
    project.provide('postgresTemplate', template);
    // Each file's copy is reached through one PgBouncer in front of that server.
    const url = new URL(baseUrl);
    const pooler = kind === 'pgbouncer' ? await startPgBouncer({ host: url.hostname, port: Number(url.port || 5432) }) : null;
    if (pooler) project.provide('poolerPort', pooler.port);
    return async () => {
      await pooler?.stop();
      await dropPostgresDatabases(baseUrl, template.replace('_tpl_', '_t_'));
      await dropPostgresDatabases(baseUrl, template);
    };
  }
  const template = await makePgliteTemplate();
  project.provide('pgliteTemplate', template);
  return () => fs.rmSync(template, { recursive: true, force: true });
}
