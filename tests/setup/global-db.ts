import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { dropPostgresDatabases, makePgliteTemplate, makePostgresTemplate } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (project.config.env?.TEST_DB === 'postgres') {
    const baseUrl = process.env.TEST_DATABASE_URL!;
    const template = await makePostgresTemplate(baseUrl, `${process.pid}_${Date.now()}`);
    project.provide('postgresTemplate', template);
    return async () => {
      await dropPostgresDatabases(baseUrl, template.replace('_tpl_', '_t_'));
      await dropPostgresDatabases(baseUrl, template);
    };
  }
  const template = await makePgliteTemplate();
  project.provide('pgliteTemplate', template);
  return () => fs.rmSync(template, { recursive: true, force: true });
}
