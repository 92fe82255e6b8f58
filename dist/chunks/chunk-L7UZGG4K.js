import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  oneSlipFrom
} from "./chunk-ORSRIQN3.js";

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

// src/config/secret-inputs.ts
var secretInputs = [
  "github-token",
  "api-key",
  "planner-api-key",
  "executor-api-key",
  "record-secret"
];

// src/text/comment-command.ts
var COMMAND_EVENTS = [
  "issue_comment",
  "pull_request_review_comment",
  "pull_request_review",
  "schedule",
  "workflow_dispatch"
];
var COMMENT_EVENTS = [
  "issue_comment",
  "pull_request_review_comment",
  "pull_request_review"
];
function eventIgnoreReason(eventName) {
  return COMMAND_EVENTS.includes(eventName) ? void 0 : `the ${eventName} event carries no plangate command`;
}
var planIdPattern = /^[0-9a-f]{6,40}$/;
function isBot(user) {
  return user.type === "Bot" || user.login.endsWith("[bot]");
}
var COMMAND_NAMES = ["plan", "approve", "revise", "answer", "status", "cancel", "help"];
var isCommandName = (name) => COMMAND_NAMES.includes(name);
var commandPrefixPattern = /^\/[A-Za-z][A-Za-z0-9_-]{0,38}$/;
function commandText(name, prefix = "") {
  return prefix === "" ? `/${name}` : `${prefix} ${name}`;
}
function spellCommands(text, prefix = "") {
  if (prefix === "") return text;
  const names = COMMAND_NAMES.join("|");
  return text.replace(
    new RegExp(`\`/(${names})(?=[\\s\`])`, "g"),
    (_, name) => `\`${commandText(name, prefix)}`
  );
}
var commandOptions = {
  plan: [],
  revise: [],
  answer: [],
  approve: ["--over-budget"],
  status: [],
  cancel: [],
  help: []
};
var optionWord = new RegExp("^(?:-{1,2}|[\u2014\u2013])\\p{L}", "u");
var textOptionWord = new RegExp("^(?:--|[\u2014\u2013])\\p{L}", "u");
function unknownOption(command, words, pattern = optionWord) {
  const option = words.find((w) => pattern.test(w) && !commandOptions[command].includes(w.toLowerCase()));
  return option === void 0 ? void 0 : { name: "unknown-option", command, option };
}
function firstLineOf(text) {
  const normalized = text.replace(/\r\n?/g, "\n").trimStart();
  const newline = normalized.indexOf("\n");
  return {
    first: (newline === -1 ? normalized : normalized.slice(0, newline)).trim(),
    following: newline === -1 ? "" : normalized.slice(newline + 1)
  };
}
function commandWord(first, prefix) {
  if (prefix === "") {
    const match2 = /^\/([a-z-]+)(?:\s+(.*))?$/i.exec(first);
    return match2 ? { name: (match2[1] ?? "").toLowerCase(), args: (match2[2] ?? "").trim(), addressed: false } : void 0;
  }
  const head = first.split(/\s/, 1)[0] ?? "";
  if (head.toLowerCase() !== prefix.toLowerCase()) return void 0;
  const rest = first.slice(head.length).trim();
  if (rest === "") return { name: "help", args: "", addressed: true };
  const match = /^\/?([a-z-]+)(?:\s+(.*))?$/i.exec(rest);
  const name = match ? match[1] ?? "" : rest.split(/\s/, 1)[0] ?? "";
  return { name: name.toLowerCase(), args: (match?.[2] ?? "").trim(), addressed: true };
}
function parseCommentCommand(text, prefix = "") {
  const { first, following } = firstLineOf(text);
  const word = commandWord(first, prefix);
  if (!word) return void 0;
  const { name, args, addressed } = word;
  const words = args === "" ? [] : args.split(/\s+/);
  if (!isCommandName(name)) {
    const meant = oneSlipFrom(name, COMMAND_NAMES);
    if (!addressed && meant === void 0) return void 0;
    return { name: "unknown", command: name, ...meant ? { meant } : {} };
  }
  if (name === "plan" || name === "revise" || name === "answer") {
    const wrong = unknownOption(name, words.slice(0, 1), textOptionWord);
    if (wrong) return wrong;
    return {
      name,
      rest: [args, following].filter((s) => s.trim() !== "").join("\n").trim()
    };
  }
  if (name === "approve") {
    const wrong = unknownOption(name, words.slice(0, 2));
    if (wrong) return wrong;
    const flagAt = words.slice(0, 2).findIndex((w) => w.toLowerCase() === "--over-budget");
    const flag = flagAt === -1 ? {} : { overBudget: true };
    const id = (flagAt === -1 ? words : words.filter((_, i) => i !== flagAt))[0];
    if (id === void 0) return { name: "approve", ...flag };
    return planIdPattern.test(id) ? { name: "approve", planId: id, ...flag } : { name: "approve", invalidId: id, ...flag };
  }
  return unknownOption(name, words.slice(0, 1)) ?? { name };
}
function notCommandReason(text, prefix = "") {
  const other = /^(\/[A-Za-z0-9_-]{1,40})/.exec(firstLineOf(text).first)?.[1];
  const expected = prefix === "" ? "" : ` (plangate\u2019s commands start with ${prefix})`;
  return other === void 0 ? `the comment\u2019s first line is not a plangate command${expected}` : `${other} is not a plangate command${expected}`;
}
function commentIgnoreReason(comment, botLogin, allowedBots, prefix = "") {
  if (comment.action !== "created") return `comment was ${comment.action}, not created`;
  const { author } = comment;
  if (author.login === botLogin) return "the comment is plangate\u2019s own";
  if (isBot(author) && !allowedBots.includes(author.login)) {
    return `comments by bots (${author.login}) are not commands unless listed in allowed-bots`;
  }
  if (!parseCommentCommand(comment.body, prefix)) return notCommandReason(comment.body, prefix);
  return void 0;
}
function commentOfEvent(eventName) {
  return eventName === "pull_request_review" ? { field: "review", created: "submitted" } : { field: "comment", created: "created" };
}

export {
  secretInputs,
  withoutHiddenCharacters,
  escapeHtml,
  escapeMarkdown,
  escapeProse,
  code,
  codeBlock,
  quote,
  details,
  indent,
  COMMENT_EVENTS,
  eventIgnoreReason,
  isBot,
  commandPrefixPattern,
  commandText,
  spellCommands,
  commandOptions,
  parseCommentCommand,
  notCommandReason,
  commentIgnoreReason,
  commentOfEvent
};
