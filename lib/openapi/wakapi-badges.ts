import type { z } from 'zod';
import { shieldsSchema } from '../badges/schemas';
import { projectBadgeSchema, projectBadgeStateSchema } from '../badges/wakapi-projects';
import { wakapiIntervalNames } from '../badges/wakapi-ranges';
import { accountOperation, jsonBody, ok, problems, svg, type Operation } from './operations';

// Wakapi's badge URLs in openapi.json (lib/badges/wakapi.ts), at the site root as Wakapi serves
// them, and the per-project setting behind their project form.

/** The schemas these operations name (documentRoots). */
export const wakapiBadgeRoots = (): z.ZodType[] => [projectBadgeSchema, projectBadgeStateSchema];

const root = [{ url: '/api', description: "Wakapi's base at the site root, where Wakapi serves them." }];
const shared =
  'What the owner shares, as on every public surface of theirs: the total while the profile is public; `language:` with "share languages"; `editor:` and `os:` with "share editors" (an AI agent\'s plugin as an editor with "share AI-assisted coding" too); `project:` only for a project whose badge its owner made public (PUT /me/projects/{name}/badge; off by default). Anything else (an unknown user, a private profile, a figure not shared, `machine:` or `label:`) answers exactly as an unknown user does. A name matches whatever its case, a project only as the owner\'s list names it. The figure is coding time in Wakapi\'s words (`3 hrs 12 mins`); the plan\'s window of history holds. Cached (Cache-Control, ETag) a minute.';
const parameters = [
  { name: 'user', in: 'path', required: true, description: 'The handle (or id).', schema: { type: 'string' } },
  {
    name: 'interval',
    in: 'path',
    required: true,
    description: `\`interval:{name}\`, one of Wakapi's names: ${wakapiIntervalNames.join(', ')}; another name, or none, is \`30_days\`, as on Wakapi. A span of N days or months ends today (the owner's) and counts it; a week starts on Monday.`,
    schema: { type: 'string', pattern: '^interval:[a-z0-9_]+$' },
  },
];
const filter = { name: 'filter', in: 'path', required: true, description: '`language:{name}`, `editor:{name}`, `os:{name}` or `project:{name}`, percent-encoded.', schema: { type: 'string' } };

function svgOperation(withFilter: boolean): Operation {
  return {
    get: {
      summary: withFilter ? "Wakapi's badge of one language, editor, system or project, as SVG" : "Wakapi's badge of the total, as SVG",
      description: `${shared} \`label\` and \`color\` in the query draw it so (one that is no badge's label or colour is ignored). Not shown: 404 with a small valid SVG reading "badge not found".`,
      parameters: [
        ...parameters,
        ...(withFilter ? [filter] : []),
        { name: 'label', in: 'query', required: false, schema: { type: 'string', maxLength: 64 } },
        { name: 'color', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: { '200': svg('The badge.'), '304': { description: 'Not modified.' }, '404': svg('A small badge reading "badge not found".'), ...problems({ method_not_allowed: '' }) },
    },
  };
}

function shieldsOperation(withFilter: boolean): Operation {
  return {
    get: {
      summary: withFilter ? "Wakapi's shields.io endpoint of one language, editor, system or project" : "Wakapi's shields.io endpoint of the total",
      description: `\`{schemaVersion: 1, label, message, color, cacheSeconds}\`, as Wakapi's. ${shared} Not shown: 404 with \`isError: true\`.`,
      parameters: [...parameters, ...(withFilter ? [filter] : [])],
      responses: { '200': ok(shieldsSchema), '304': { description: 'Not modified.' }, '404': { ...ok(shieldsSchema), description: 'Not shown: `isError` is true.' }, ...problems({ method_not_allowed: '' }) },
    },
  };
}

/** The operation without the interval's segment (Wakapi's default, 30 days): the user's parameter only. */
function withoutInterval(operation: Operation): Operation {
  const get = operation.get as { parameters: { name: string }[] };
  return { get: { ...get, parameters: get.parameters.filter((p) => p.name !== 'interval') } };
}

export const wakapiBadgePaths = (): Record<string, unknown> => ({
  '/badge/{user}': { servers: root, ...withoutInterval(svgOperation(false)) },
  '/compat/shields/v1/{user}': { servers: root, ...withoutInterval(shieldsOperation(false)) },
  '/badge/{user}/{interval}': { servers: root, ...svgOperation(false) },
  '/badge/{user}/{interval}/{filter}': { servers: root, ...svgOperation(true) },
  '/compat/shields/v1/{user}/{interval}': { servers: root, ...shieldsOperation(false) },
  '/compat/shields/v1/{user}/{interval}/{filter}': { servers: root, ...shieldsOperation(true) },
  '/me/projects/{name}/badge': {
    put: {
      ...accountOperation(
        "Make a project's badge public, or private again",
        "Wakapi's project badge URLs (`/api/badge/{user}/interval:…/project:{name}` and the shields endpoint) show a project's time only while its badge is public, and only while the profile is public; off by default. A renamed project's badge stays with the old name, which then shows nothing. Making one private always answers 200.",
        { '200': ok(projectBadgeStateSchema) },
        { ...jsonBody, invalid_payload: 'a bad `public`, named in `errors`.', not_found: 'no project of mine of that name.' },
        projectBadgeSchema,
      ),
      parameters: [{ name: 'name', in: 'path', required: true, description: 'The project, percent-encoded.', schema: { type: 'string' } }],
    },
  },
});
