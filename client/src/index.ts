import { desktopEvent, editorEvent, projectOf, type HeartbeatInput } from './events';
import { flush, readStatus, type FlushOptions, type FlushResult, type Status } from './flush';
import { Home, notConfigured, type Settings } from './home';
import { Queue } from './queue';
import { problem, siteUrl } from './send';

// The client as a library: what the CLI does, for programs that embed it.
//
//   const client = new Codetally();                 // $CODETALLY_HOME or ~/.codetally
//   client.heartbeat({ entity: 'src/app.ts', project: 'app', editor: 'my-editor' });
//   await client.flush();
//   console.log(await client.today());              // "1 hr 5 mins"

export { EventError, type HeartbeatInput } from './events';
export type { FlushOptions, FlushResult, Status } from './flush';
export type { Config, Settings } from './home';
export { runAgent, type AgentOptions, type Desktop } from './agent';

export class Codetally {
  readonly home: Home;
  readonly queue: Queue;

  constructor(options: { home?: string } = {}) {
    this.home = new Home(options.home);
    this.queue = new Queue(this.home);
  }

  /** Writes config.json (0600, its folder 0700). Without a token, the token comes from CODETALLY_TOKEN at run time. */
  configure(settings: Settings): void {
    const token = settings.token?.trim();
    this.home.writeConfig({ api_url: siteUrl(settings.api_url), ...(token ? { token } : {}) });
  }

  /** Records an editor event; returns once it is safely on disk (throws EventError for a bad field). */
  heartbeat(input: HeartbeatInput): void {
    this.queue.record(editorEvent({ ...input, project: input.project ?? projectOf(input.entity) }));
  }

  /** Records which application is in front ('' when nobody is there). */
  desktop(input: { app: string; platform?: string; time?: number }): void {
    this.queue.record(desktopEvent(input));
  }

  /** Commits what was recorded and sends the queue now. */
  flush(options: FlushOptions = {}): Promise<FlushResult> {
    return flush(this.home, options);
  }

  /** Today's total as a status bar shows it ("1 hr 5 mins"), from the service: the token that sends may read it (scope `sync`, or `stats`). */
  async today(fetchImpl: typeof fetch = fetch): Promise<string> {
    const config = this.home.config();
    if (!config) throw new Error(notConfigured);
    const res = await fetchImpl(`${siteUrl(config.api_url)}/api/wakatime/v1/users/current/statusbar/today`, {
      headers: { authorization: `Bearer ${config.token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(await problem(res));
    const body = (await res.json()) as { data?: { grand_total?: { text?: string } } };
    return body.data?.grand_total?.text ?? '';
  }

  /** What is queued, and how the last delivery went. */
  status(): ReturnType<Queue['size']> & Status {
    return { ...this.queue.size(), ...readStatus(this.home) };
  }
}
