/** A setting that is wrong in a way the user must fix; main.ts reports it as the failure. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}
