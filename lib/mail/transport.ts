import nodemailer, { type Transporter } from 'nodemailer';
import { config, type Config } from '../config';

// Sending mail: one SMTP transport made from SMTP_URL, every message from MAIL_FROM. Mail is
// optional: without both variables mailConfigured() is false and nothing here is called. Nothing
// logged here names an address or carries a link (their tokens sign in or reset a password).

/** Whether this installation sends mail (SMTP_URL and MAIL_FROM; the config checks they go together). */
export function mailConfigured(cfg: Config = config()): boolean {
  return !!cfg.SMTP_URL && !!cfg.MAIL_FROM;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

let transport: { url: string; transporter: Transporter } | undefined;

function transporter(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    // Bounded so that a server that does not answer cannot hold a sender for minutes.
    transport = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 }) };
  }
  return transport.transporter;
}

/**
 * Whether a failed send certainly left the message undelivered: the server refused it with a
 * reply code, or the failure came before the message was handed over (connecting, greeting,
 * authenticating, naming sender and recipient). Otherwise (the connection broke during or after
 * the message) the server may have taken it, and sending again could deliver it twice.
 */
export function certainlyNotSent(err: unknown): boolean {
  const e = err as { responseCode?: number; command?: string; code?: string };
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return true;
  if (e.command && e.command !== 'DATA') return true;
  return ['ECONNECTION', 'EDNS', 'ETLS', 'EAUTH', 'ECONNREFUSED'].includes(e.code ?? '');
}

/** A short description of a failed send for the log: its code and reply, never addresses. */
export function sendFailure(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; command?: string };
  return [e.code, e.command, e.responseCode].filter((v) => v !== undefined).join(' ') || 'unknown error';
}

/** Sends one message from MAIL_FROM; throws what the transport threw. */
export async function sendMail(mail: Mail): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL || !MAIL_FROM) throw new Error('mail is not configured (SMTP_URL, MAIL_FROM)');
  await transporter(SMTP_URL).sendMail({ from: MAIL_FROM, ...mail });
}

/**
 * Sends a message whose failure nobody waits for (a reset link, a confirmation): the failure is
 * logged, without the address or the link, and the person asks again.
 */
export function deliver(mail: Mail, what: string): Promise<void> {
  return sendMail(mail).catch((err) => console.error(`[codetally] sending ${what} mail failed: ${sendFailure(err)}`));
}
