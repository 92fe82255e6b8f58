import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/text/redact.ts
var tokenShapes = [
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens.
  [/(?<![A-Za-z0-9_-])gh[pousr]_[A-Za-z0-9]{36,}/g, "***"],
  // GitHub fine-grained personal access tokens.
  [/(?<![A-Za-z0-9_-])github_pat_[A-Za-z0-9_]{22,}/g, "***"],
  // OpenAI-style keys, project keys (`sk-proj-...`) included.
  [/(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, "***"],
  // Authorization header values; the value is RFC 7235's token68, so placeholders such as
  // `${token}` or `<token>` in code and docs stay readable.
  [/(\bauthorization["']?\s*[:=]\s*(?:["'`]\s*)?(?:bearer|token|basic)\s+)[A-Za-z0-9._~+/-]+=*/gi, "$1***"],
  // The token git and Actions put into clone URLs.
  [/(x-access-token:)[^\s@/:]+(?=@)/gi, "$1***"],
  // Any other password in a URL's user-info part (`https://user:password@host`).
  [/(:\/\/[^\s:@/]+:)[^\s@/]+(?=@)/g, "$1***"]
];
function redact(text, secrets) {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 8) out = out.split(secret).join("***");
  }
  for (const [shape, replacement] of tokenShapes) out = out.replace(shape, replacement);
  return out;
}

// src/text/error-message.ts
function errorMessage(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

export {
  redact,
  errorMessage
};
