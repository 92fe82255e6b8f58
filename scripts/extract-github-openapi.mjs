// Extracts, from GitHub's published OpenAPI description, only the operations plangate's GitHub REST
// emulator serves (test/fakes/github-emulator.ts), with every component their responses reference, into
// test/fixtures/github-openapi-subset.json. The emulator's test validates response bodies against it, so
// the emulator is checked against GitHub's own contract without the 13 MB description in the repository.
//
// Rerun (the package is fetched into /tmp, never added to package.json):
//   cd /tmp && npm pack @octokit/openapi && tar xzf octokit-openapi-*.tgz
//   cd <your checkout> && node scripts/extract-github-openapi.mjs /tmp/package/generated/api.github.com.json
// An optional second argument overrides the output path.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The routes the emulator serves; keep in step with ROUTES in test/fakes/github-emulator-routes.ts. */
const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['get', '/repos/{owner}/{repo}/issues'],
  ['post', '/repos/{owner}/{repo}/issues'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['patch', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['get', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['post', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
  ['get', '/repos/{owner}/{repo}/pulls'],
  ['post', '/repos/{owner}/{repo}/pulls'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['patch', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['post', '/repos/{owner}/{repo}/git/commits'],
  ['get', '/repos/{owner}/{repo}/git/commits/{commit_sha}'],
  ['post', '/repos/{owner}/{repo}/git/refs'],
  ['get', '/repos/{owner}/{repo}/git/ref/{ref}'],
  ['patch', '/repos/{owner}/{repo}/git/refs/{ref}'],
  ['delete', '/repos/{owner}/{repo}/git/refs/{ref}'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}'],
];

/** Error responses every route can give (bad token, unknown route) though few operations list them. */
const ALWAYS = ['#/components/responses/requires_authentication', '#/components/responses/not_found'];

const [input, outputArg] = process.argv.slice(2);
if (!input) {
  process.stderr.write('usage: node scripts/extract-github-openapi.mjs <path to api.github.com.json> [output]\n');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const output = outputArg ?? join(here, '..', 'test', 'fixtures', 'github-openapi-subset.json');
const description = JSON.parse(readFileSync(input, 'utf8'));

/** Drops what the schema check does not need and what would drag in unrelated components. */
function trimResponse(response) {
  if (!response || typeof response !== 'object' || '$ref' in response) return response;
  const { description: text, headers, content } = response;
  const trimmed = { description: text };
  if (headers) trimmed.headers = headers;
  if (content) {
    trimmed.content = {};
    for (const [type, media] of Object.entries(content)) trimmed.content[type] = { schema: media.schema };
  }
  return trimmed;
}

function resolvePointer(ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node = description;
  for (const part of ref.slice(2).split('/')) {
    node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  if (node === undefined) throw new Error(`dangling $ref: ${ref}`);
  return node;
}

const components = {};
const pending = [...ALWAYS];
const seen = new Set();

function collectRefs(node) {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') pending.push(value);
      else collectRefs(value);
    }
  }
}

const paths = {};
for (const [method, path] of OPERATIONS) {
  const operation = description.paths?.[path]?.[method];
  if (!operation) throw new Error(`operation not in the description: ${method.toUpperCase()} ${path}`);
  const responses = {};
  for (const [status, response] of Object.entries(operation.responses)) responses[status] = trimResponse(response);
  const kept = { operationId: operation.operationId, summary: operation.summary, responses };
  collectRefs(responses);
  paths[path] = { ...paths[path], [method]: kept };
}

while (pending.length > 0) {
  const ref = pending.pop();
  if (seen.has(ref)) continue;
  seen.add(ref);
  const [, , kind, name] = ref.split('/');
  if (!kind || !name) throw new Error(`unexpected $ref: ${ref}`);
  const target = kind === 'responses' ? trimResponse(resolvePointer(ref)) : resolvePointer(ref);
  components[kind] ??= {};
  components[kind][name] = target;
  collectRefs(target);
}

// Stable order so a rerun against the same description yields the same bytes.
for (const kind of Object.keys(components)) {
  components[kind] = Object.fromEntries(Object.entries(components[kind]).sort(([a], [b]) => a.localeCompare(b)));
}

const subset = {
  openapi: description.openapi,
  info: {
    title: `${description.info.title} (subset served by the plangate GitHub emulator)`,
    version: description.info.version,
    'x-extracted-from': '@octokit/openapi generated/api.github.com.json',
  },
  paths,
  components,
};
writeFileSync(output, `${JSON.stringify(subset, null, 2)}\n`);
process.stdout.write(
  `wrote ${output}: ${OPERATIONS.length} operations, ${Object.keys(components.schemas ?? {}).length} schemas\n`,
);
