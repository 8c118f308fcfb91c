import { z } from 'zod';
import { textProblem } from '../text';

// Where a token was made, so that its owner can tell their own tokens from one they did not make
// (a token made by someone who had their password keeps working after a reset unless revoked):
// the way (the dashboard, the API with another token, an operator) and what made it, reduced to
// what a person recognises: a browser and its system ("Firefox on Linux"), or a program's first
// product token ("curl/8.5.0"). Never the whole User-Agent, never an address.

export const tokenVias = ['dashboard', 'api', 'operator'] as const;
export type TokenVia = (typeof tokenVias)[number];

export interface TokenOrigin {
  via: TokenVia;
  /** The request's User-Agent header, if any; only its label is kept (agentLabel). */
  userAgent?: string | null;
  /** The token the request was made with (the API only): its shown prefix is kept. */
  withTokenId?: string | null;
}

export const tokenOriginSchema = {
  created_via: z.enum(tokenVias).nullable().meta({ description: 'Where the token was made: the dashboard, the API (with another token), or an operator. Null for tokens made before this was kept.' }),
  created_agent: z.string().nullable().meta({ description: 'What made it: a browser and its system ("Firefox on Linux") or a program ("curl/8.5.0"); null when unknown.' }),
  created_with: z.string().nullable().meta({ description: 'The shown prefix of the token it was made with (tokens made through the API).' }),
};

const MAX_LABEL = 64;

const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\//, 'Firefox'],
  [/\bFxiOS\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bChrom(?:e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** What a person recognises of a User-Agent; null when there is none worth showing. */
export function agentLabel(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  if (/^Mozilla\//.test(ua)) {
    const browser = browsers.find(([pattern]) => pattern.test(ua))?.[1];
    const system = systems.find(([pattern]) => pattern.test(ua))?.[1];
    if (browser) return system ? `${browser} on ${system}` : browser;
    return system ? `A browser on ${system}` : 'A browser';
  }
  // A program: its first product token, as it names itself (curl/8.5.0, python-requests/2.31).
  const product = /^[A-Za-z0-9][\w.+-]*(?:\/[\w.+-]+)?/.exec(ua)?.[0];
  if (!product || textProblem(product)) return null;
  return product.slice(0, MAX_LABEL);
}


/** "the dashboard, in Firefox on Linux", "the API with key ct_ab12…, by curl/8.5.0", "an operator". */
export function originText(t: { created_via: TokenVia | null; created_agent: string | null; created_with: string | null }): string {
  if (!t.created_via) return 'not recorded';
  const where = t.created_via === 'dashboard' ? 'the dashboard' : t.created_via === 'api' ? 'the API' : 'an operator';
  const withKey = t.created_with ? ` with key ${t.created_with}…` : '';
  const agent = t.created_agent ? (t.created_via === 'dashboard' ? `, in ${t.created_agent}` : `, by ${t.created_agent}`) : '';
  return `${where}${withKey}${agent}`;
}
