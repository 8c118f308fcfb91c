import { z } from 'zod';

// Text where it enters. PostgreSQL refuses NUL and unpaired UTF-16 surrogates in text and jsonb,
// so neither may reach a statement: a request carrying them gets a 4xx naming the field, never a
// 500. Names that people read (on public pages, in the dashboard) also refuse what would make
// them lie about themselves: C1 controls, bidirectional overrides and invisible characters.
// ZWJ and ZWNJ stay allowed: emoji sequences and several scripts need them.

const controls = /[\u0000-\u001F\u007F-\u009F]/;
/** Bidi marks, embeddings, overrides and isolates; zero-width and other invisible characters. */
const formatting = /[\u00AD\u061C\u180E\u200B\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]/;

export type TextProblem = 'control_character' | 'unpaired_surrogate' | 'format_character';

const messages: Record<TextProblem, string> = {
  control_character: 'must not contain control characters',
  unpaired_surrogate: 'must be well-formed Unicode (an unpaired surrogate was found)',
  format_character: 'must not contain invisible or text-direction characters',
};

/** What is wrong with a string PostgreSQL would store (NUL, unpaired surrogates, controls), if anything. */
export function textProblem(value: string): TextProblem | null {
  if (!value.isWellFormed()) return 'unpaired_surrogate';
  if (controls.test(value)) return 'control_character';
  return null;
}

/** The same, for a name a person reads: also no invisible or text-direction characters. */
export function nameProblem(value: string): TextProblem | null {
  return textProblem(value) ?? (formatting.test(value) ? 'format_character' : null);
}

/** The rule a problem breaks, as a message after the field's name. */
export function textRule(problem: TextProblem): string {
  return messages[problem];
}

/**
 * A zod string refined by one of the rules above, with the rule's code in `params.code`
 * (the per-item `errors[].code` of an answer).
 */
export function checkedText(schema: z.ZodString, field: string, rule: (value: string) => TextProblem | null = nameProblem) {
  return schema.superRefine((value, ctx) => {
    const problem = rule(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${messages[problem]}`, params: { code: problem } });
  });
}

const unpaired = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text another service wrote (an error it answered), made fit to store and show: unpaired
 * surrogates left out, control characters (NUL among them) as one space, trimmed, and at most
 * `max` characters (an ellipsis then ends it; a surrogate pair is never cut in two).
 */
export function remoteText(value: string, max = Infinity): string {
  const clean = value.replace(unpaired, '').replace(/[\u0000-\u001F\u007F-\u009F]+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const points = Array.from(clean);
  return points.length <= max ? clean : `${points.slice(0, max).join('')}…`;
}
