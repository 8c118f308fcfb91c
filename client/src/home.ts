import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJson, writeDurably } from './files';

// The client's home ($CODETALLY_HOME, default ~/.codetally): its settings, the queue and the log.
//
//   config.json   the site and the token (mode 0600)
//   events/       one file per event not yet credited (./queue.ts)
//   outbox/       batches of buckets with their Idempotency-Keys, in order, until the service has them
//   state.json    the last event of each stream (its time is credited with the next event)
//   status.json   the sender's last outcome and when it may try again
//   client.log    what was dropped and why, and failures

export interface Config {
  api_url: string;
  token: string;
}

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

  config(): Config | null {
    const found = readJson<Partial<Config> | null>(this.file('config.json'), null);
    return found?.api_url && found.token ? { api_url: found.api_url, token: found.token } : null;
  }

  /** Writes the settings, readable by their owner only. */
  writeConfig(config: Config): void {
    this.ensure();
    writeDurably(this.file('config.json'), `${JSON.stringify(config, null, 2)}\n`, 0o600);
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
