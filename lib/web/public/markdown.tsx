import { Fragment, type ReactNode } from 'react';

// The Markdown of openapi.json's descriptions, as React elements: React escapes every piece of
// text, so nothing in a description can become HTML. A small subset of CommonMark: paragraphs,
// `-`/`*`/`+` and `1.` lists, fenced code, and inline code spans, links, *emphasis* and
// **strong emphasis**, with backslash escapes. Anything else is shown as the text it is.

export type Inline =
  | { type: 'text'; value: string }
  | { type: 'code'; value: string }
  | { type: 'em' | 'strong'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'code'; value: string };

const punctuation = /[!-/:-@[-`{-~]/;
const space = /\s/;
const wordChar = /[\p{L}\p{N}]/u;

/** The length of the run of `char` starting at `at`. */
function runAt(text: string, at: number, char: string): number {
  let end = at;
  while (text[end] === char) end += 1;
  return end - at;
}

/** A code span starting at `at` (a run of backticks): its content and where it ends, or null. */
function codeSpanAt(text: string, at: number): { value: string; end: number } | null {
  const fence = runAt(text, at, '`');
  let from = at + fence;
  for (;;) {
    const next = text.indexOf('`', from);
    if (next === -1) return null;
    const run = runAt(text, next, '`');
    if (run === fence) {
      let value = text.slice(at + fence, next).replace(/\n/g, ' ');
      if (value.startsWith(' ') && value.endsWith(' ') && value.trim() !== '') value = value.slice(1, -1);
      return { value, end: next + run };
    }
    from = next + run;
  }
}

/** Only links that cannot run script: the web, mail, this site's paths and anchors. */
function safeHref(href: string): string | null {
  return /^(https?:\/\/|mailto:|\/(?!\/)|#)/i.test(href) && !/[\s<>"]/.test(href) ? href : null;
}

/** A link `[text](href)` starting at `at` (a `[`): its parts and where it ends, or null. */
function linkAt(text: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  for (let i = at; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '`') {
      const span = codeSpanAt(text, i);
      if (span) i = span.end - 1;
      else i += runAt(text, i, '`') - 1;
    } else if (c === '[') depth += 1;
    else if (c === ']' && --depth === 0) {
      const target = /^\(([^()\s]*)\)/.exec(text.slice(i + 1));
      return target ? { label: text.slice(at + 1, i), href: target[1], end: i + 1 + target[0].length } : null;
    }
  }
  return null;
}

/**
 * Whether a delimiter run of `*` or `_` at `at` (of `length`) may open or close emphasis: a
 * simplified form of CommonMark's flanking rules; `_` never works inside a word.
 */
function flanking(text: string, at: number, length: number, char: string) {
  const before = at === 0 ? ' ' : text[at - 1];
  const after = at + length >= text.length ? ' ' : text[at + length];
  const left = !space.test(after) && (!punctuation.test(after) || space.test(before) || punctuation.test(before));
  const right = !space.test(before) && (!punctuation.test(before) || space.test(after) || punctuation.test(after));
  if (char === '_') return { opens: left && !wordChar.test(before), closes: right && !wordChar.test(after) };
  return { opens: left, closes: right };
}

/** Where a closing run of exactly `length` `char`s is, after `from`, skipping code spans and escapes. */
function closerOf(text: string, from: number, char: string, length: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '`') {
      const span = codeSpanAt(text, i);
      i = (span ? span.end : i + runAt(text, i, '`')) - 1;
    } else if (c === char) {
      const run = runAt(text, i, char);
      if (run === length && i > from && flanking(text, i, run, char).closes) return i;
      i += run - 1;
    }
  }
  return -1;
}

/** The inline content of one paragraph or list item. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ type: 'text', value: plain });
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && punctuation.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
    } else if (c === '`') {
      const span = codeSpanAt(text, i);
      const run = runAt(text, i, '`');
      if (span) {
        flush();
        out.push({ type: 'code', value: span.value });
        i = span.end;
      } else {
        plain += text.slice(i, i + run);
        i += run;
      }
    } else if (c === '[') {
      const link = linkAt(text, i);
      const href = link && safeHref(link.href);
      if (link) {
        flush();
        const children = parseInline(link.label);
        // A link to anywhere else keeps its text and loses its target.
        if (href) out.push({ type: 'link', href, children });
        else out.push(...children);
        i = link.end;
      } else {
        plain += c;
        i += 1;
      }
    } else if (c === '*' || c === '_') {
      const run = runAt(text, i, c);
      const length = run >= 2 ? 2 : 1;
      const close = flanking(text, i, run, c).opens ? closerOf(text, i + length, c, length) : -1;
      if (run <= 2 && close !== -1) {
        flush();
        out.push({ type: length === 2 ? 'strong' : 'em', children: parseInline(text.slice(i + length, close)) });
        i = close + length;
      } else {
        plain += text.slice(i, i + run);
        i += run;
      }
    } else {
      plain += c;
      i += 1;
    }
  }
  flush();
  return out;
}

const fenceLine = /^ {0,3}(`{3,}|~{3,})/;
const bulletLine = /^ {0,3}[-*+] +(.*)$/;
const orderedLine = /^ {0,3}\d{1,9}[.)] +(.*)$/;

/** The blocks of a description: paragraphs, lists and fenced code, separated as CommonMark does. */
export function parseBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const end = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', children: parseInline(paragraph.map((l) => l.trim()).join('\n')) });
    if (list) blocks.push({ type: 'list', ordered: list.ordered, items: list.items.map((item) => parseInline(item)) });
    paragraph = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const fence = fenceLine.exec(line);
    const bullet = bulletLine.exec(line);
    const ordered = orderedLine.exec(line);
    if (fence) {
      end();
      const code: string[] = [];
      const closing = new RegExp(`^ {0,3}${fence[1][0] === '`' ? '`' : '~'}{${fence[1].length},}\\s*$`);
      for (i += 1; i < lines.length && !closing.test(lines[i]); i += 1) code.push(lines[i]);
      blocks.push({ type: 'code', value: code.join('\n') });
    } else if (line.trim() === '') {
      end();
    } else if (bullet || ordered) {
      const isOrdered = !bullet;
      if (paragraph.length || (list && list.ordered !== isOrdered)) end();
      list ??= { ordered: isOrdered, items: [] };
      list.items.push((bullet ?? ordered)![1]);
    } else if (list) {
      // A line after a list item continues it (a lazy continuation line).
      list.items[list.items.length - 1] += `\n${line.trim()}`;
    } else {
      paragraph.push(line);
    }
  }
  end();
  return blocks;
}

function renderInlines(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.value}</Fragment>;
      case 'code':
        return <code key={i}>{node.value}</code>;
      case 'em':
        return <em key={i}>{renderInlines(node.children)}</em>;
      case 'strong':
        return <strong key={i}>{renderInlines(node.children)}</strong>;
      case 'link':
        return (
          <a key={i} href={node.href}>
            {renderInlines(node.children)}
          </a>
        );
    }
  });
}

/**
 * A description as blocks: paragraphs, lists and code. `inline` leaves a description of one
 * paragraph without its <p>, for a table cell or a line of text.
 */
export function Markdown({ text, inline = false }: { text: string; inline?: boolean }): ReactNode {
  const blocks = parseBlocks(text);
  if (inline && blocks.length === 1 && blocks[0].type === 'paragraph') return <>{renderInlines(blocks[0].children)}</>;
  return (
    <>
      {blocks.map((block, i) => {
        if (block.type === 'code')
          return (
            <pre key={i}>
              <code>{block.value}</code>
            </pre>
          );
        if (block.type === 'paragraph') return <p key={i}>{renderInlines(block.children)}</p>;
        const Tag = block.ordered ? 'ol' : 'ul';
        return (
          <Tag key={i}>
            {block.items.map((item, j) => (
              <li key={j}>{renderInlines(item)}</li>
            ))}
          </Tag>
        );
      })}
    </>
  );
}
