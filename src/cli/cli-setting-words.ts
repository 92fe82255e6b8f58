import type { SettingWords } from '../models/provider-error.js';

/**
 * The settings a model failure's hint names, as the CLI takes them: its flags and PLANGATE_*
 * variables, never the action's inputs, which someone at a terminal has nowhere to set.
 */
export const cliSettingWords: SettingWords = {
  key: () => 'PLANGATE_API_KEY',
  url: () => '--base-url (or PLANGATE_BASE_URL)',
  model: (role) => `--${role}-model (or --model, PLANGATE_${role.toUpperCase()}_MODEL)`,
  retries: '--model-retries',
  timeout: '--model-timeout',
  rerun: 'Run plangate again',
  network: 'your network',
};
