import { Fragment, type CSSProperties, type ReactNode } from 'react';
import { shapeAnchor, type DocBody, type DocParameter, type DocResponse, type DocRoute } from '@/lib/docs/routes';
import type { FieldRow } from '@/lib/docs/schema';
import { Markdown } from '@/lib/web/public/markdown';
import styles from './docs.module.css';

// The parts of the API reference: a route's parameters, bodies, answers and examples (its page,
// app/docs/api/[route]/page.tsx), and the error bodies that /docs describes once.


/**
 * A field's path with its parents muted, so the field's own name stands out; a narrow column
 * breaks it after a dot rather than inside a name.
 */
function FieldName({ name }: { name: string }) {
  const cut = name.lastIndexOf('.') + 1;
  const parents = name.slice(0, cut).split('.').slice(0, -1);
  return (
    <code>
      {parents.length > 0 && (
        <span className={styles.parent}>
          {parents.map((parent, i) => (
            <Fragment key={i}>
              {parent}.<wbr />
            </Fragment>
          ))}
        </span>
      )}
      {name.slice(cut)}
    </code>
  );
}

/** A name that may break where a narrow column needs it: after `/` or `.`, and between words of CamelCase. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/.])|(?<=[a-z])(?=[A-Z])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** Rules as one line of Markdown phrases. */
function Rules({ rules }: { rules: string[] }) {
  if (rules.length === 0) return null;
  return (
    <span className={styles.rules}>
      <Markdown text={rules.join('; ')} inline />
    </span>
  );
}

/** A reference table: its columns (header, width class), rows as children. */
export function DocTable({ caption, columns, children }: { caption: string; columns: [string, string?][]; children: ReactNode }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {columns.map(([header, width]) => (
            <col key={header} className={width} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map(([header]) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The type and description cells of a field or parameter row. */
function TypeAndDescription({ type, description, rules }: { type: string; description?: string | null; rules: string[] }) {
  return (
    <>
      <td>
        <Breakable text={type} />
      </td>
      <td>
        {description && <Markdown text={description} inline />}
        <Rules rules={rules} />
      </td>
    </>
  );
}

/** Names with their types and descriptions: a body's fields, a route's parameters. */
const nameColumns = (first: string): [string, string?][] => [[first, styles.colName], ['Type', styles.colType], ['Description']];

export function Fields({ rows, caption }: { rows: FieldRow[]; caption: string }) {
  return (
    <DocTable caption={caption} columns={nameColumns('Field')}>
      {rows.map((row, i) => (
        <tr key={`${row.name}-${i}`}>
          <td className={styles.field} style={{ '--depth': Math.min(row.depth, 4) } as CSSProperties}>
            <FieldName name={row.name} />
            {row.form && <span className={styles.note}>form {row.form}</span>}
            {row.required && !row.form && <span className={styles.note}>required</span>}
          </td>
          <TypeAndDescription {...row} />
        </tr>
      ))}
    </DocTable>
  );
}

function Parameters({ parameters }: { parameters: DocParameter[] }) {
  return (
    <DocTable caption="Parameters" columns={nameColumns('Parameter')}>
      {parameters.map((p) => (
        <tr key={`${p.in}-${p.name}`}>
          <td>
            <code>{p.name}</code>
            <span className={styles.note}>
              in {p.in}
              {p.required ? ', required' : ''}
            </span>
          </td>
          <TypeAndDescription {...p} />
        </tr>
      ))}
    </DocTable>
  );
}

/** What a body is in one line: its type, rules and description. */
export function BodyLine({ body }: { body: DocBody }) {
  return (
    <p>
      <code>{body.mediaType}</code>, {body.type}
      {body.rules.length > 0 && <>, <Markdown text={body.rules.join('; ')} inline /></>}
      {body.description && (
        <>
          : <Markdown text={body.description} inline />
        </>
      )}
    </p>
  );
}

function Example({ text, label }: { text: string; label: string }) {
  return (
    <details className={styles.more}>
      <summary>{label}</summary>
      <pre>
        <code>{text}</code>
      </pre>
    </details>
  );
}

function BodyCell({ response }: { response: DocResponse }) {
  if (response.shape) {
    return (
      <a href={`/docs/api#${shapeAnchor(response.shape.name)}`}>
        <Breakable text={response.shape.name} />
      </a>
    );
  }
  if (!response.body) return <span className="muted">none</span>;
  return (
    <>
      <Breakable text={response.body.type} />{' '}
      <span className={styles.note}>
        <Breakable text={response.body.mediaType} />
      </span>
    </>
  );
}

function Responses({ responses, anchor }: { responses: DocResponse[]; anchor: string }) {
  return (
    <>
      <DocTable caption="Answers by status" columns={[['Status', styles.colStatus], ['Meaning'], ['Body', styles.colBody]]}>
        {responses.map((r) => (
          <tr key={r.status}>
            <td>{r.status}</td>
            <td>
              {r.description && <Markdown text={r.description} inline />}
              {r.headers.length > 0 && (
                <ul className={styles.headers}>
                  {r.headers.map((h) => (
                    <li key={h.name}>
                      Header <code>{h.name}</code>
                      {h.description && (
                        <>
                          : <Markdown text={h.description} inline />
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td>
              <BodyCell response={r} />
            </td>
          </tr>
        ))}
      </DocTable>
      {responses.map(
        (r) =>
          r.body &&
          (r.body.fields.length > 0 || r.body.example) && (
            <div key={`${anchor}-${r.status}`}>
              {r.body.fields.length > 0 && (
                <details className={styles.more}>
                  <summary>
                    Fields of the {r.status} answer ({r.body.type})
                  </summary>
                  <Fields rows={r.body.fields} caption={`Fields of the ${r.status} answer`} />
                </details>
              )}
              {r.body.example && <Example text={r.body.example} label={`Example ${r.status} answer`} />}
            </div>
          ),
      )}
    </>
  );
}

/** One route in full. */
export function Route({ route }: { route: DocRoute }) {
  return (
    <>
      <p>
        <strong>{route.summary}.</strong> <span className="muted">Auth: {route.auth}.</span>
      </p>
      {route.description && <Markdown text={route.description} />}
      {route.parameters.length > 0 && (
        <>
          <h2>Parameters</h2>
          <Parameters parameters={route.parameters} />
        </>
      )}
      {route.requestBody && (
        <>
          <h2>Request body</h2>
          <BodyLine body={route.requestBody} />
          {route.requestBody.fields.length > 0 && <Fields rows={route.requestBody.fields} caption="Fields of the request body" />}
          {route.requestBody.example && <Example text={route.requestBody.example} label="Example request body" />}
        </>
      )}
      <h2>Answers</h2>
      <Responses responses={route.responses} anchor={route.anchor} />
    </>
  );
}
