import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/cli/cli-error.ts
var CliError = class extends Error {
  name = "CliError";
};
var UsageError = class extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
  command;
  name = "UsageError";
};
var exitCodes = { ok: 0, failed: 1, usage: 2 };

export {
  CliError,
  UsageError,
  exitCodes
};
