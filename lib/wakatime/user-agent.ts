// The editor and operating system of a heartbeat, from wakatime-cli's User-Agent:
//   wakatime/v1.98.0 (linux-6.5.0-14-generic-x86_64) go1.22.1 vscode/1.88.1 vscode-wakatime/24.5.0
//   wakatime/13.1.0 (linux-5.15.0) python3.11 vim/9.0 vim-wakatime/9.0.1
// The plugin is the last `<name>-wakatime/<version>` (or `<name>/<version>`) word; the editor is
// the name before `-wakatime`, the OS the first word inside the parentheses.

const osNames: Record<string, string> = {
  linux: 'Linux',
  darwin: 'Mac',
  macos: 'Mac',
  windows: 'Windows',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  netbsd: 'NetBSD',
  android: 'Android',
  ios: 'iOS',
};

/** Editor names as WakaTime shows them, for the plugins whose name differs from the editor's. */
const editorNames: Record<string, string> = {
  vscode: 'VS Code',
  vim: 'Vim',
  neovim: 'Neovim',
  nvim: 'Neovim',
  emacs: 'Emacs',
  sublime: 'Sublime Text',
  'sublime-text': 'Sublime Text',
  jetbrains: 'JetBrains',
  intellij: 'IntelliJ IDEA',
  idea: 'IntelliJ IDEA',
  pycharm: 'PyCharm',
  webstorm: 'WebStorm',
  goland: 'GoLand',
  xcode: 'Xcode',
  zed: 'Zed',
  cursor: 'Cursor',
  atom: 'Atom',
  terminal: 'Terminal',
  chrome: 'Chrome',
  firefox: 'Firefox',
};

export interface Origin {
  editor: string;
  os: string;
}

export function parseUserAgent(userAgent: string | null | undefined): Origin {
  const ua = (userAgent ?? '').slice(0, 512);
  const platform = /\(([A-Za-z]+)[-_ ]?[^)]*\)/.exec(ua)?.[1]?.toLowerCase() ?? '';
  const os = osNames[platform] ?? (platform ? platform[0].toUpperCase() + platform.slice(1) : '');
  const words = ua.split(/\s+/).filter((w) => /^[A-Za-z][\w.-]*\/[\w.+-]+$/.test(w));
  const plugin = [...words].reverse().find((w) => /-wakatime\//i.test(w)) ?? words.filter((w) => !/^(wakatime|go|python)/i.test(w)).at(-1);
  const name = plugin ? plugin.split('/')[0].replace(/-wakatime$/i, '').toLowerCase() : '';
  return { editor: editorNames[name] ?? name, os };
}
