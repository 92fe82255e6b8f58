import { run } from './main.js';

// The action's entry point; main.ts owns error handling and the step's failure.
await run();
