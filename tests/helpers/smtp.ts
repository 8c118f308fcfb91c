import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// A real SMTP server for the mail tests, on a random local port: it keeps every message it takes
// (parsed), and can be told to refuse the next recipients with a reply code.

export interface Mailbox {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /** Messages to this address so far. */
  to(address: string): ParsedMail[];
  /** Waits until a message to `address` beyond the first `after` arrives, and returns it. */
  next(address: string, after?: number): Promise<ParsedMail>;
  /** While set, RCPT TO is answered with this reply (e.g. 451: try again later). */
  refuse: number | null;
  close(): Promise<void>;
}

const addressesOf = (m: ParsedMail) => [m.to].flat().flatMap((t) => t?.value.map((v) => v.address?.toLowerCase()) ?? []);

export async function startMailbox(): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const box: Mailbox = {
    url: '',
    messages,
    refuse: null,
    to: (address) => messages.filter((m) => addressesOf(m).includes(address.toLowerCase())),
    async next(address, after = 0) {
      const started = Date.now();
      while (box.to(address).length <= after) {
        if (Date.now() - started > 10_000) throw new Error('no mail arrived within 10 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      return box.to(address)[after];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (box.refuse === null) return callback();
      callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: box.refuse }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  box.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return box;
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const link = (mail.text ?? '').split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link to ${prefix} in the mail`);
  return link;
}
