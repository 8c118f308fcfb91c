import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJson, writeDurably } from './files';

// The client's home ($CODETALLY_HOME, default ~/.codetally): its settings, the queue and the log.
//
//   config.json   the site and the token (mode 0600; the folder 0700)
//   events/       one file per event not yet credited (./queue.ts)
//   outbox/       batches of buckets with their Idempotency-Keys, in order, until the service has them
//   state.json    the last event of each stream (its time is credited with the next event)
//   status.json   the sender's last outcome and when it may try again
//   client.log    what was dropped and why, and failures

export interface Config {
  api_url: string;
  token: string;
}

/** What `codetally config` writes: the site, and the token unless it is to come from CODETALLY_TOKEN. */
export interface Settings {
  api_url: string;
  token?: string;
}

/** The token from the environment, for a home whose config.json holds none. */
export const TOKEN_VARIABLE = 'CODETALLY_TOKEN';

export const notConfigured = `not configured: run \`codetally config --api-url <site> --token-stdin\` (or set ${TOKEN_VARIABLE})`;

export class Home {
  readonly dir: string;

  constructor(dir = process.env.CODETALLY_HOME || path.join(os.homedir(), '.codetally')) {
    this.dir = path.resolve(dir);
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Creates the home and its queue folders (private to the user). */
  ensure(): void {
    for (const sub of ['', 'events', 'outbox']) fs.mkdirSync(path.join(this.dir, sub), { recursive: true, mode: 0o700 });
  }

  /** The site and the token: config.json's, or CODETALLY_TOKEN when config.json holds no token. */
  config(): Config | null {
    const found = readJson<Partial<Config> | null>(this.file('config.json'), null);
    const token = found?.token || process.env[TOKEN_VARIABLE]?.trim();
    return found?.api_url && token ? { api_url: found.api_url, token } : null;
  }

  /** Writes the settings, readable by their owner only, in a folder only they can enter. */
  writeConfig(settings: Settings): void {
    this.ensure();
    this.secure();
    writeDurably(this.file('config.json'), `${JSON.stringify(settings, null, 2)}\n`, 0o600);
  }

  /**
   * Takes from the home folder and config.json every permission beyond 0700 and 0600: a folder
   * made by hand (0755 under the usual umask) or a config copied in would let others read the
   * token. What does not exist yet is left alone; a chmod refused (not the owner) throws.
   */
  secure(): void {
    tighten(this.dir, 0o700);
    tighten(this.file('config.json'), 0o600);
  }

  /** Appends a line to the log; past a megabyte the log moves to client.log.1 and starts again. */
  log(message: string): void {
    try {
      this.ensure();
      const file = this.file('client.log');
      if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 1_000_000) fs.renameSync(file, `${file}.1`);
      fs.appendFileSync(file, `${new Date().toISOString()} ${message}\n`);
    } catch {
      // the log is a courtesy: never the reason an event is lost
    }
  }
}

/** Removes the permission bits outside `mode` from an existing file or folder (it never adds any). */
function tighten(file: string, mode: number): void {
  const current = fs.statSync(file, { throwIfNoEntry: false })?.mode;
  if (current !== undefined && (current & 0o777 & ~mode) !== 0) fs.chmodSync(file, current & mode);
}
