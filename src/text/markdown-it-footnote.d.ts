/** markdown-it-footnote ships no types of its own: it is a markdown-it plugin that takes no options. */
declare module 'markdown-it-footnote' {
  import type MarkdownIt from 'markdown-it';

  const footnote: (md: MarkdownIt) => void;
  export default footnote;
}
