import type { Mail } from './transport';

// The text of each mail: plain text, and the same as simple HTML (no images, no styles a mail
// client would strip anyway). Links are absolute, made from SITE_URL by the caller.

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A paragraph of text or a link, in both forms. */
export type Part = { p: string } | { link: string; label: string } | { list: string[] };

export function textOf(parts: Part[]): string {
  return (
    parts
      .map((part) => ('p' in part ? part.p : 'link' in part ? `${part.label}:\n${part.link}` : part.list.map((item) => `  - ${item}`).join('\n')))
      .join('\n\n') + '\n'
  );
}

export function htmlOf(title: string, parts: Part[]): string {
  const body = parts
    .map((part) =>
      'p' in part
        ? `<p>${escape(part.p)}</p>`
        : 'link' in part
          ? `<p><a href="${escape(part.link)}">${escape(part.label)}</a></p>`
          : `<ul>${part.list.map((item) => `<li>${escape(item)}</li>`).join('')}</ul>`,
    )
    .join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escape(title)}</title></head>\n<body style="font-family: sans-serif; line-height: 1.5">\n${body}\n</body></html>\n`;
}

function mail(to: string, subject: string, parts: Part[]): Mail {
  return { to, subject, text: textOf(parts), html: htmlOf(subject, parts) };
}

export function resetMail(to: string, link: string, minutes: number): Mail {
  return mail(to, 'Reset your Codetally password', [
    { p: 'Someone (we hope you) asked to reset the password of the Codetally account with this email address.' },
    { link, label: 'Choose a new password' },
    { p: `The link works once, for ${minutes} minutes. If you did not ask, ignore this mail: your password stays as it is.` },
  ]);
}

export function confirmMail(to: string, link: string, hours: number): Mail {
  return mail(to, 'Confirm your email for Codetally', [
    { p: 'Welcome to Codetally. Confirm that this address is yours to finish signing up: open the link and enter the password you chose when you signed up.' },
    { link, label: 'Confirm my email' },
    { p: `The link works once, for ${hours} hours, and only with that password. If you did not sign up, ignore this mail: nothing is confirmed without it.` },
  ]);
}

/** To a sign-up with an address that already has a confirmed account: nobody else learns it has one. */
export function alreadyRegisteredMail(to: string, signInLink: string, resetLink: string): Mail {
  return mail(to, 'You already have a Codetally account', [
    { p: 'Someone (we hope you) tried to sign up to Codetally with this email address, which already has an account. Nothing was changed.' },
    { link: signInLink, label: 'Sign in' },
    { link: resetLink, label: 'Forgot your password? Reset it' },
  ]);
}
