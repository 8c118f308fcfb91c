import { spawn } from 'node:child_process';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EventError } from './events';
import { readStatus } from './flush';
import { TOKEN_VARIABLE } from './home';
import { Codetally } from './index';
import { VERSION } from './send';

// The `codetally` command (../README.md). Exit status: 0 done (for `heartbeat`: the event is safely
// queued), 1 it could not be done now (the queue keeps everything), 2 a wrong command or value.

const usage = `codetally ${VERSION}: Codetally's reference client

  codetally config --api-url <site> --token-stdin
                           the token from standard input; or none, with $CODETALLY_TOKEN set; or --token <token>
  codetally heartbeat --entity <file> [--language L] [--project P] [--editor E] [--time EPOCH] [--write] [--plugin NAME]
                      [--category C] [--ai-agent A] [--ai-lines N] [--human-lines N] [--machine M]
  codetally flush          send what is queued now
  codetally today          today's total, for a status bar ("1 hr 5 mins")
  codetally status         what is queued, and the last error
  codetally agent [--once] the desktop agent (Linux/X11)

Settings and the queue live in $CODETALLY_HOME (default ~/.codetally).`;

/** A queued minute's worth of events, or a full batch, or batches waiting: time to send. */
const FLUSH_AFTER_MS = 60_000;
const FLUSH_AT_EVENTS = 1000;

class UsageError extends Error {}

function args(argv: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Starts a sender in the background when events have waited a minute or fill a batch (it commits
 * them even while the service is unreachable, keeping the queue small), or when batches wait and
 * the last failure's back-off has run out.
 */
function flushWhenDue(client: Codetally, now = Date.now()): void {
  if (!client.home.config()) return;
  const pending = client.queue.pending();
  const eventsDue = pending.count >= FLUSH_AT_EVENTS || now - (pending.oldestAt ?? now) >= FLUSH_AFTER_MS;
  const retryDue = client.queue.outbox().length > 0 && now >= readStatus(client.home).next_attempt_at;
  if (!eventsDue && !retryDue) return;
  spawn(process.execPath, [process.argv[1], 'flush', '--background'], { detached: true, stdio: 'ignore', env: senderEnv() }).unref();
}

/** The environment for a sender: NODE_EXTRA_CA_CERTS back where bin/codetally set it aside for a heartbeat. */
function senderEnv(env = process.env): NodeJS.ProcessEnv {
  const { CODETALLY_NODE_EXTRA_CA_CERTS: certs, ...rest } = env;
  return certs ? { ...rest, NODE_EXTRA_CA_CERTS: certs } : rest;
}

/** The token's first line on standard input (`--token-stdin`): piped in, or pasted after a prompt. */
async function tokenFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('token: ');
  process.stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.includes('\n') || text.length > 4096) break;
  }
  const line = text.split('\n')[0].trim();
  if (line === '') throw new UsageError('--token-stdin: standard input holds no token');
  return line;
}

/**
 * The token `config` writes: from standard input, or from --token (visible to `ps` and kept in
 * shell history, so documented last); none when CODETALLY_TOKEN is to give it at run time.
 */
async function tokenToWrite(v: Record<string, string | boolean | undefined>): Promise<string | undefined> {
  if (v['token-stdin'] && v.token !== undefined) throw new UsageError('--token-stdin and --token exclude each other');
  const token = v['token-stdin'] ? await tokenFromStdin() : (v.token as string | undefined)?.trim();
  if (token === undefined) {
    if (process.env[TOKEN_VARIABLE]?.trim()) return undefined;
    throw new UsageError(`a token is required: --token-stdin reads it from standard input, or set ${TOKEN_VARIABLE}`);
  }
  // It goes into an Authorization header as it is.
  if (!/^[\x21-\x7e]+$/.test(token)) throw new UsageError('the token must be one word of printable ASCII characters');
  return token;
}

/** On every start: the home folder and config.json private again, whoever loosened them; a failure is logged, never fatal. */
function secure(client: Codetally): void {
  try {
    client.home.secure();
  } catch (err) {
    client.home.log(`could not make ${client.home.dir} private: ${(err as Error).message}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const client = new Codetally();
  secure(client);
  switch (command) {
    case 'config': {
      const v = args(rest, { 'api-url': { type: 'string' }, token: { type: 'string' }, 'token-stdin': { type: 'boolean' } });
      if (typeof v['api-url'] !== 'string' || !/^https?:\/\/[^/\s]+/.test(v['api-url'])) throw new UsageError('--api-url must be the site\'s http(s) address');
      const token = await tokenToWrite(v);
      client.configure({ api_url: v['api-url'], token });
      console.log(`saved to ${client.home.file('config.json')}${token === undefined ? ` (the token: ${TOKEN_VARIABLE}, read at run time)` : ''}`);
      return 0;
    }
    case 'heartbeat': {
      const v = args(rest, {
        entity: { type: 'string' }, language: { type: 'string' }, project: { type: 'string' }, editor: { type: 'string' },
        time: { type: 'string' }, write: { type: 'boolean' }, plugin: { type: 'string' },
        category: { type: 'string' }, 'ai-agent': { type: 'string' }, 'ai-lines': { type: 'string' }, 'human-lines': { type: 'string' }, machine: { type: 'string' },
      });
      if (v.entity === undefined && v.language === undefined) throw new UsageError('--entity or --language is required');
      const number = (name: string) => (v[name] === undefined ? undefined : Number(v[name]));
      client.heartbeat({
        entity: v.entity as string,
        language: v.language as string,
        project: v.project as string,
        editor: v.editor as string,
        time: number('time'),
        category: v.category as string | undefined,
        agent: v['ai-agent'] as string | undefined,
        aiLines: number('ai-lines'),
        humanLines: number('human-lines'),
        machine: v.machine as string | undefined,
      });
      flushWhenDue(client);
      return 0;
    }
    case 'flush': {
      const v = args(rest, { background: { type: 'boolean' } });
      // In the background: retries for a minute, and waits for a sender at work to finish (it may
      // have committed before this call's events were written).
      const result = await client.flush(v.background ? { retryForMs: 60_000, waitForLockMs: 10_000 } : { force: true, waitForLockMs: 30_000 });
      if (v.background) return 0;
      if (result.busy) console.log('another codetally process is sending this queue');
      else console.log(`delivered ${result.delivered} batch(es), dropped ${result.dropped}, ${result.queued} queued${result.error ? `; last error: ${result.error}` : ''}`);
      return result.queued > 0 || result.busy || result.error ? 1 : 0;
    }
    case 'today': {
      args(rest, {});
      console.log(await client.today());
      return 0;
    }
    case 'status': {
      args(rest, {});
      const s = client.status();
      console.log(`queued: ${s.events} event(s) not counted yet, ${s.batches} batch(es) of ${s.buckets} bucket(s) to send (${s.bytes} bytes)`);
      console.log(`delivered: ${s.delivered_batches} batch(es)${s.last_delivered_at ? `, last at ${s.last_delivered_at}` : ''}; dropped: ${s.dropped_buckets} bucket(s); late events: ${s.late}`);
      console.log(`last error: ${s.last_error ? `${s.last_error} (at ${s.last_error_at})` : 'none'}`);
      if (s.next_attempt_at > Date.now()) console.log(`next attempt: ${new Date(s.next_attempt_at).toISOString()}`);
      return 0;
    }
    case 'agent': {
      const v = args(rest, { once: { type: 'boolean' }, 'poll-seconds': { type: 'string' }, 'idle-minutes': { type: 'string' } });
      const { runAgent } = await import('./agent');
      const { x11Desktop } = await import('./x11');
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      const seconds = (value: unknown, name: string, fallback: number) => {
        if (value === undefined) return fallback;
        const n = Number(value);
        if (!(n > 0)) throw new UsageError(`${name} must be a positive number`);
        return n;
      };
      await runAgent(client.home, await x11Desktop(), {
        once: Boolean(v.once),
        pollMs: seconds(v['poll-seconds'], '--poll-seconds', 5) * 1000,
        idleLimitMs: seconds(v['idle-minutes'], '--idle-minutes', 5) * 60_000,
        signal: stop.signal,
      });
      return 0;
    }
    case 'version':
    case '--version':
      console.log(VERSION);
      return 0;
    case undefined:
    case 'help':
    case '--help':
      console.log(usage);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    if (err instanceof UsageError || err instanceof EventError) {
      console.error(`codetally: ${err.message}${err instanceof UsageError ? `\n\n${usage}` : ''}`);
      process.exitCode = 2;
    } else {
      console.error(`codetally: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  },
);

