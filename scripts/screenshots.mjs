// Makes the pictures in the docs from what plangate really posts: plays the demo's story (demo/capture.ts:
// the bundled action, the GitHub emulator, the scripted model), takes the Markdown of the plan comment,
// the progress comment and the pull request's body, renders it as GitHub renders comments (marked with
// GitHub Flavored Markdown and line breaks, GitHub's stylesheet from github-markdown-css, and each
// ```mermaid block drawn as a diagram by the mermaid package, as GitHub draws them) and screenshots it
// in headless Chromium (puppeteer-core driving the system's browser). Code blocks wrap instead of
// scrolling, and a page where anything still runs past the right edge fails: a picture cuts nothing.
// Each image is written to docs/images/ with a manifest entry holding the sha256 of the Markdown it
// was rendered from.
//
// --check plays the story again and compares: a reply whose wording changed since the pictures were
// made fails it, naming the images to make again. It needs no browser. The hash leaves out what varies
// from run to run and shows nowhere in the picture's meaning: the elapsed time, and the hidden HTML
// comments (plangate's records, which GitHub does not show). Usage:
//   node scripts/screenshots.mjs            make the images and the manifest (needs Chromium and a
//                                           colour emoji font: apt-get install chromium
//                                           fonts-noto-color-emoji; or PLANGATE_CHROMIUM=<path>)
//   node scripts/screenshots.mjs --check    exit 1 when an image is stale, missing or not the script's
//   --images <dir> (with either) uses that folder instead of docs/images (for the script's tests)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode } from './bundle-for-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const imagesAt = args.indexOf('--images');
const imagesDir =
  imagesAt === -1
    ? path.join(root, 'docs', 'images')
    : path.resolve(args.splice(imagesAt, 2)[1] ?? fail('--images needs a folder'));
const manifestPath = path.join(imagesDir, 'manifest.json');
const require = createRequire(import.meta.url);

/** What each picture shows, above the Markdown, as GitHub heads a comment or a pull request. */
const pictures = {
  'plan-comment': { header: 'commented', alt: 'the plan comment' },
  'progress-comment': { header: 'commented', alt: 'the progress comment' },
  'pull-request-body': { header: 'opened this pull request', alt: "the pull request's body" },
};
const botLogin = 'github-actions';

/** Fails with one readable line: this runs as a CI check, where a stack trace hides the cause. */
function fail(message) {
  process.stderr.write(`screenshots: ${message}\n`);
  process.exit(1);
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The Markdown as far as the picture is concerned: without the elapsed time and the hidden comments. */
function stableMarkdown(markdown) {
  return markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/elapsed: [^·\n]*/g, 'elapsed: …');
}

/** Bundles demo/capture.ts (packages stay imports) beside the project's node_modules, and runs it. */
async function capturePosts() {
  const cache = path.join(root, 'node_modules', '.cache', 'plangate');
  mkdirSync(cache, { recursive: true });
  // One file per process: a test and a CI check may run the script at the same time.
  const outfile = path.join(cache, `screenshots-capture-${process.pid}.mjs`);
  await bundleForNode(path.join(root, 'demo', 'capture.ts'), outfile);
  try {
    const { captureDemoPosts } = await import(pathToFileURL(outfile).href);
    return await captureDemoPosts();
  } finally {
    rmSync(outfile, { force: true });
  }
}

function readManifest() {
  if (!existsSync(manifestPath)) return { images: {} };
  try {
    return JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    return fail(`${manifestPath} is not JSON: ${error instanceof Error ? error.message : error}`);
  }
}

function check(posts) {
  const { images = {} } = readManifest();
  const problems = [];
  for (const name of Object.keys(pictures)) {
    const file = `${name}.png`;
    const entry = images[file];
    const image = path.join(imagesDir, file);
    if (!entry || !existsSync(image)) problems.push(`${file} is missing`);
    else if (entry.markdownSha256 !== sha256(stableMarkdown(posts[name])))
      problems.push(`${file} shows ${pictures[name].alt} as it was, not as plangate posts it now`);
    else if (entry.imageSha256 !== sha256(readFileSync(image)))
      problems.push(`${file} is not the image the script made`);
  }
  if (problems.length > 0) fail(`${problems.join('; ')}; run: node scripts/screenshots.mjs`);
  process.stdout.write(`screenshots: ${Object.keys(pictures).length} images match what the demo posts\n`);
}

/**
 * A ```mermaid block as the element the mermaid package draws into. marked has escaped its source as
 * HTML, which the element keeps: mermaid reads it back as text.
 */
const mermaidBlocks = (html) =>
  html.replace(/<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g, '<div class="mermaid">$1</div>');

/** A page with GitHub's stylesheet and one comment-like box: a header line, then the rendered Markdown. */
async function page(name, markdown) {
  const { Marked } = await import('marked');
  // GitHub renders comments and pull request bodies with hard line breaks, unlike files.
  const html = mermaidBlocks(new Marked({ gfm: true, breaks: true }).parse(markdown));
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style><style>
body { margin: 0; padding: 16px; background: #ffffff; width: 880px; }
.box { border: 1px solid #d1d9e0; border-radius: 6px; overflow: hidden; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e;
  font: 14px -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.head strong { color: #1f2328; }
.head .bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 6px; font-size: 12px; margin: 0 4px; }
.markdown-body { padding: 16px; font-size: 14px; }
/* A picture cannot scroll: long lines wrap where GitHub would show a scroll bar. */
.markdown-body pre, .markdown-body pre code { white-space: pre-wrap; overflow-wrap: anywhere; }
.markdown-body .mermaid { margin-bottom: 16px; }
/* GitHub marks task lists with classes marked does not add; the same look by structure. */
.markdown-body li:has(> input[type='checkbox']) { list-style-type: none; }
.markdown-body li > input[type='checkbox'] { margin: 0 0.2em 0.25em -1.4em; vertical-align: middle; }
</style></head><body><div class="box"><div class="head"><strong>${botLogin}</strong><span class="bot">bot</span>
${pictures[name].header}</div><article class="markdown-body">${html}</article></div></body></html>`;
}

/** The mermaid package's browser build; the page loads it to draw the diagrams. */
function mermaidScript() {
  try {
    return require.resolve('mermaid/dist/mermaid.min.js');
  } catch {
    return fail('the mermaid package is not installed: npm ci');
  }
}

/**
 * Colour emoji, as GitHub shows them in plangate's headings (📋, ✅, 🚀): without a font for them
 * Chromium draws empty boxes, so the pictures are not made at all.
 */
function requireEmojiFont() {
  const fonts = spawnSync('fc-list', [':charset=1f4cb', 'family'], { encoding: 'utf8' });
  if (fonts.status !== 0 || fonts.stdout.trim() === '')
    fail('no colour emoji font found (fc-list :charset=1f4cb): apt-get install fonts-noto-color-emoji');
}

/** Draws the page's mermaid diagrams as GitHub does (its light theme), then finds anything cut at the right. */
async function drawAndMeasure(tab, name) {
  if (await tab.$('.mermaid')) {
    await tab.addScriptTag({ path: mermaidScript() });
    await tab.evaluate(async () => {
      globalThis.mermaid.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict' });
      await globalThis.mermaid.run({ querySelector: '.mermaid' });
    });
    const unrendered = await tab.$$eval('.mermaid', (nodes) => nodes.filter((n) => !n.querySelector('svg')).length);
    if (unrendered > 0) fail(`${name}: ${unrendered} mermaid diagram(s) did not render`);
  }
  const cut = await tab.$$eval('.box, .markdown-body *', (nodes) =>
    nodes
      .filter((n) => n.scrollWidth > n.clientWidth + 1 && globalThis.getComputedStyle(n).overflowX !== 'visible')
      .map((n) => `<${n.tagName.toLowerCase()}> ${(n.textContent ?? '').slice(0, 60)}`),
  );
  if (cut.length > 0) fail(`${name}: content runs past the right edge of ${cut.join('; ')}`);
}

function chromiumPath() {
  const candidates = [process.env.PLANGATE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return (
    candidates.find((candidate) => candidate && existsSync(candidate)) ??
    fail('no Chromium found: apt-get install chromium, or set PLANGATE_CHROMIUM to its path')
  );
}

async function write(posts) {
  requireEmojiFont();
  const { default: puppeteer } = await import('puppeteer-core');
  // --no-sandbox: CI and this machine run as root, where Chromium's sandbox refuses to start; the
  // pages are the script's own HTML, loaded from no URL.
  const browser = await puppeteer.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  const images = {};
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 912, height: 600, deviceScaleFactor: 1 });
    for (const name of Object.keys(pictures)) {
      await tab.setContent(await page(name, posts[name]), { waitUntil: 'load' });
      await drawAndMeasure(tab, name);
      const box = await tab.$('.box');
      if (!box) fail(`the page for ${name} has no box to screenshot`);
      const png = Buffer.from(await box.screenshot({ type: 'png' }));
      writeFileSync(path.join(imagesDir, `${name}.png`), png);
      images[`${name}.png`] = {
        shows: pictures[name].alt,
        markdownSha256: sha256(stableMarkdown(posts[name])),
        imageSha256: sha256(png),
      };
    }
  } finally {
    await browser.close();
  }
  const manifest = {
    about:
      'Written by node scripts/screenshots.mjs from the Markdown the demo posts; --check compares markdownSha256 with a new run of the demo.',
    images,
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`screenshots: wrote ${Object.keys(images).join(', ')} to docs/images/\n`);
}

const [mode] = args;
if (mode !== undefined && mode !== '--check') fail(`unknown argument ${mode}; use --check or nothing`);
mkdirSync(imagesDir, { recursive: true });
const posts = await capturePosts();
if (mode === '--check') check(posts);
else await write(posts);
