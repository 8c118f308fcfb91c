import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/openapi';
import { Markdown, parseBlocks, parseInline } from '@/lib/web/public/markdown';

const html = (text: string, inline = false) => renderToStaticMarkup(createElement(Markdown, { text, inline }));

describe('the Markdown of descriptions', () => {
  it('shows code spans as code, never their backticks', () => {
    expect(html('Honour `Retry-After`; see `errors`.')).toBe('<p>Honour <code>Retry-After</code>; see <code>errors</code>.</p>');
    // A longer fence holds backticks; one space either side is padding.
    expect(html('a `` x`y `` b')).toBe('<p>a <code>x`y</code> b</p>');
    // Inside code, Markdown means nothing.
    expect(html('`Access-Control-Allow-Origin: *`, `a_b_c`, `[x](y)`')).toBe(
      '<p><code>Access-Control-Allow-Origin: *</code>, <code>a_b_c</code>, <code>[x](y)</code></p>',
    );
    // An unclosed backtick is a backtick.
    expect(html('one ` two')).toBe('<p>one ` two</p>');
  });

  it('escapes HTML: a description cannot inject markup', () => {
    expect(html('<script>alert(1)</script> & `<b>`')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <code>&lt;b&gt;</code></p>');
    expect(html('`"sync";r=<n>;t=<s>`')).toBe('<p><code>&quot;sync&quot;;r=&lt;n&gt;;t=&lt;s&gt;</code></p>');
  });

  it('renders emphasis, strong emphasis and escapes, and leaves lone or intraword delimiters alone', () => {
    expect(html('*one* and **two** and _three_')).toBe('<p><em>one</em> and <strong>two</strong> and <em>three</em></p>');
    expect(html('PUBLIC_MIN_USERS and snake_case_name')).toBe('<p>PUBLIC_MIN_USERS and snake_case_name</p>');
    expect(html('2 * 3 * 4, a * b')).toBe('<p>2 * 3 * 4, a * b</p>');
    expect(html('\\*not emphasis\\* and \\`not code\\`')).toBe('<p>*not emphasis* and `not code`</p>');
    expect(html('**bold with `code`**')).toBe('<p><strong>bold with <code>code</code></strong></p>');
  });

  it('keeps safe links and drops the target of any other', () => {
    expect(html('see [the errors](/docs/errors#not_found) or [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457)')).toBe(
      '<p>see <a href="/docs/errors#not_found">the errors</a> or <a href="https://www.rfc-editor.org/rfc/rfc9457">RFC 9457</a></p>',
    );
    expect(html('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>');
    expect(html('[click](javascript:void)')).toBe('<p>click</p>');
    expect(html('[elsewhere](//evil.example/x)')).toBe('<p>elsewhere</p>');
    expect(html('[`code` in a link](#here)')).toBe('<p><a href="#here"><code>code</code> in a link</a></p>');
  });

  it('splits paragraphs, lists and fenced code', () => {
    expect(parseBlocks('First line\nsame paragraph.\n\nSecond.').map((b) => b.type)).toEqual(['paragraph', 'paragraph']);
    expect(html('Steps:\n- one\n- `two`\n\n1. first\n2. second')).toBe(
      '<p>Steps:</p><ul><li>one</li><li><code>two</code></li></ul><ol><li>first</li><li>second</li></ol>',
    );
    expect(html('Run:\n\n```sh\ncurl -d \'{"a":1}\' <url>\n```\nafter')).toBe(
      '<p>Run:</p><pre><code>curl -d &#x27;{&quot;a&quot;:1}&#x27; &lt;url&gt;</code></pre><p>after</p>',
    );
  });

  it('inline: one paragraph without its <p>; more than one keeps its blocks', () => {
    expect(html('`code`: meaning.', true)).toBe('<code>code</code>: meaning.');
    expect(html('one\n\ntwo', true)).toBe('<p>one</p><p>two</p>');
  });

  it('leaves no backtick and no stray delimiter in any description of openapi.json', () => {
    const descriptions: string[] = [];
    const walk = (value: unknown, key = ''): void => {
      if (Array.isArray(value)) value.forEach((v) => walk(v, key));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === 'description' && typeof v === 'string' && key !== 'properties') descriptions.push(v);
          else walk(v, k);
        }
      }
    };
    walk(openApiDocument());
    expect(descriptions.length).toBeGreaterThan(100);
    const shown = (nodes: ReturnType<typeof parseInline>): string =>
      nodes.map((n) => (n.type === 'text' ? n.value : n.type === 'code' ? '' : shown(n.children))).join('');
    let codeSpans = 0;
    for (const text of new Set(descriptions)) {
      const nodes = parseBlocks(text).flatMap((b) => (b.type === 'paragraph' ? b.children : []));
      codeSpans += nodes.filter((n) => n.type === 'code').length;
      expect(shown(nodes), text).not.toMatch(/`/);
    }
    expect(codeSpans).toBeGreaterThan(100);
  });
});
