import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/text/hidden-characters.ts
var hiddenClasses = [
  {
    why: "zero-width characters: ZWSP, ZWNJ, ZWJ, word joiner, BOM / ZWNBSP, Mongolian vowel separator",
    ranges: [
      [8203, 8205],
      [8288, 8288],
      [65279, 65279],
      [6158, 6158]
    ]
  },
  {
    why: "bidirectional controls: they reorder what a human sees without changing what a model reads",
    ranges: [
      [8206, 8207],
      [1564, 1564],
      [8234, 8238],
      [8294, 8297]
    ]
  },
  {
    why: "Unicode tag characters: an invisible copy of ASCII, the classic carrier for hidden prompts",
    ranges: [[917504, 917631]]
  },
  {
    why: "soft hyphen: drawn only at a line break, so it can split a word the model then reads whole",
    ranges: [[173, 173]]
  },
  {
    why: "variation selectors (standard, supplementary, Mongolian): no glyph of their own, and a run of them after one visible character can encode arbitrary bytes",
    ranges: [
      [65024, 65039],
      [917760, 917999],
      [6155, 6157],
      [6159, 6159]
    ]
  },
  {
    why: "invisible operators and deprecated format controls (function application, invisible times, symmetric swapping, digit shapes)",
    ranges: [
      [8289, 8293],
      [8298, 8303]
    ]
  },
  {
    why: "blank fillers: combining grapheme joiner, Hangul fillers, Khmer inherent vowels render as empty space",
    ranges: [
      [847, 847],
      [4447, 4448],
      [12644, 12644],
      [65440, 65440],
      [6068, 6069]
    ]
  },
  {
    why: "other format controls and reserved ignorables: shorthand and musical format controls, the unassigned ignorable blocks a future font still draws as nothing",
    ranges: [
      [65520, 65528],
      [113824, 113827],
      [119155, 119162],
      [917632, 917759],
      [918e3, 921599]
    ]
  },
  {
    why: "C0 and C1 control characters other than tab, line feed and carriage return: a browser shows nothing for them",
    ranges: [
      [0, 8],
      [11, 12],
      [14, 31],
      [127, 159]
    ]
  }
];
var codePoint = (n) => `\\u{${n.toString(16)}}`;
var hiddenCharacters = new RegExp(
  `[${hiddenClasses.flatMap((c) => c.ranges).map(([from, to]) => from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`).join("")}]`,
  "gu"
);
function withoutHiddenCharacters(text) {
  return text.replace(hiddenCharacters, "");
}

// src/text/markdown.ts
function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
var codePointBefore = (text, at) => {
  const unit = text.charCodeAt(at - 1);
  return unit >= 56320 && unit <= 57343 && at >= 2 ? text.codePointAt(at - 2) : text.codePointAt(at - 1);
};
var pictographic = new RegExp("\\p{Extended_Pictographic}", "u");
var isPictographic = (cp) => cp !== void 0 && pictographic.test(String.fromCodePoint(cp));
function revealHidden(text) {
  return text.replace(hiddenCharacters, (ch, at) => {
    const before = codePointBefore(text, at);
    if ((ch === "\uFE0F" || ch === "\uFE0E") && isPictographic(before)) return ch;
    if (ch === "\u200D" && (isPictographic(before) || before === 65039) && isPictographic(text.codePointAt(at + 1)))
      return ch;
    return `[U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}]`;
  });
}
var lineEnding = /\r\n?|\n/g;
function escapeMarkdown(text) {
  return revealHidden(text.trim()).replace(lineEnding, " ").replace(/[\x21-\x2d\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g, "\\$&").replace(/^(\d+)\./, "$1\\.");
}
var defuseComments = (text) => text.replace(/<!--/g, "<!\u200B--");
var codeSpan = /(?<!`)(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g;
function escapeProse(text) {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(codeSpan)) {
    out += escapeHtml(text.slice(last, match.index)) + defuseComments(match[0]);
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}
function code(raw) {
  const text = defuseComments(revealHidden(raw)).replace(lineEnding, " ");
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
function codeBlock(raw, language = "") {
  const text = defuseComments(revealHidden(raw)).replace(lineEnding, "\n");
  const longest = Math.max(2, ...Array.from(text.matchAll(/`{3,}/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}
${text}
${fence}`;
}
function quote(markdown) {
  return markdown.split(lineEnding).map((line) => line === "" ? ">" : `> ${line}`).join("\n");
}
function details(summary, body) {
  return `<details><summary>${escapeHtml(summary)}</summary>

${body}

</details>`;
}
function indent(text, spaces = 3) {
  const pad = " ".repeat(spaces);
  return text.split("\n").map((line, i) => i === 0 || line === "" ? line : pad + line).join("\n");
}

export {
  withoutHiddenCharacters,
  escapeHtml,
  escapeMarkdown,
  escapeProse,
  code,
  codeBlock,
  quote,
  details,
  indent
};
