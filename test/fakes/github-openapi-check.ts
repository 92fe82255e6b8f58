import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/** Where scripts/extract-github-openapi.mjs writes its subset of GitHub's OpenAPI description. */
const FIXTURE = new URL('../fixtures/github-openapi-subset.json', import.meta.url);

type SchemaNode = unknown;

/**
 * Rewrites OpenAPI 3.0 `nullable` into JSON Schema, which Ajv understands: `type: T` becomes
 * `type: [T, 'null']` (and an `enum` admits null), while a nullable schema without `type`
 * (a bare allOf/anyOf) becomes `anyOf: [schema, {type: 'null'}]`.
 */
export function openApiToJsonSchema(node: SchemaNode): SchemaNode {
  if (Array.isArray(node)) return node.map(openApiToJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = openApiToJsonSchema(value);
  if (out.nullable !== true) {
    if (out.nullable === false) delete out.nullable;
    return out;
  }
  delete out.nullable;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

interface Fixture {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components: { responses?: Record<string, ResponseObject> } & Record<string, unknown>;
}

/** Responses any GitHub route can give though few operations list them. */
const GENERIC_RESPONSES: Readonly<Record<number, string>> = { 401: 'requires_authentication', 404: 'not_found' };

/** Checks a response body against what GitHub's OpenAPI description says that operation returns. */
export interface GitHubResponseCheck {
  /** Problems found, empty when the body matches; throws when the description has no such response. */
  problems(method: string, route: string, status: number, body: unknown): string[];
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Loads the fixture once and compiles per-response validators on demand, so the emulator's
 * answers are held to GitHub's published contract rather than to our memory of it.
 */
export function createGitHubResponseCheck(): GitHubResponseCheck {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  ajv.addFormat('date-time', ISO_DATE_TIME);
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addSchema(openApiToJsonSchema(fixture) as object, 'github');
  const validators = new Map<string, ValidateFunction | null>();

  /** JSON pointer (inside the `github` schema) to the body schema, or null for a bodiless response. */
  function schemaPointer(method: string, route: string, status: number): string | null {
    const responses = fixture.paths[route]?.[method.toLowerCase()]?.responses;
    if (!responses) throw new Error(`the OpenAPI subset has no operation ${method} ${route}`);
    const segment = encodeURIComponent(route.replaceAll('~', '~0').replaceAll('/', '~1'));
    let pointer = `#/paths/${segment}/${method.toLowerCase()}/responses/${status}`;
    let response = responses[String(status)];
    const generic = GENERIC_RESPONSES[status];
    if (!response && generic) response = { $ref: `#/components/responses/${generic}` };
    if (!response) throw new Error(`GitHub documents no ${status} for ${method} ${route}`);
    if (response.$ref) {
      pointer = response.$ref;
      response = fixture.components.responses?.[pointer.split('/').pop() ?? ''];
      if (!response) throw new Error(`dangling response ${pointer}`);
    }
    if (!response.content?.['application/json']?.schema) return null;
    return `github${pointer}/content/application~1json/schema`;
  }

  return {
    problems(method, route, status, body) {
      const key = `${method.toUpperCase()} ${route} ${status}`;
      let validate = validators.get(key);
      if (validate === undefined) {
        const pointer = schemaPointer(method, route, status);
        validate = pointer === null ? null : ajv.compile({ $ref: pointer });
        validators.set(key, validate);
      }
      if (validate === null) return body === undefined ? [] : [`${key} documents no body, got one`];
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => `${key}: ${e.instancePath || '(body)'} ${e.message ?? ''}`.trim());
    },
  };
}
