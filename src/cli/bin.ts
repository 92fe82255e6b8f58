import { main } from './main.js';

// The `plangate` command (dist/cli.js); cli/main.ts owns output, errors and the exit code.
process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
