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
