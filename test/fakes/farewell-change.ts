import { toolCall } from './scripted-model.js';

/**
 * The change most scenarios ask of the sample project (test/e2e/harness.ts): a farewell(name) next
 * to greet(name) in src/greet.js, as the planner plans it and the executor makes it.
 */

/** Two steps: the function, then the README. */
export const farewellPlan = {
  steps: [
    {
      title: 'Add a farewell function',
      detail: 'Export farewell(name) from src/greet.js.',
      // Where it may live: next to greet, or in a file of its own (which farewellThenReadme writes).
      files: ['src/greet.js', 'src/farewell.js'],
      verify: 'node --check src/greet.js',
    },
    { title: 'Document it', files: ['README.md'] },
  ],
  risks: ['None beyond a new export.'],
};

/** What the executor appends to greet(name). */
export const farewellCode = "\nexport function farewell(name) {\n  return 'Goodbye ' + name;\n}\n";

/** The executor's edit that appends farewellCode to src/greet.js. */
export const appendFarewell = toolCall('edit_file', {
  path: 'src/greet.js',
  old: "  return 'Hello ' + name;\n}\n",
  new: "  return 'Hello ' + name;\n}\n" + farewellCode,
});

/** The executor's report once appendFarewell is done and nothing is left. */
export const farewellAppended = toolCall('update_context', {
  result: 'Appended farewell to src/greet.js.',
  outcome: 'done',
});

/**
 * The executor's two cycles where the first ends in a replan: a new src/farewell.js with `note` as
 * the evidence for the planner, then (after the replan) an API section in the README.
 */
export const farewellThenReadme = (note: string) => [
  toolCall('write_file', {
    path: 'src/farewell.js',
    content: "export const farewell = (n) => 'Goodbye ' + n;\n",
  }),
  toolCall('update_context', { result: `Added src/farewell.js. Note: ${note}`, outcome: 'replan' }),
  toolCall('edit_file', {
    path: 'README.md',
    old: 'A tiny project for plangate scenarios.\n',
    new: 'A tiny project for plangate scenarios.\n\n## API\n\n- greet\n- farewell\n',
  }),
  toolCall('update_context', { result: 'README now has an API section.', outcome: 'done' }),
];
