// The editor and operating system of a heartbeat, from wakatime-cli's User-Agent:
//   wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0
//   wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1
//   wakatime/v1.90.0 (darwin-23.4.0-arm64) go1.21.5 neovim/0.9.5 vim-wakatime/11.1.1
// The plugin is the last `<name>-wakatime/<version>` (or `<name>/<version>`) word; the editor is
// the word just before it when that names a known editor (vim-wakatime on Neovim sends
// `neovim/...`, vscode-wakatime in Cursor `cursor/...`), else the name before `-wakatime`; either
// way under its canonical name (lib/editors.ts). The OS is the first word inside the parentheses,
// else a `<os>_<arch>` word, as WakaTime's browser extension writes it in `plugin`
// (`Chrome/126.0.0.0 linux_x86_64 chrome-wakatime/4.0.9`).
//
// An AI agent's heartbeats name the agent before wakatime-cli's own word, as wakatime-cli prepends
// it (`Claude/2.1.5 wakatime/v2.1.0 (linux-6.8.0) go1.24.4 vscode/1.100.0 vscode-wakatime/25.3.0`):
// the first word of such a User-Agent, when it comes before `wakatime/`, is the agent.
//
// An agent that sends for itself, with no wakatime plugin or wakatime-cli word at all (a bare
// `Claude/2.1.5` or `claude-code/1.0.3`, from a hook posting heartbeats), is its own editor: the
// agent under the name of its own plugin (Claude Code, an AI agent), as claude-code-wakatime's
// heartbeats are named, never an editor called "claude".

import { agentOf, canonicalEditor, isKnownEditor } from '../../editors';

const osNames: Record<string, string> = {
  linux: 'Linux',
  darwin: 'Mac',
  macos: 'Mac',
  windows: 'Windows',
  win: 'Windows',
  cros: 'ChromeOS',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  netbsd: 'NetBSD',
  android: 'Android',
  ios: 'iOS',
};

export interface Origin {
  editor: string;
  os: string;
  /** The AI agent named before wakatime-cli's word, as written (`Claude`); '' for none. */
  agent: string;
}

const product = /^[A-Za-z][\w.-]*\/[\w.+-]+$/;

export function parseUserAgent(userAgent: string | null | undefined): Origin {
  const ua = (userAgent ?? '').slice(0, 512);
  const platform = (/\(([A-Za-z]+)[-_ ]?[^)]*\)/.exec(ua)?.[1] ?? /(?:^|\s)([a-z]+)_[a-z0-9_]+(?=\s|$)/.exec(ua)?.[1] ?? '').toLowerCase();
  const os = osNames[platform] ?? (platform ? platform[0].toUpperCase() + platform.slice(1) : '');
  const all = ua.split(/\s+/);
  const cli = all.findIndex((w) => /^wakatime\//i.test(w));
  const agent = cli > 0 && product.test(all[0]) ? all[0].split('/')[0] : '';
  const words = all.filter((w) => product.test(w));
  const at = words.findLastIndex((w) => /-wakatime\//i.test(w));
  const plugin = at >= 0 ? words[at] : words.filter((w) => !/^(wakatime|go|python)/i.test(w)).at(-1);
  const host = at > 0 ? words[at - 1].split('/')[0] : '';
  const name = isKnownEditor(host) ? host : plugin ? plugin.split('/')[0].replace(/-wakatime$/i, '').toLowerCase() : '';
  // No wakatime word anywhere: an agent's own word (`Claude/…`) names the agent as its editor.
  const bare = cli < 0 && at < 0 && name ? agentOf(name, '') : '';
  return { editor: canonicalEditor(bare || name), os, agent };
}
