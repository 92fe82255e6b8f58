/** `npm run demo`'s entry: the demo (demo.ts) with the models the environment names, and its exit code. */
import { demoModelsFrom, runDemo } from './demo.js';

process.exitCode = await runDemo(demoModelsFrom(process.env), (text = '') => process.stdout.write(`${text}\n`));
