import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  destinationAllowed,
  external_exports,
  formatDestination,
  isForbiddenAddress,
  narrowDestinations,
  scopeDestinations
} from "./chunk-VFLRCTPF.js";

// node_modules/@actions/core/lib/summary.js
import { EOL } from "os";
import { constants, promises } from "fs";
var __awaiter = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve2) {
      resolve2(value);
    });
  }
  return new (P || (P = Promise))(function(resolve2, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve2(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var { access, appendFile, writeFile } = promises;
var SUMMARY_ENV_VAR = "GITHUB_STEP_SUMMARY";
var Summary = class {
  constructor() {
    this._buffer = "";
  }
  /**
   * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
   * Also checks r/w permissions.
   *
   * @returns step summary file path
   */
  filePath() {
    return __awaiter(this, void 0, void 0, function* () {
      if (this._filePath) {
        return this._filePath;
      }
      const pathFromEnv = process.env[SUMMARY_ENV_VAR];
      if (!pathFromEnv) {
        throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
      }
      try {
        yield access(pathFromEnv, constants.R_OK | constants.W_OK);
      } catch (_a) {
        throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
      }
      this._filePath = pathFromEnv;
      return this._filePath;
    });
  }
  /**
   * Wraps content in an HTML tag, adding any HTML attributes
   *
   * @param {string} tag HTML tag to wrap
   * @param {string | null} content content within the tag
   * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
   *
   * @returns {string} content wrapped in HTML element
   */
  wrap(tag, content, attrs = {}) {
    const htmlAttrs = Object.entries(attrs).map(([key2, value]) => ` ${key2}="${value}"`).join("");
    if (!content) {
      return `<${tag}${htmlAttrs}>`;
    }
    return `<${tag}${htmlAttrs}>${content}</${tag}>`;
  }
  /**
   * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
   *
   * @param {SummaryWriteOptions} [options] (optional) options for write operation
   *
   * @returns {Promise<Summary>} summary instance
   */
  write(options) {
    return __awaiter(this, void 0, void 0, function* () {
      const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
      const filePath = yield this.filePath();
      const writeFunc = overwrite ? writeFile : appendFile;
      yield writeFunc(filePath, this._buffer, { encoding: "utf8" });
      return this.emptyBuffer();
    });
  }
  /**
   * Clears the summary buffer and wipes the summary file
   *
   * @returns {Summary} summary instance
   */
  clear() {
    return __awaiter(this, void 0, void 0, function* () {
      return this.emptyBuffer().write({ overwrite: true });
    });
  }
  /**
   * Returns the current summary buffer as a string
   *
   * @returns {string} string of summary buffer
   */
  stringify() {
    return this._buffer;
  }
  /**
   * If the summary buffer is empty
   *
   * @returns {boolen} true if the buffer is empty
   */
  isEmptyBuffer() {
    return this._buffer.length === 0;
  }
  /**
   * Resets the summary buffer without writing to summary file
   *
   * @returns {Summary} summary instance
   */
  emptyBuffer() {
    this._buffer = "";
    return this;
  }
  /**
   * Adds raw text to the summary buffer
   *
   * @param {string} text content to add
   * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
   *
   * @returns {Summary} summary instance
   */
  addRaw(text, addEOL = false) {
    this._buffer += text;
    return addEOL ? this.addEOL() : this;
  }
  /**
   * Adds the operating system-specific end-of-line marker to the buffer
   *
   * @returns {Summary} summary instance
   */
  addEOL() {
    return this.addRaw(EOL);
  }
  /**
   * Adds an HTML codeblock to the summary buffer
   *
   * @param {string} code content to render within fenced code block
   * @param {string} lang (optional) language to syntax highlight code
   *
   * @returns {Summary} summary instance
   */
  addCodeBlock(code, lang) {
    const attrs = Object.assign({}, lang && { lang });
    const element = this.wrap("pre", this.wrap("code", code), attrs);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML list to the summary buffer
   *
   * @param {string[]} items list of items to render
   * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
   *
   * @returns {Summary} summary instance
   */
  addList(items, ordered = false) {
    const tag = ordered ? "ol" : "ul";
    const listItems = items.map((item) => this.wrap("li", item)).join("");
    const element = this.wrap(tag, listItems);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML table to the summary buffer
   *
   * @param {SummaryTableCell[]} rows table rows
   *
   * @returns {Summary} summary instance
   */
  addTable(rows) {
    const tableBody = rows.map((row) => {
      const cells = row.map((cell) => {
        if (typeof cell === "string") {
          return this.wrap("td", cell);
        }
        const { header, data, colspan, rowspan } = cell;
        const tag = header ? "th" : "td";
        const attrs = Object.assign(Object.assign({}, colspan && { colspan }), rowspan && { rowspan });
        return this.wrap(tag, data, attrs);
      }).join("");
      return this.wrap("tr", cells);
    }).join("");
    const element = this.wrap("table", tableBody);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds a collapsable HTML details element to the summary buffer
   *
   * @param {string} label text for the closed state
   * @param {string} content collapsable content
   *
   * @returns {Summary} summary instance
   */
  addDetails(label, content) {
    const element = this.wrap("details", this.wrap("summary", label) + content);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML image tag to the summary buffer
   *
   * @param {string} src path to the image you to embed
   * @param {string} alt text description of the image
   * @param {SummaryImageOptions} options (optional) addition image attributes
   *
   * @returns {Summary} summary instance
   */
  addImage(src, alt, options) {
    const { width, height } = options || {};
    const attrs = Object.assign(Object.assign({}, width && { width }), height && { height });
    const element = this.wrap("img", null, Object.assign({ src, alt }, attrs));
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML section heading element
   *
   * @param {string} text heading text
   * @param {number | string} [level=1] (optional) the heading level, default: 1
   *
   * @returns {Summary} summary instance
   */
  addHeading(text, level) {
    const tag = `h${level}`;
    const allowedTag = ["h1", "h2", "h3", "h4", "h5", "h6"].includes(tag) ? tag : "h1";
    const element = this.wrap(allowedTag, text);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML thematic break (<hr>) to the summary buffer
   *
   * @returns {Summary} summary instance
   */
  addSeparator() {
    const element = this.wrap("hr", null);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML line break (<br>) to the summary buffer
   *
   * @returns {Summary} summary instance
   */
  addBreak() {
    const element = this.wrap("br", null);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML blockquote to the summary buffer
   *
   * @param {string} text quote text
   * @param {string} cite (optional) citation url
   *
   * @returns {Summary} summary instance
   */
  addQuote(text, cite) {
    const attrs = Object.assign({}, cite && { cite });
    const element = this.wrap("blockquote", text, attrs);
    return this.addRaw(element).addEOL();
  }
  /**
   * Adds an HTML anchor tag to the summary buffer
   *
   * @param {string} text link text/content
   * @param {string} href hyperlink
   *
   * @returns {Summary} summary instance
   */
  addLink(text, href) {
    const element = this.wrap("a", text, { href });
    return this.addRaw(element).addEOL();
  }
};
var _summary = new Summary();
var summary = _summary;

// node_modules/@actions/core/lib/command.js
import * as os from "os";

// node_modules/@actions/core/lib/utils.js
function toCommandValue(input) {
  if (input === null || input === void 0) {
    return "";
  } else if (typeof input === "string" || input instanceof String) {
    return input;
  }
  return JSON.stringify(input);
}
function toCommandProperties(annotationProperties) {
  if (!Object.keys(annotationProperties).length) {
    return {};
  }
  return {
    title: annotationProperties.title,
    file: annotationProperties.file,
    line: annotationProperties.startLine,
    endLine: annotationProperties.endLine,
    col: annotationProperties.startColumn,
    endColumn: annotationProperties.endColumn
  };
}

// node_modules/@actions/core/lib/command.js
function issueCommand(command, properties, message) {
  const cmd = new Command(command, properties, message);
  process.stdout.write(cmd.toString() + os.EOL);
}
function issue(name, message = "") {
  issueCommand(name, {}, message);
}
var CMD_STRING = "::";
var Command = class {
  constructor(command, properties, message) {
    if (!command) {
      command = "missing.command";
    }
    this.command = command;
    this.properties = properties;
    this.message = message;
  }
  toString() {
    let cmdStr = CMD_STRING + this.command;
    if (this.properties && Object.keys(this.properties).length > 0) {
      cmdStr += " ";
      let first = true;
      for (const key2 in this.properties) {
        if (this.properties.hasOwnProperty(key2)) {
          const val = this.properties[key2];
          if (val) {
            if (first) {
              first = false;
            } else {
              cmdStr += ",";
            }
            cmdStr += `${key2}=${escapeProperty(val)}`;
          }
        }
      }
    }
    cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
    return cmdStr;
  }
};
function escapeData(s) {
  return toCommandValue(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(s) {
  return toCommandValue(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/:/g, "%3A").replace(/,/g, "%2C");
}

// node_modules/@actions/core/lib/file-command.js
import * as crypto from "crypto";
import * as fs from "fs";
import * as os2 from "os";
function issueFileCommand(command, message) {
  const filePath = process.env[`GITHUB_${command}`];
  if (!filePath) {
    throw new Error(`Unable to find environment variable for file command ${command}`);
  }
  if (!fs.existsSync(filePath)) {
    throw new Error(`Missing file at path: ${filePath}`);
  }
  fs.appendFileSync(filePath, `${toCommandValue(message)}${os2.EOL}`, {
    encoding: "utf8"
  });
}
function prepareKeyValueMessage(key2, value) {
  const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  const convertedValue = toCommandValue(value);
  if (key2.includes(delimiter)) {
    throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
  }
  if (convertedValue.includes(delimiter)) {
    throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
  }
  return `${key2}<<${delimiter}${os2.EOL}${convertedValue}${os2.EOL}${delimiter}`;
}

// node_modules/@actions/core/lib/core.js
import * as os4 from "os";

// node_modules/@actions/core/lib/platform.js
import os3 from "os";

// node_modules/@actions/io/lib/io-util.js
import * as fs2 from "fs";
var { chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink } = fs2.promises;
var IS_WINDOWS = process.platform === "win32";
var READONLY = fs2.constants.O_RDONLY;

// node_modules/@actions/exec/lib/toolrunner.js
var IS_WINDOWS2 = process.platform === "win32";

// node_modules/@actions/core/lib/platform.js
var platform = os3.platform();
var arch = os3.arch();

// node_modules/@actions/core/lib/core.js
var __awaiter2 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve2) {
      resolve2(value);
    });
  }
  return new (P || (P = Promise))(function(resolve2, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve2(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var ExitCode;
(function(ExitCode2) {
  ExitCode2[ExitCode2["Success"] = 0] = "Success";
  ExitCode2[ExitCode2["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
function setSecret(secret) {
  issueCommand("add-mask", {}, secret);
}
function getInput(name, options) {
  const val = process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] || "";
  if (options && options.required && !val) {
    throw new Error(`Input required and not supplied: ${name}`);
  }
  if (options && options.trimWhitespace === false) {
    return val;
  }
  return val.trim();
}
function getMultilineInput(name, options) {
  const inputs = getInput(name, options).split("\n").filter((x) => x !== "");
  if (options && options.trimWhitespace === false) {
    return inputs;
  }
  return inputs.map((input) => input.trim());
}
function setOutput(name, value) {
  const filePath = process.env["GITHUB_OUTPUT"] || "";
  if (filePath) {
    return issueFileCommand("OUTPUT", prepareKeyValueMessage(name, value));
  }
  process.stdout.write(os4.EOL);
  issueCommand("set-output", { name }, toCommandValue(value));
}
function setFailed(message) {
  process.exitCode = ExitCode.Failure;
  error(message);
}
function debug(message) {
  issueCommand("debug", {}, message);
}
function error(message, properties = {}) {
  issueCommand("error", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function warning(message, properties = {}) {
  issueCommand("warning", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function notice(message, properties = {}) {
  issueCommand("notice", toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function info(message) {
  process.stdout.write(message + os4.EOL);
}
function startGroup(name) {
  issue("group", name);
}
function endGroup() {
  issue("endgroup");
}
function group(name, fn) {
  return __awaiter2(this, void 0, void 0, function* () {
    startGroup(name);
    let result;
    try {
      result = yield fn();
    } finally {
      endGroup();
    }
    return result;
  });
}

// src/repo/programs.ts
import { accessSync, constants as constants3, statSync } from "node:fs";
import path from "node:path";
var defaultPath = "/usr/bin:/bin";
function absolutePath(pathList) {
  const kept2 = (pathList ?? defaultPath).split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  return kept2.length > 0 ? [...new Set(kept2)].join(path.delimiter) : defaultPath;
}
var ProgramNotFoundError = class extends Error {
  constructor(program, searched) {
    super(
      `Cannot find the program ${program} in the absolute entries of PATH (${searched}). plangate starts programs only from absolute PATH entries, never from the working directory or a relative entry: install ${program} or add its folder to PATH as an absolute path.`
    );
    this.program = program;
  }
  program;
  name = "ProgramNotFoundError";
  code = "ENOENT";
};
function findPrograms(pathList = process.env.PATH) {
  const searched = absolutePath(pathList);
  const found = /* @__PURE__ */ new Map();
  return {
    path: searched,
    find(name) {
      if (path.isAbsolute(name)) return name;
      const known = found.get(name);
      if (known !== void 0) return known;
      const file = lookUp(name, searched);
      if (file === void 0) throw new ProgramNotFoundError(name, searched);
      found.set(name, file);
      return file;
    }
  };
}
function lookUp(name, pathList) {
  if (name === "" || name.includes("/")) return void 0;
  for (const dir of absolutePath(pathList).split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants3.X_OK);
      return candidate;
    } catch {
    }
  }
  return void 0;
}
var processPrograms;
function defaultPrograms() {
  return processPrograms ??= findPrograms(process.env.PATH);
}

// src/tools/account-sandbox.ts
import os6 from "node:os";

// src/tools/run-helper.ts
import { execFile } from "node:child_process";
function locate(programs, name) {
  try {
    return programs.find(name);
  } catch (error2) {
    throw { code: "ENOENT", detail: error2 instanceof Error ? error2.message : String(error2) };
  }
}
function run(programs, name, args) {
  return new Promise((resolve2, reject) => {
    const file = locate(programs, name);
    execFile(
      file,
      args,
      {
        cwd: "/",
        env: { PATH: programs.path },
        encoding: "utf8",
        timeout: 12e4,
        maxBuffer: 16 * 1024 * 1024
      },
      (error2, stdout, stderr) => {
        if (error2 === null) {
          resolve2({ stdout });
          return;
        }
        const code = error2.code ?? null;
        reject({ code, detail: stderr.trim() || error2.message });
      }
    );
  });
}
function helperPrograms(deps) {
  return deps.programs ?? defaultPrograms();
}

// src/tools/sandbox-types.ts
var defaultSandboxAccount = "plangate-sandbox";
var SandboxError = class extends Error {
  name = "SandboxError";
};

// src/tools/account-switch.ts
async function probeAccountSwitch(deps = {}) {
  if (deps.isRoot ?? process.getuid?.() === 0) return { kind: "root" };
  const sudo = deps.sudo ?? "sudo";
  try {
    await run(helperPrograms(deps), sudo, ["-n", "true"]);
    return { kind: "sudo" };
  } catch (error2) {
    const failure = error2;
    const why = failure.code === "ENOENT" ? "sudo is not installed" : `sudo -n refused (${failure.detail})`;
    return { kind: "impossible", cause: `the action does not run as root and cannot use passwordless sudo: ${why}` };
  }
}
function isolationImpossible(cause2) {
  return `Commands cannot run here: ${cause2}. plangate runs commands and MCP servers under a separate account, so they cannot read its token and API keys, and this runner allows no account switch. Nothing was run. Run the job as root or with passwordless sudo (as GitHub-hosted runners do), or set the input \`command-isolation: none\` to run them as the action's own user, where they can read its secrets.`;
}
async function asRoot(h, file, args, how) {
  return how === "root" ? run(h.programs, file, args) : run(h.programs, h.sudo, ["-n", locate(h.programs, file), ...args]);
}
async function asAccount(h, p, argv) {
  const [name = "", ...args] = argv;
  const program = [locate(h.programs, name), ...args];
  return p.how === "root" ? run(h.programs, "setpriv", [...setprivArgs(p.identity), ...program]) : run(h.programs, h.sudo, ["-n", "-u", p.identity.user, "--", ...program]);
}
function setprivArgs(identity) {
  return ["--reuid", String(identity.uid), "--regid", String(identity.gid), "--clear-groups", "--"];
}
function sudoPlan(user, env, argv, secretNames = [], programs = defaultPrograms()) {
  if ((argv[0] ?? "").includes("="))
    throw new SandboxError(
      `Cannot run ${JSON.stringify(argv[0])} as another account: program names may not contain "=".`
    );
  const envProgram = launcher(programs, "env");
  const pathList = programs.path;
  const secret = new Set(secretNames);
  const assignments = Object.entries(env).filter((entry) => entry[1] !== void 0 && !secret.has(entry[0])).map(([name, value]) => `${name}=${value}`);
  const secrets = Object.fromEntries(
    secretNames.flatMap((name) => env[name] === void 0 ? [] : [[name, env[name]]])
  );
  if (Object.keys(secrets).length === 0) {
    return {
      args: ["-n", "-u", user, "--", envProgram, "-i", ...assignments, ...argv],
      env: { PATH: pathList },
      wrapped: true
    };
  }
  return {
    args: [
      "-n",
      `--preserve-env=${Object.keys(secrets).join(",")}`,
      "-u",
      user,
      "--",
      envProgram,
      ...assignments,
      ...argv
    ],
    env: { PATH: pathList, ...secrets },
    wrapped: true
  };
}
function launcher(programs, name) {
  try {
    return programs.find(name);
  } catch (error2) {
    throw new SandboxError(error2 instanceof Error ? error2.message : String(error2));
  }
}
function missingProgram(plan, exitCode, output) {
  return plan.wrapped && exitCode === 127 && saysProgramMissing(output);
}
function saysProgramMissing(output) {
  return /^((?:\/\S*\/)?env: .*|(?:\/\S*\/)?setpriv: failed to execute .*|plangate network bridge: failed to execute .*)No such file or directory/m.test(
    output
  );
}

// src/tools/account-in-use.ts
import { lstat as lstat2, readdir as readdir2 } from "node:fs/promises";
import path2 from "node:path";

// src/repo/temp-folders.ts
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
function tempFolderPrefix(kind) {
  return `${kind === "work" ? "plangate-" : "plangate-sandbox-"}${process.pid}-${ownStart()}-`;
}
var tempFolderName = /^plangate-(sandbox-)?([1-9]\d*)-(\d+)-[A-Za-z0-9]{6}$/;
function parseTempFolder(name) {
  const match = tempFolderName.exec(name);
  return match ? { kind: match[1] ? "sandbox" : "work", pid: Number(match[2]), start: Number(match[3]) } : void 0;
}
async function makerRunning({ pid, start }) {
  try {
    process.kill(pid, 0);
  } catch (error2) {
    if (error2.code !== "EPERM") return false;
  }
  if (start === 0) return true;
  const started = await processStart(pid);
  return started === void 0 || started === start;
}
var own;
function ownStart() {
  if (own === void 0) {
    try {
      own = parseStart(readFileSync("/proc/self/stat", "utf8")) ?? 0;
    } catch {
      own = 0;
    }
  }
  return own;
}
async function processStart(pid) {
  return parseStart(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => void 0));
}
function parseStart(stat3) {
  if (stat3 === void 0) return void 0;
  const ticks = Number(stat3.slice(stat3.lastIndexOf(")") + 2).split(" ")[19]);
  return Number.isSafeInteger(ticks) && ticks > 0 ? ticks : void 0;
}

// src/tools/account-in-use.ts
async function accountUsedBy(p, tmpDir) {
  let names;
  try {
    names = await readdir2(tmpDir);
  } catch (error2) {
    throw new SandboxError(
      `Cannot list the temp dir ${tmpDir} to check that no other plangate job on this machine uses command-user ${p.identity.user} (${error2.code ?? String(error2)}). Let the runner's user list it, or set TMPDIR to a folder it can.`
    );
  }
  for (const name of names) {
    const made = parseTempFolder(name);
    if (made?.kind !== "sandbox" || made.pid === process.pid) continue;
    const folder = path2.join(tmpDir, name);
    const stat3 = await lstat2(folder).catch(() => void 0);
    if (!stat3?.isDirectory() || stat3.uid === p.identity.uid) continue;
    const home = await lstat2(path2.join(folder, "home")).catch(() => void 0);
    if (home?.uid === p.identity.uid && await makerRunning(made)) return made.pid;
  }
  return void 0;
}

// src/tools/account-leftovers.ts
import { lstat as lstat3, readdir as readdir3 } from "node:fs/promises";
import path4 from "node:path";

// src/tools/toolchain-access.ts
import { readFile as readFile2, realpath, stat as stat2, writeFile as writeFile2 } from "node:fs/promises";
import path3 from "node:path";
var LEDGER = "path-grants.json";
var ledgerSchema = external_exports.object({
  uid: external_exports.number().int().positive(),
  folders: external_exports.array(external_exports.string().startsWith("/").max(4096)).max(1e4)
});
var MAX_ROUNDS = 16;
async function openToolchains(h, p, pathList, keepClosed = []) {
  const chains = await chainsOf(pathList);
  const granted = [];
  let cause2;
  let failing = await closedLinks(h, p, chains);
  for (let round = 0; round < MAX_ROUNDS && failing.size > 0; round++) {
    const next = /* @__PURE__ */ new Map();
    for (const chain of chains) {
      const first = chain.find((l) => failing.has(l.folder));
      if (!first || granted.includes(first.folder)) continue;
      const guarded = keepClosed.find((place) => place === first.folder || place.startsWith(`${first.folder}/`));
      if (guarded === void 0) next.set(first.folder, first.need);
      else
        cause2 ??= `passage through ${first.folder} would let it reach ${guarded}, which holds the runner's checkout or its temporary files, credentials among them`;
    }
    if (next.size === 0) break;
    try {
      await recordGrants(p, [...granted, ...next.keys()]);
      await grant(h, p, next);
      granted.push(...next.keys());
    } catch (error2) {
      cause2 = grantFailure(error2);
      break;
    }
    failing = await closedLinks(h, p, chains);
  }
  const unreachable = chains.filter((chain) => chain.some((l) => failing.has(l.folder))).map((chain) => chain[chain.length - 1]?.folder ?? "");
  if (unreachable.length > 0) cause2 ??= "ACL entries were granted but the account still cannot pass";
  return { granted, unreachable: [...new Set(unreachable)], ...unreachable.length > 0 ? { cause: cause2 } : {} };
}
async function closeToolchains(h, p, folders) {
  for (const folder of folders) {
    const entry = `u:${p.identity.uid}`;
    await asRoot(h, "setfacl", ["-x", `${entry},m::`, "--", folder], p.how).catch(() => asRoot(h, "setfacl", ["-x", entry, "--", folder], p.how)).catch(() => void 0);
  }
}
async function revokeLeftoverGrants(h, p, dir) {
  const text = await readFile2(path3.join(dir, LEDGER), "utf8").catch(() => void 0);
  if (text === void 0) return;
  let parsed;
  try {
    parsed = ledgerSchema.parse(JSON.parse(text));
  } catch {
    return;
  }
  if (parsed.uid === p.identity.uid) await closeToolchains(h, p, parsed.folders);
}
function outOfReachText(access2, program, pathList, account) {
  const file = program.includes("/") ? program : lookUp(program, pathList);
  const folder = file === void 0 ? void 0 : access2.unreachable.find((f) => file.startsWith(`${f}/`));
  if (folder === void 0) return void 0;
  return `${program} is in ${folder}, which the command account ${account} cannot reach (${access2.cause ?? "closed to it"}). Install the toolchain where other accounts can pass (a tool cache outside the runner's home and work folder, or chmod o+x on the folders above it), or, where setfacl is missing, the acl package, so plangate can let the account through for the run.`;
}
async function chainsOf(pathList) {
  const folders = /* @__PURE__ */ new Set();
  for (const entry of pathList.split(path3.delimiter)) {
    if (!path3.isAbsolute(entry) || entry.includes("\n")) continue;
    const info2 = await stat2(entry).catch(() => void 0);
    if (!info2?.isDirectory()) continue;
    folders.add(path3.resolve(entry));
    folders.add(await realpath(entry).catch(() => path3.resolve(entry)));
  }
  return [...folders].map((folder) => {
    const parts = folder.split("/").filter(Boolean);
    return parts.map((_, i) => ({
      folder: `/${parts.slice(0, i + 1).join("/")}`,
      need: i === parts.length - 1 ? "rx" : "x"
    }));
  });
}
async function closedLinks(h, p, chains) {
  const links = /* @__PURE__ */ new Map();
  for (const chain of chains)
    for (const l of chain) links.set(l.folder, l.need === "rx" ? "rx" : links.get(l.folder) ?? "x");
  if (links.size === 0) return /* @__PURE__ */ new Set();
  const script = 'while [ $# -gt 1 ]; do n=$1; d=$2; shift 2; if [ "$n" = rx ]; then { [ -r "$d" ] && [ -x "$d" ]; } || printf "%s\\n" "$d"; else [ -x "$d" ] || printf "%s\\n" "$d"; fi; done';
  const args = [...links].flatMap(([folder, need]) => [need, folder]);
  try {
    const { stdout } = await asAccount(h, p, ["sh", "-c", script, "sh", ...args]);
    return new Set(stdout.split("\n").filter((line) => links.has(line)));
  } catch {
    return /* @__PURE__ */ new Set();
  }
}
async function recordGrants(p, folders) {
  const ledger = { uid: p.identity.uid, folders };
  await writeFile2(path3.join(p.dir, LEDGER), JSON.stringify(ledger), { mode: 384 });
}
async function grant(h, p, next) {
  locate(h.programs, "setfacl");
  for (const need of ["x", "rx"]) {
    const folders = [...next].filter(([, n]) => n === need).map(([folder]) => folder);
    const perms = need === "x" ? "--x" : "r-x";
    if (folders.length > 0) await asRoot(h, "setfacl", ["-m", `u:${p.identity.uid}:${perms}`, "--", ...folders], p.how);
  }
}
function grantFailure(error2) {
  const failure = error2;
  if (failure.code === "ENOENT") return "setfacl is not installed";
  return `setfacl failed: ${failure.detail ?? (error2 instanceof Error ? error2.message : String(error2))}`;
}

// src/tools/account-leftovers.ts
async function removeLeftovers(h, p, tmpDir) {
  try {
    const dead = [];
    for (const name of await readdir3(tmpDir)) {
      const made = parseTempFolder(name);
      const folder = path4.join(tmpDir, name);
      if (made === void 0 || await makerRunning(made)) continue;
      if (!await madeForAccount(folder, made.kind, p)) continue;
      if (made.kind === "sandbox") await revokeLeftoverGrants(h, p, folder);
      dead.push(folder);
    }
    if (dead.length > 0) await asRoot(h, "rm", ["-rf", "--", ...dead], p.how);
  } catch {
  }
}
async function madeForAccount(folder, kind, p) {
  const stat3 = await lstat3(folder).catch(() => void 0);
  if (!stat3?.isDirectory() || stat3.uid !== process.getuid?.()) return false;
  if (kind === "sandbox")
    return (await lstat3(path4.join(folder, "home")).catch(() => void 0))?.uid === p.identity.uid;
  return stat3.gid === p.identity.gid || stat3.gid === process.getgid?.();
}

// src/tools/account-temp-files.ts
import { existsSync as existsSync2, realpathSync } from "node:fs";
var sharedPlaces = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue"];
var REMOVE = 'chmod="$1"; rm="$2"; shift 2; "$chmod" -R u+rwX -- "$@" 2>/dev/null; "$rm" -rf -- "$@"';
async function removeAccountTempFiles(h, p, tmpDir, spared2) {
  try {
    const roots = [...new Set([tmpDir, ...sharedPlaces].filter((place) => existsSync2(place)).map(realPath))];
    if (roots.length === 0) return;
    const pruned = spared2.flatMap((folder, i) => [...i > 0 ? ["-o"] : [], "-path", literal(realPath(folder))]);
    await asAccount(h, p, [
      "find",
      ...roots,
      "-xdev",
      "-mindepth",
      "1",
      ...pruned.length > 0 ? ["(", ...pruned, ")", "-prune", "-o"] : [],
      // What the account owns is removed whole (so not searched further); elsewhere find looks deeper.
      "-user",
      String(p.identity.uid),
      "-prune",
      "-exec",
      "/bin/sh",
      "-c",
      REMOVE,
      "remove",
      h.programs.find("chmod"),
      h.programs.find("rm"),
      "{}",
      "+"
    ]);
  } catch {
  }
}
function realPath(folder) {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}
function literal(path7) {
  return path7.replace(/[\\*?[\]]/g, "\\$&");
}

// src/tools/account-prepare.ts
import { chmod as chmod2, chown, mkdir as mkdir2, mkdtemp, rm as rm2 } from "node:fs/promises";
import os5 from "node:os";
import path5 from "node:path";

// src/tools/account-database.ts
import { readFile as readFile3 } from "node:fs/promises";
async function accountEntries(database, keys, programs) {
  let text;
  try {
    text = (await run(programs, "getent", [database, ...keys])).stdout;
  } catch (error2) {
    const failure = error2;
    if (failure.code === 2) return [];
    if (failure.code !== "ENOENT") {
      const what = keys.length > 0 ? `the ${database} entry of ${keys.join(", ")}` : `the ${database} entries`;
      throw new SandboxError(`Cannot look up ${what}: ${failure.detail}`);
    }
    const local = await readFile3(`/etc/${database}`, "utf8").catch(() => "");
    const lines = local.split("\n").filter((line) => line !== "");
    const wanted = (fields) => keys.some((key2) => key2 === fields[0] || /^\d+$/.test(key2) && key2 === fields[2]);
    text = (keys.length > 0 ? lines.filter((line) => wanted(line.split(":"))) : lines).join("\n");
  }
  return text.split("\n").filter((line) => line !== "").map((line) => line.split(":"));
}

// src/tools/account-group.ts
var namesShown = 5;
async function refuseSharedGroup(identity, programs) {
  const gid = String(identity.gid);
  const others = /* @__PURE__ */ new Set();
  for (const [user = "", , , primary] of await accountEntries("passwd", [], programs)) {
    if (primary === gid && user !== identity.user && user !== "") others.add(user);
  }
  for (const [, , id, members = ""] of await accountEntries("group", [gid], programs)) {
    if (id !== gid) continue;
    for (const member of members.split(",")) if (member !== "" && member !== identity.user) others.add(member);
  }
  if (others.size === 0) return;
  const names = [...others].sort();
  const shown = names.slice(0, namesShown).join(", ");
  const more = names.length > namesShown ? ` and ${names.length - namesShown} more` : "";
  throw new SandboxError(
    `command-user ${identity.user} shares its group (gid ${gid}) with ${shown}${more}, who could read the work tree lent to it. Give ${identity.user} a group of its own, as plangate does for the accounts it creates.`
  );
}

// src/tools/account-prepare.ts
var accountNameSchema = external_exports.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/i, "must be a user name of at most 32 characters");
var passwdEntrySchema = external_exports.object({
  user: external_exports.string().min(1),
  uid: external_exports.coerce.number().int().nonnegative(),
  gid: external_exports.coerce.number().int().nonnegative()
});
async function prepareAccount(name, deps, h) {
  const parsed = accountNameSchema.safeParse(name);
  if (!parsed.success) throw new SandboxError(`command-user ${JSON.stringify(name)} is not a valid account name.`);
  const allowed = await probeAccountSwitch(deps);
  if (allowed.kind === "impossible") throw new SandboxError(isolationImpossible(allowed.cause));
  const how = allowed.kind;
  const identity = await lookUpAccount(name, h.programs) ?? await createAccount(h, name, how);
  if (identity.uid === 0)
    throw new SandboxError(
      `command-user ${name} is root (uid 0); name an unprivileged account that exists only to run plangate's commands.`
    );
  if (identity.uid === process.getuid?.()) {
    throw new SandboxError(
      `command-user ${name} is the action's own user; its commands would see everything the action sees. Name a separate unprivileged account.`
    );
  }
  await refuseSharedGroup(identity, h.programs);
  const dir = await mkdtemp(path5.join(deps.tmpDir ?? os5.tmpdir(), tempFolderPrefix("sandbox")));
  await chmod2(dir, 457);
  const home = path5.join(dir, "home");
  const tmp = path5.join(dir, "tmp");
  await mkdir2(home, { mode: 448 });
  await mkdir2(tmp, { mode: 448 });
  const owner = `${identity.uid}:${identity.gid}`;
  try {
    if (how === "root")
      await Promise.all([chown(home, identity.uid, identity.gid), chown(tmp, identity.uid, identity.gid)]);
    else await asRoot(h, "chown", [owner, "--", home, tmp], how);
    if (how === "sudo") {
      const id = locate(h.programs, "id");
      const answer2 = (await run(h.programs, h.sudo, ["-n", "-u", name, "--", id, "-u"])).stdout.trim();
      if (answer2 !== String(identity.uid))
        throw new SandboxError(
          `sudo ran a check as command-user ${name} with uid ${JSON.stringify(answer2)}, not ${identity.uid}.`
        );
    }
  } catch (error2) {
    await rm2(dir, { recursive: true, force: true }).catch(() => void 0);
    if (error2 instanceof SandboxError) throw error2;
    throw new SandboxError(`Cannot prepare command-user ${name}: ${error2.detail ?? String(error2)}.`);
  }
  return { identity, how, dir, home, tmp };
}
async function createAccount(h, account, how) {
  const args = [
    "--system",
    "--user-group",
    "--no-create-home",
    "--home-dir",
    "/nonexistent",
    "--shell",
    "/usr/sbin/nologin",
    account
  ];
  try {
    await asRoot(h, findUseradd(h.programs), args, how);
  } catch (error2) {
    const failure = error2;
    if (failure.code !== 9) {
      throw new SandboxError(
        `Cannot create the account ${account} that commands run as (useradd: ${failure.detail}). Create it yourself and name it in command-user.`
      );
    }
  }
  const identity = await lookUpAccount(account, h.programs);
  if (!identity) throw new SandboxError(`The account ${account} was created but cannot be looked up.`);
  return identity;
}
async function lookUpAccount(user, programs = defaultPrograms()) {
  const [fields = []] = await accountEntries("passwd", [user], programs);
  const parsed = passwdEntrySchema.safeParse({ user: fields[0], uid: fields[2], gid: fields[3] });
  return parsed.success && parsed.data.user === user ? parsed.data : void 0;
}
function findUseradd(programs) {
  return lookUp("useradd", programs.path) ?? lookUp("useradd", "/usr/sbin:/sbin") ?? "useradd";
}

// src/tools/account-processes.ts
import { readdir as readdir4, readFile as readFile4 } from "node:fs/promises";
var KILL_ALL = ["/bin/sh", "-c", "kill -s KILL -- -1"];
var KILL_LISTED = ["/bin/sh", "-c", 'kill -s KILL -- "$@" 2>/dev/null; exit 0', "sweep"];
async function sweepAccount(h, p, kept2) {
  try {
    if (kept2.size === 0) {
      await asAccount(h, p, KILL_ALL);
      return;
    }
    for (let pass = 0; pass < 10; pass += 1) {
      const targets = await strayProcesses(p.identity.uid, kept2);
      if (targets.length === 0) return;
      await asAccount(h, p, [...KILL_LISTED, ...targets.map(String)]);
    }
  } catch {
  }
}
async function strayProcesses(uid, keptRoots) {
  const entries = (await readdir4("/proc")).filter((entry) => /^\d+$/.test(entry));
  const children = /* @__PURE__ */ new Map();
  const ofAccount = [];
  await Promise.all(
    entries.map(async (entry) => {
      const status = await readFile4(`/proc/${entry}/status`, "utf8").catch(() => "");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const realUid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const pid = Number(entry);
      children.set(ppid, [...children.get(ppid) ?? [], pid]);
      if (realUid === uid) ofAccount.push(pid);
    })
  );
  const spared2 = /* @__PURE__ */ new Set();
  const queue = [...keptRoots];
  while (queue.length > 0) {
    const pid = queue.pop();
    if (spared2.has(pid)) continue;
    spared2.add(pid);
    queue.push(...children.get(pid) ?? []);
  }
  return ofAccount.filter((pid) => !spared2.has(pid));
}

// src/tools/work-tree-loan.ts
import { chmod as chmod3, chown as chown2 } from "node:fs/promises";
async function openEnclosure(h, p, enclosure) {
  try {
    if (p.how === "root") await chown2(enclosure, process.getuid?.() ?? 0, p.identity.gid);
    else await asRoot(h, "chgrp", [String(p.identity.gid), "--", enclosure], "sudo");
    await chmod3(enclosure, 456);
  } catch (error2) {
    const detail = error2.detail ?? (error2 instanceof Error ? error2.message : String(error2));
    throw new SandboxError(`Cannot let ${p.identity.user} reach the work tree: ${detail}.`);
  }
}
async function lendWorkTree(h, p, workTree) {
  const owner = `${p.identity.uid}:${p.identity.gid}`;
  try {
    await asRoot(h, "chown", ["-R", "-h", owner, "--", workTree], p.how);
  } catch (error2) {
    throw new SandboxError(
      `Cannot hand the work tree to ${p.identity.user}: ${error2.detail ?? String(error2)}.`
    );
  }
}
async function takeBackWorkTree(h, p, workTree) {
  const owner = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  if (p.how === "root") {
    await run(h.programs, "chown", ["-R", "-h", owner, "--", workTree]);
  } else {
    await asRoot(h, "chown", ["-R", "-h", owner, "--", workTree], "sudo");
    await run(h.programs, "chmod", ["-R", "u+rwX", "--", workTree]);
  }
}

// src/tools/account-sandbox.ts
function accountSandbox(options) {
  const deps = options.deps ?? {};
  const h = { sudo: deps.sudo ?? "sudo", programs: helperPrograms(deps) };
  const name = options.account || defaultSandboxAccount;
  const kept2 = /* @__PURE__ */ new Set();
  let preparing;
  let prepared;
  let closed = false;
  const refuseWhenClosed = () => {
    if (closed) throw new SandboxError("The sandbox is closed: the run is ending, and nothing more starts.");
  };
  async function ensure() {
    preparing ??= readyAccount(name, deps, h, kept2, options).then((p) => prepared = p);
    return preparing;
  }
  const sweep = async () => prepared ? sweepAccount(h, prepared, kept2) : void 0;
  return {
    account: name,
    workTree: options.workTree,
    async ready() {
      await ensure();
    },
    async refusal() {
      const allowed = await probeAccountSwitch(deps);
      return allowed.kind === "impossible" ? allowed.cause : void 0;
    },
    plan(argv, env, secretNames = []) {
      refuseWhenClosed();
      const p = prepared;
      if (!p) throw new SandboxError("The sandbox is not ready; call ready() first.");
      const full = {
        ...env,
        // setpriv and env look the program up on it, in the work tree: absolute entries only.
        PATH: absolutePath(env.PATH ?? h.programs.path),
        HOME: p.home,
        TMPDIR: p.tmp,
        TMP: p.tmp,
        TEMP: p.tmp,
        USER: p.identity.user,
        LOGNAME: p.identity.user
      };
      if (p.how === "root") {
        const setpriv = launcher(h.programs, "setpriv");
        return { file: setpriv, args: [...setprivArgs(p.identity), ...argv], env: full, wrapped: true };
      }
      return { ...sudoPlan(p.identity.user, full, argv, secretNames, h.programs), file: launcher(h.programs, h.sudo) };
    },
    async lend(work) {
      const p = await ensure();
      refuseWhenClosed();
      await lendWorkTree(h, p, options.workTree);
      try {
        return await work();
      } finally {
        await sweep();
        await takeBackWorkTree(h, p, options.workTree);
      }
    },
    sweep,
    programOutOfReach: (program) => prepared && outOfReachText(prepared.access, program, h.programs.path, prepared.identity.user),
    refusedSince: () => Promise.resolve([]),
    limitNetwork: () => void 0,
    keep(pid) {
      kept2.add(pid);
      return () => kept2.delete(pid);
    },
    async close() {
      closed = true;
      const p = prepared;
      if (!p) return;
      kept2.clear();
      await sweep();
      await takeBackWorkTree(h, p, options.workTree).catch(() => void 0);
      await closeToolchains(h, p, p.access.granted);
      await removeAccountFolder(h, p);
      await removeAccountTempFiles(h, p, deps.tmpDir ?? os6.tmpdir(), spared(options.enclosure));
    }
  };
}
async function readyAccount(name, deps, h, kept2, { enclosure, keepClosed }) {
  const p = await prepareAccount(name, deps, h);
  const tmpDir = deps.tmpDir ?? os6.tmpdir();
  try {
    const other = await accountUsedBy(p, tmpDir);
    if (other !== void 0)
      throw new SandboxError(
        `command-user ${name} is in use by another plangate job on this machine (process ${other}). Jobs that run at the same time on one machine must each name their own command-user: under a shared one, each job's commands could read the other's files and would end its commands.`
      );
    await sweepAccount(h, p, kept2);
    await removeLeftovers(h, p, tmpDir);
    await removeAccountTempFiles(h, p, tmpDir, [p.dir, ...spared(enclosure)]);
    if (enclosure !== void 0) await openEnclosure(h, p, enclosure);
  } catch (error2) {
    await removeAccountFolder(h, p);
    throw error2;
  }
  return { ...p, access: await openToolchains(h, p, h.programs.path, keepClosed) };
}
function spared(enclosure) {
  return enclosure === void 0 ? [] : [enclosure];
}
async function removeAccountFolder(h, p) {
  try {
    await asRoot(h, "rm", ["-rf", "--", p.dir], p.how);
  } catch {
  }
}

// src/tools/egress-proxy.ts
import { createServer } from "node:http";
import { isIP as isIP2 } from "node:net";

// src/tools/egress-forward.ts
import { request } from "node:http";

// src/tools/egress-vetting.ts
import { lookup as systemLookup } from "node:dns/promises";
import { connect, isIP } from "node:net";
var systemEgressLookup = (host) => systemLookup(host, { all: true });
var CONNECT_TIMEOUT_MS = 15e3;
var CLOSED_TO_ALL = "a link-local or cloud metadata address, closed whatever allowed-domains says";
async function reach(context, host, port) {
  const where = formatDestination({ host, port });
  const refused = (reason) => {
    context.refuse(host, port, reason);
    return { status: 403, message: `plangate's egress proxy refused ${where}: ${reason}.
` };
  };
  if (isIP(host) !== 0 && isForbiddenAddress(host)) return refused(CLOSED_TO_ALL);
  if (!destinationAllowed(context.destinations, host, port)) return refused("not allowed for this run");
  const resolved = isIP(host) !== 0 ? [host] : await resolve(context.lookup, host);
  if (typeof resolved === "string") {
    return { status: 502, message: `plangate's egress proxy could not resolve ${host}: ${resolved}.
` };
  }
  const closedTo = resolved.find(isForbiddenAddress);
  if (closedTo !== void 0) return refused(`resolves to ${closedTo}, ${CLOSED_TO_ALL}`);
  if (context.closed()) return { status: 503, message: `plangate's egress proxy is closing.
` };
  try {
    return { socket: await openUpstream(context, resolved, port) };
  } catch (error2) {
    return { status: 502, message: `plangate's egress proxy could not connect to ${where}: ${cause(error2)}.
` };
  }
}
async function resolve(lookup, host) {
  try {
    const addresses = (await lookup(host)).map((a) => a.address);
    return addresses.length > 0 ? addresses : "no address";
  } catch (error2) {
    return cause(error2);
  }
}
async function openUpstream(context, addresses, port) {
  let last = new Error("no address");
  for (const address of addresses) {
    if (context.closed()) break;
    try {
      const socket = await connectTo(context, address, port);
      if (!context.closed()) return socket;
      socket.destroy();
    } catch (error2) {
      last = error2;
    }
  }
  throw context.closed() ? new Error("the proxy is closing") : last;
}
function connectTo(context, address, port) {
  return new Promise((resolve2, reject) => {
    const socket = connect({ host: address, port, allowHalfOpen: true });
    socket.on("error", () => {
    });
    context.track(socket);
    socket.setTimeout(
      CONNECT_TIMEOUT_MS,
      () => socket.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" }))
    );
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("closed")));
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.off("error", reject);
      resolve2(socket);
    });
  });
}
function cause(error2) {
  const code = error2?.code;
  if (typeof code === "string") return code;
  return error2 instanceof Error ? error2.message : String(error2);
}

// src/tools/egress-forward.ts
var HOP_BY_HOP = /* @__PURE__ */ new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect"
]);
async function forwardRequest(context, req, res) {
  const target = requestTarget(req.url);
  if (!target) {
    answer(res, 400, `plangate's egress proxy forwards absolute http:// URLs and CONNECT tunnels only.
`);
    return;
  }
  const reached = await reach(context, target.host, target.port);
  if ("status" in reached) {
    answer(res, reached.status, reached.message);
    return;
  }
  const upstreamSocket = reached.socket;
  if (req.destroyed) {
    upstreamSocket.destroy();
    return;
  }
  const headers = [...kept(req.rawHeaders, ["host"]), "Host", target.authority, "Connection", "close"];
  if (req.headers["transfer-encoding"] !== void 0) headers.push("Transfer-Encoding", "chunked");
  const upstream = request({
    createConnection: () => upstreamSocket,
    method: req.method,
    path: target.path,
    headers,
    setHost: false
  });
  upstream.setTimeout(context.idleTimeoutMs, () => upstream.destroy(new Error("idle")));
  upstream.on("response", (incoming) => {
    res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, kept(incoming.rawHeaders, []));
    incoming.pipe(res);
    incoming.on("error", () => res.destroy());
  });
  upstream.on("error", (error2) => {
    if (res.headersSent) res.destroy();
    else answer(res, 502, `plangate's egress proxy lost ${target.authority}: ${error2.message}.
`);
  });
  res.on("close", () => upstreamSocket.destroy());
  req.on("error", () => upstream.destroy());
  req.pipe(upstream);
}
function answer(res, status, message) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(message)
  });
  res.end(message);
}
function requestTarget(raw) {
  const parts = /^http:\/\/([^/?#\\@]+)([/?][^#]*)?$/i.exec(raw ?? "");
  if (!parts) return void 0;
  let url;
  try {
    url = new URL(raw ?? "");
  } catch {
    return void 0;
  }
  if (url.hostname === "") return void 0;
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const path7 = parts[2] ?? "/";
  return {
    host,
    port: url.port === "" ? 80 : Number(url.port),
    authority: url.host,
    path: path7.startsWith("?") ? `/${path7}` : path7
  };
}
function kept(raw, dropped) {
  const named = new Set(dropped);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== "connection") continue;
    for (const name of (raw[i + 1] ?? "").split(",")) named.add(name.trim().toLowerCase());
  }
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower.startsWith("proxy-") || named.has(lower)) continue;
    out.push(name, raw[i + 1] ?? "");
  }
  return out;
}

// src/tools/egress-proxy.ts
var MAX_REFUSALS = 1e4;
async function startEgressProxy(options) {
  const maxConnections = options.maxConnections ?? 256;
  const sockets = /* @__PURE__ */ new Set();
  const refused = [];
  let closed = false;
  const context = {
    destinations: options.destinations,
    lookup: options.lookup ?? systemEgressLookup,
    idleTimeoutMs: options.idleTimeoutMs ?? 10 * 6e4,
    track(socket) {
      if (closed) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    },
    closed: () => closed,
    refuse(host, port, reason) {
      if (refused.length < MAX_REFUSALS) refused.push({ host, port, reason, at: Date.now() });
    }
  };
  const server = createServer({ requestTimeout: 0 });
  server.maxConnections = maxConnections;
  server.timeout = context.idleTimeoutMs;
  server.on("connection", (socket) => context.track(socket));
  server.on("connect", (req, socket, head) => void openTunnel(context, req.url, socket, head));
  server.on("request", (req, res) => {
    if (sockets.size >= 2 * maxConnections) {
      answer(res, 503, `plangate's egress proxy has too many connections open.
`);
      return;
    }
    void forwardRequest(context, req, res);
  });
  await new Promise((resolve2, reject) => {
    server.once("error", reject);
    const listening = () => {
      server.off("error", reject);
      resolve2();
    };
    if (options.socketPath !== void 0) server.listen(options.socketPath, listening);
    else server.listen(0, "127.0.0.1", listening);
  });
  const url = options.socketPath !== void 0 ? `unix:${options.socketPath}` : `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    refusals: () => refused.map((r) => ({ ...r })),
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Promise((resolve2) => server.close(() => resolve2()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    }
  };
}
async function openTunnel(context, target, client, head) {
  client.on("error", () => client.destroy());
  const parsed = connectTarget(target);
  if (!parsed) {
    refuseTunnel(client, 400, `plangate's egress proxy expects CONNECT host:port.
`);
    return;
  }
  const reached = await reach(context, parsed.host, parsed.port);
  if ("status" in reached) {
    refuseTunnel(client, reached.status, reached.message);
    return;
  }
  const upstream = reached.socket;
  if (client.destroyed) {
    upstream.destroy();
    return;
  }
  client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
  if (head.length > 0) upstream.write(head);
  for (const socket of [client, upstream]) {
    socket.setTimeout(context.idleTimeoutMs, () => {
      client.destroy();
      upstream.destroy();
    });
  }
  client.pipe(upstream);
  upstream.pipe(client);
  client.once("close", () => upstream.end(() => upstream.destroy()));
  upstream.once("close", () => client.end(() => client.destroy()));
}
function refuseTunnel(client, status, message) {
  const reason = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway", 503: "Service Unavailable" }[status];
  client.end(
    `HTTP/1.1 ${status} ${reason ?? "Error"}\r
Content-Type: text/plain; charset=utf-8\r
Content-Length: ${Buffer.byteLength(message)}\r
Connection: close\r
\r
${message}`
  );
}
function connectTarget(target) {
  const parts = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+)):(\d{1,5})$/i.exec(target ?? "");
  if (!parts) return void 0;
  const port = Number(parts[3]);
  const v6 = parts[1]?.toLowerCase();
  if (v6 !== void 0 && isIP2(v6) !== 6) return void 0;
  const host = v6 ?? (parts[2] ?? "").toLowerCase();
  return port >= 1 && port <= 65535 ? { host, port } : void 0;
}

// src/tools/network-rules.ts
import { spawn } from "node:child_process";
function findNft(h) {
  return lookUp("nft", h.programs.path);
}
function ruleset(table, uid) {
  const t = `inet ${table}`;
  return [
    `add table ${t} { flags owner; }`,
    `add set ${t} ports4 { type ipv4_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} ports6 { type ipv6_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} other4 { type ipv4_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    `add set ${t} other6 { type ipv6_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    `add chain ${t} refuse`,
    `add rule ${t} refuse meta nfproto ipv4 meta l4proto { tcp, udp } add @ports4 { ip daddr . meta l4proto . th dport } reject`,
    `add rule ${t} refuse meta nfproto ipv6 meta l4proto { tcp, udp } add @ports6 { ip6 daddr . meta l4proto . th dport } reject`,
    `add rule ${t} refuse meta nfproto ipv4 add @other4 { ip daddr . meta l4proto } drop`,
    `add rule ${t} refuse meta nfproto ipv6 add @other6 { ip6 daddr . meta l4proto } drop`,
    `add rule ${t} refuse drop`,
    `add chain ${t} sandbox`,
    // DNS goes nowhere, a resolver on loopback included: its queries carry data out.
    `add rule ${t} sandbox meta l4proto { tcp, udp } th dport 53 goto refuse`,
    `add rule ${t} sandbox ip daddr 127.0.0.0/8 accept`,
    `add rule ${t} sandbox ip6 daddr ::1 accept`,
    `add rule ${t} sandbox goto refuse`,
    `add chain ${t} output { type filter hook output priority filter; policy accept; }`,
    `add rule ${t} output meta skuid ${uid} goto sandbox`
  ].join("\n");
}
async function installNetworkRules(options) {
  const { helpers: h, how } = options;
  const nft = findNft(h);
  if (nft === void 0)
    throw new SandboxError(`nftables is not installed (no nft program on PATH: ${h.programs.path})`);
  const table = `plangate_${process.pid}`;
  const child = how === "root" ? spawnNft(nft, [], h) : spawnNft(locate(h.programs, h.sudo), ["-n", nft], h);
  const failure = await feed(child, ruleset(table, options.uid));
  if (failure !== void 0) {
    child.stdin.end();
    throw new SandboxError(`the network rules could not be installed: ${failure}`);
  }
  let closed = false;
  return {
    table,
    async blocked() {
      if (closed) return [];
      const { stdout } = await asRoot(h, nft, ["-j", "list", "table", "inet", table], how);
      return parseBlocked(stdout);
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise((resolve2) => {
        child.once("exit", () => resolve2());
        child.stdin.end();
        if (child.exitCode !== null) resolve2();
      });
    }
  };
}
function spawnNft(file, args, h) {
  return spawn(file, [...args, "-i"], { cwd: "/", env: { PATH: h.programs.path }, stdio: "pipe" });
}
function feed(child, rules) {
  return new Promise((resolve2) => {
    let output = "";
    const done = (value) => {
      child.stdout.removeAllListeners("data");
      child.stderr.removeAllListeners("data");
      resolve2(value);
    };
    const collect = (chunk) => {
      output += chunk.toString("utf8");
      if (/Error:/.test(output)) done(output.trim().split("\n").slice(0, 4).join(" "));
      else if (output.includes("chain output")) done(void 0);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", (error2) => done(error2.message));
    child.once("exit", (code) => done(output.trim() || `nft exited with code ${code ?? "unknown"}`));
    const table = /add table (\S+ \S+)/.exec(rules)?.[1] ?? "";
    child.stdin.write(`${rules}
list chain ${table} output
`);
  });
}
var elementSchema = external_exports.object({
  elem: external_exports.object({
    val: external_exports.object({ concat: external_exports.array(external_exports.union([external_exports.string(), external_exports.number()])) }),
    counter: external_exports.object({ packets: external_exports.number() }).optional()
  })
});
var listingSchema = external_exports.object({
  nftables: external_exports.array(
    external_exports.union([
      external_exports.object({ set: external_exports.object({ name: external_exports.string(), elem: external_exports.array(external_exports.unknown()).optional() }) }),
      external_exports.record(external_exports.string(), external_exports.unknown())
    ])
  )
});
function parseBlocked(json) {
  const listing = listingSchema.parse(JSON.parse(json));
  const out = [];
  for (const entry of listing.nftables) {
    if (!("set" in entry)) continue;
    const set = entry.set;
    for (const raw of set.elem ?? []) {
      const parsed = elementSchema.safeParse(raw);
      if (!parsed.success) continue;
      const [address, protocol, port] = parsed.data.elem.val.concat;
      out.push({
        address: String(address),
        protocol: String(protocol),
        ...typeof port === "number" ? { port } : {},
        packets: parsed.data.elem.counter?.packets ?? 1
      });
    }
  }
  return out;
}

// src/tools/proxy-environment.ts
var noProxy = "localhost,127.0.0.1,::1";
function proxyEnvironment(url) {
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    // Node's own fetch and http follow the variables only when asked to (Node 24).
    NODE_USE_ENV_PROXY: "1"
  };
}

// src/tools/refusal-tally.ts
function emptyTally() {
  return { counts: /* @__PURE__ */ new Map(), proxyRefusals: [] };
}
function proxyRefused(proxy) {
  return proxy.refusals().map((r) => ({
    destination: formatDestination({ host: r.host, port: r.port }),
    by: "proxy",
    attempts: 1,
    reason: r.reason
  }));
}
function newSince(before, now) {
  const out = [];
  for (const [destination, packets] of now.counts) {
    const added = packets - (before.counts.get(destination) ?? 0);
    if (added > 0) out.push({ destination, by: "firewall", attempts: added });
  }
  return [...out, ...mergeSame(now.proxyRefusals.slice(before.proxyRefusals.length))];
}
function mergeSame(refusals) {
  const merged = /* @__PURE__ */ new Map();
  for (const r of refusals) {
    const k = `${r.destination} ${r.reason ?? ""}`;
    const seen = merged.get(k);
    merged.set(k, seen ? { ...seen, attempts: seen.attempts + r.attempts } : r);
  }
  return [...merged.values()];
}

// src/tools/network-seal.ts
function sealNetwork(sandbox, options) {
  if (options.mode === "open") return sandbox;
  const deps = options.deps ?? {};
  let sealing;
  let seal;
  let reported = emptyTally();
  let destinations = options.destinations;
  const install = async () => {
    const cause2 = sealRefusal(sandbox, deps);
    if (cause2 !== void 0) throw new SandboxError(networkImpossible(cause2));
    const identity = sandbox.account ? await lookUpAccount(sandbox.account, helperPrograms(deps)) : void 0;
    if (!identity)
      throw new SandboxError(networkImpossible(`the account ${sandbox.account ?? ""} cannot be looked up`));
    const how = (await probeAccountSwitch(deps)).kind === "root" ? "root" : "sudo";
    let rules;
    try {
      rules = await installNetworkRules({
        uid: identity.uid,
        how,
        helpers: { sudo: deps.sudo ?? "sudo", programs: helperPrograms(deps) }
      });
    } catch (error2) {
      throw new SandboxError(networkImpossible(error2 instanceof Error ? error2.message : String(error2)));
    }
    try {
      const proxy = await startEgressProxy({ destinations });
      return { rules, proxy };
    } catch (error2) {
      await rules.close();
      throw error2;
    }
  };
  return {
    ...sandbox,
    async ready() {
      await sandbox.ready();
      sealing ??= install().then((s) => seal = s);
      await sealing;
    },
    async refusal() {
      const inner = await sandbox.refusal();
      if (inner !== void 0) return inner;
      const cause2 = sealRefusal(sandbox, deps);
      return cause2 === void 0 ? void 0 : networkImpossible(cause2);
    },
    plan(argv, env, secretNames) {
      if (!seal) throw new SandboxError("The sandbox is not ready; call ready() first.");
      return sandbox.plan(argv, { ...env, ...proxyEnvironment(seal.proxy.url) }, secretNames);
    },
    limitNetwork(approved) {
      if (sealing !== void 0)
        throw new SandboxError("The network was sealed before the approved scope was known; nothing may widen it now.");
      destinations = narrowDestinations(destinations, scopeDestinations(approved));
    },
    async refusedSince() {
      if (!seal) return [];
      const now = await refusedSoFar(seal);
      const fresh = newSince(reported, now);
      reported = now;
      return fresh;
    },
    async close() {
      await sandbox.close();
      const s = seal;
      seal = void 0;
      if (s) await Promise.all([s.proxy.close(), s.rules.close()]);
    }
  };
}
async function refusedSoFar(seal) {
  const counts2 = /* @__PURE__ */ new Map();
  for (const b of await seal.rules.blocked().catch(() => [])) counts2.set(key(b), b.packets);
  return { counts: counts2, proxyRefusals: proxyRefused(seal.proxy) };
}
function key(b) {
  return `${formatDestination({ host: b.address, ...b.port !== void 0 ? { port: b.port } : {} })} (${b.protocol})`;
}
function sealRefusal(sandbox, deps) {
  if (sandbox.account === void 0)
    return "`command-isolation: none` runs commands as the action's own user, and the network rules hold only a separate account";
  if (findNft({ sudo: deps.sudo ?? "sudo", programs: helperPrograms(deps) }) === void 0)
    return `nftables is not installed (no nft program on PATH: ${helperPrograms(deps).path}): install it in a step before plangate (\`sudo apt-get install -y nftables\`), or add its folder to PATH`;
  return void 0;
}
function networkImpossible(cause2) {
  return `Commands cannot run here with a sealed network: ${cause2}. plangate lets commands and MCP servers reach only loopback and the destinations \`allowed-domains\` names, by firewall rules on the sandbox account, so that code from the repository cannot send it elsewhere. Nothing was run. Fix the cause, or set the input \`network: open\` to run them with the network as the runner has it, where they can send the work tree anywhere.`;
}

// src/tools/tree-changes.ts
import path6 from "node:path";
var counts = /* @__PURE__ */ new Map();
function noteTreeChange(workTree) {
  const key2 = path6.resolve(workTree);
  counts.set(key2, (counts.get(key2) ?? 0) + 1);
}
function treeChangeCount(workTree) {
  return counts.get(path6.resolve(workTree)) ?? 0;
}

// src/tools/sandbox.ts
function createSandbox(options) {
  const sandbox = options.isolation === "none" ? ownUserSandbox(options) : accountSandbox(options);
  const sealed = options.network ? sealNetwork(sandbox, { ...options.network, deps: options.deps ?? {} }) : sandbox;
  return noteChangesOnReturn(sealed);
}
function noteChangesOnReturn(sandbox) {
  return {
    ...sandbox,
    async lend(work) {
      try {
        return await sandbox.lend(work);
      } finally {
        noteTreeChange(sandbox.workTree);
      }
    }
  };
}
function ownUserSandbox({ workTree, deps }) {
  return {
    account: void 0,
    workTree,
    ready: () => Promise.resolve(),
    refusal: () => Promise.resolve(void 0),
    plan(argv, env) {
      const pathList = absolutePath(env.PATH ?? deps?.programs?.path ?? process.env.PATH);
      const name = argv[0] ?? "";
      return {
        file: lookUp(name, pathList) ?? name,
        args: argv.slice(1),
        env: { ...env, PATH: pathList },
        wrapped: false
      };
    },
    lend: (work) => work(),
    sweep: () => Promise.resolve(),
    keep: () => () => void 0,
    refusedSince: () => Promise.resolve([]),
    limitNetwork: () => void 0,
    close: () => Promise.resolve()
  };
}

// src/mcp/capability-hub.ts
var noCapabilities = {
  start: () => Promise.resolve({ configured: 0, connected: [], failures: [] }),
  close: () => Promise.resolve()
};

// src/text/settles-within.ts
async function settlesWithin(promise, ms) {
  let timer;
  const timeout = new Promise((resolve2) => timer = setTimeout(() => resolve2(false), ms));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true
      ),
      timeout
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export {
  summary,
  setSecret,
  getInput,
  getMultilineInput,
  setOutput,
  setFailed,
  debug,
  error,
  warning,
  notice,
  info,
  group,
  absolutePath,
  findPrograms,
  defaultPrograms,
  tempFolderPrefix,
  locate,
  run,
  helperPrograms,
  SandboxError,
  missingProgram,
  saysProgramMissing,
  startEgressProxy,
  proxyEnvironment,
  emptyTally,
  proxyRefused,
  newSince,
  noteTreeChange,
  treeChangeCount,
  createSandbox,
  noCapabilities,
  settlesWithin
};
