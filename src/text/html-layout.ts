/**
 * How a browser showing a GitHub page lays out each HTML element, as far as the text a reader sees
 * depends on it: which elements show nothing of their content, which stand as blocks of their own,
 * and which code fences GitHub draws as pictures. visible-text.ts lays text out by these.
 */

/**
 * Elements whose content is not laid out as text. GitHub shows the markup of the first nine as
 * literal text (its tag filter) where a browser hides their content or reads it raw; the others a
 * browser never draws (templates, closed dialogs, `<rp>` fallbacks, media and frame fallbacks) or
 * GitHub's sanitiser removes. Dropping visible text is the safe failure, so all of them go whole.
 */
export const dropped = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
  'template',
  'noscript',
  'head',
  'dialog',
  'rp',
  'object',
  'embed',
  'applet',
  'audio',
  'video',
  'canvas',
  'svg',
  'math',
  'select',
  'datalist',
]);

/** Elements a browser lays out as blocks of their own. */
export const blocks = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/**
 * Code fences GitHub draws as a diagram, map or model rather than as code: their source holds text
 * nobody sees (Mermaid comments and accessibility descriptions, map properties), so a placeholder
 * stands for them.
 */
export const drawnFences: Readonly<Record<string, string>> = {
  mermaid: '[Mermaid diagram]',
  geojson: '[map]',
  topojson: '[map]',
  stl: '[3D model]',
};
