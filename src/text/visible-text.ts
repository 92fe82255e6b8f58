import { Parser } from 'htmlparser2';
import { blocks, drawnFences, dropped } from './html-layout.js';

/**
 * The text a reader sees in rendered HTML, laid out as plain Markdown-like text a model reads easily
 * (paragraphs, headings, list items, quotes, tables, code fences). A browser shows text and nothing
 * of the markup around it: no attribute (a link's destination, a title, an image's alt text, a
 * `data-` value), no comment, processing instruction, CDATA section or declaration, and nothing of
 * the elements html-layout.ts names. htmlparser2 tokenises the HTML as a browser does; what it does not
 * hand over as text never reaches the output.
 */

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
  /** Whether a block element is somewhere inside: then an inline element around it lays out as blocks. */
  holdsBlock: boolean;
}
type Node = string | Element;

export interface VisibleTextOptions {
  /**
   * Keep link and image destinations, as `[label](destination)` and `![](source)`: for text a
   * maintainer committed (repository instructions), where a link to a document is worth reading.
   * Text anyone can write never keeps them: GitHub does not show them.
   */
  destinations?: boolean;
}

/** Deeper elements add their text to the one at this depth: the layout recursion stays bounded. */
const maxDepth = 200;

function parse(html: string): Element {
  const root: Element = { name: '#root', attributes: {}, children: [], holdsBlock: false };
  const open: Element[] = [root];
  // Tags past the depth limit open nothing; their closers must then close nothing either.
  let flattened = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (open.length > maxDepth) {
          flattened += 1;
          return;
        }
        const element: Element = { name, attributes, children: [], holdsBlock: false };
        open.at(-1)?.children.push(element);
        open.push(element);
      },
      onclosetag() {
        if (flattened > 0) {
          flattened -= 1;
          return;
        }
        const element = open.length > 1 ? open.pop() : undefined;
        const parent = open.at(-1);
        if (element && parent && !dropped.has(element.name) && (element.holdsBlock || blocks.has(element.name)))
          parent.holdsBlock = true;
      },
      ontext(text) {
        open.at(-1)?.children.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return root;
}

/** HTML's white space, collapsed as a browser lays it out; a no-break space is a visible character and stays. */
const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, ' ');

/**
 * Inline pieces side by side: a space where one ends and the next begins is one space, as a browser
 * shows it. Pieces are kept apart until the end, so a long run costs linear time.
 */
class Run {
  private readonly pieces: string[] = [];
  private spaced = false;

  add(piece: string): void {
    const text = this.spaced && piece.startsWith(' ') ? piece.slice(1) : piece;
    if (text === '') return;
    this.pieces.push(text);
    this.spaced = text.endsWith(' ');
  }

  text(): string {
    return this.pieces.join('');
  }
}

/** Every text inside, as written (for code), with line breaks for `<br>`. */
function textOf(node: Node): string {
  if (typeof node === 'string') return node;
  if (dropped.has(node.name)) return '';
  if (node.name === 'br') return '\n';
  return node.children.map(textOf).join('');
}

/** The longest run of backticks in `text`. */
function longestBackticks(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** An inline code span that holds `text` whatever backticks are in it. */
function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ');
  if (flat.trim() === '') return flat;
  const fence = '`'.repeat(longestBackticks(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Emphasis marks around text, outside its surrounding spaces; none around nothing. */
function marked(mark: string, text: string): string {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return start >= end ? text : `${text.slice(0, start)}${mark}${text.slice(start, end)}${mark}${text.slice(end)}`;
}

/** Lines trimmed, without blank lines at either end and with at most one blank line in a row. */
function tidyLines(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' || (lines.length > 0 && lines.at(-1) !== '')) lines.push(trimmed);
  }
  if (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

class Layout {
  constructor(private readonly options: VisibleTextOptions) {}

  /** Nodes as blocks: runs of inline content become paragraphs, block elements lay out on their own. */
  blocks(nodes: readonly Node[]): string[] {
    const out: string[] = [];
    let run = new Run();
    const flush = () => {
      const paragraph = tidyLines(run.text());
      if (paragraph !== '') out.push(paragraph);
      run = new Run();
    };
    const visit = (node: Node) => {
      if (typeof node === 'string') {
        run.add(collapse(node));
      } else if (dropped.has(node.name)) {
        // Nothing of it is shown.
      } else if (blocks.has(node.name)) {
        flush();
        const block = this.block(node);
        if (block !== '') out.push(block);
      } else if (node.holdsBlock) {
        // An inline element around blocks (a link around a paragraph): its content lays out as blocks.
        node.children.forEach(visit);
      } else {
        run.add(this.inline(node));
      }
    };
    nodes.forEach(visit);
    flush();
    return out;
  }

  private text(nodes: readonly Node[]): string {
    return this.blocks(nodes).join('\n\n');
  }

  private block(element: Element): string {
    const { name, children } = element;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      const text = this.text(children).replace(/\s*\n\s*/g, ' ');
      return text === '' ? '' : `${'#'.repeat(Number(heading[1]))} ${text}`;
    }
    switch (name) {
      case 'hr':
        return '---';
      case 'pre':
        return this.pre(element);
      case 'blockquote':
        return this.text(children)
          .split('\n')
          .map((line) => (line === '' ? '>' : `> ${line}`))
          .join('\n');
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        return this.list(element);
      case 'li':
        return this.item(element, '- ');
      case 'table':
        return this.table(element);
      default:
        return this.text(children);
    }
  }

  private inline(element: Element): string {
    const inner = () => {
      const run = new Run();
      for (const child of element.children) run.add(this.inlineNode(child));
      return run.text();
    };
    switch (element.name) {
      case 'br':
        return '\n';
      case 'img': {
        const source = element.attributes.src;
        return this.options.destinations && source ? `![](${source})` : '[image]';
      }
      case 'input':
        return '';
      case 'code':
        return codeSpan(textOf(element));
      case 'em':
      case 'i':
        return marked('*', inner());
      case 'strong':
      case 'b':
        return marked('**', inner());
      case 'del':
      case 's':
      case 'strike':
        return marked('~~', inner());
      case 'a': {
        // The arrow back from a footnote to where it is cited: a control, not text.
        if (/\bfootnote-backref\b/.test(element.attributes.class ?? '')) return '';
        const label = inner();
        const href = element.attributes.href;
        return this.options.destinations && href && label.trim() !== '' ? `[${label}](${href})` : label;
      }
      default:
        return inner();
    }
  }

  private inlineNode(node: Node): string {
    if (typeof node === 'string') return collapse(node);
    if (dropped.has(node.name)) return '';
    return this.inline(node);
  }

  /** A code block, fenced longer than any backtick run in it; a drawn fence is only named. */
  private pre(element: Element): string {
    const code = element.children.find((c): c is Element => typeof c !== 'string' && c.name === 'code');
    const language = /(?:^|\s)language-(\S+)/.exec(code?.attributes.class ?? '')?.[1]?.toLowerCase();
    const drawn = language === undefined ? undefined : drawnFences[language];
    if (drawn) return drawn;
    const text = textOf(element).replace(/\r\n?/g, '\n').replace(/\n$/, '');
    const fence = '`'.repeat(Math.max(2, longestBackticks(text)) + 1);
    return `${fence}\n${text}\n${fence}`;
  }

  private list(element: Element): string {
    const ordered = element.name === 'ol';
    const start = Number.parseInt(element.attributes.start ?? '', 10);
    let number = ordered && Number.isSafeInteger(start) ? start : 1;
    const items: string[] = [];
    for (const child of element.children) {
      if (typeof child !== 'string' && child.name === 'li') {
        items.push(this.item(child, ordered ? `${number++}. ` : '- '));
      } else {
        items.push(...this.blocks([child]));
      }
    }
    return items.filter((item) => item !== '').join('\n');
  }

  /** A list item: the marker on its first line, the rest indented under it. */
  private item(element: Element, marker: string): string {
    const pad = ' '.repeat(marker.length);
    // A tight item (no paragraph of its own) keeps its parts on consecutive lines, as it is shown.
    const loose = element.children.some((c) => typeof c !== 'string' && c.name === 'p');
    const lines = this.blocks(element.children)
      .join(loose ? '\n\n' : '\n')
      .split('\n');
    return lines.map((line, i) => (i === 0 ? `${marker}${line}` : line === '' ? '' : `${pad}${line}`)).join('\n');
  }

  /** A table as pipe rows, a rule under its header row; text outside the rows, which a browser shows first, comes first. */
  private table(element: Element): string {
    const rows: string[][] = [];
    const before: string[] = [];
    let header = 0;
    const cell = (c: Element) =>
      this.text(c.children)
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\|/g, '\\|');
    const visit = (nodes: readonly Node[], inHead: boolean) => {
      for (const node of nodes) {
        if (typeof node === 'string' || dropped.has(node.name)) {
          before.push(...this.blocks([node]));
        } else if (node.name === 'thead' || node.name === 'tbody' || node.name === 'tfoot') {
          visit(node.children, node.name === 'thead');
        } else if (node.name === 'tr') {
          const cells = node.children.filter((c): c is Element => typeof c !== 'string' && /^t[dh]$/.test(c.name));
          before.push(...this.blocks(node.children.filter((c) => !cells.includes(c as Element))));
          rows.push(cells.map(cell));
          if (inHead && header === rows.length - 1) header = rows.length;
        } else {
          before.push(...this.blocks([node]));
        }
      }
    };
    visit(element.children, false);
    const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
    const lines = rows.map((r) => `| ${[...r, ...Array<string>(width - r.length).fill('')].join(' | ')} |`);
    if (header > 0 && width > 0) lines.splice(header, 0, `|${' --- |'.repeat(width)}`);
    return [...before, lines.join('\n')].filter((part) => part !== '').join('\n\n');
  }
}

/** The visible text of an HTML document or fragment. */
export function visibleText(html: string, options: VisibleTextOptions = {}): string {
  return new Layout(options).blocks(parse(html).children).join('\n\n');
}
