import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, parseConfig, type Config } from '../lib/config';

/** The configuration, or a clear message naming the bad variable and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Runs the compiled program from the folder that holds its build (`.next/codetally/*.mjs` sit two
 * levels down): the project, or a standalone output wherever it was copied. Relative paths
 * (DATA_DIR, drizzle/, .next/) are read from there, as Next's own standalone server does.
 */
export function enterAppRoot(): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) process.chdir(root);
  return process.cwd();
}
