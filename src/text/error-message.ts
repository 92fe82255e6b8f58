/**
 * The words of anything thrown: an Error's message, a string as it is, anything else as JSON (or
 * String() when it cannot be). Every place that reports a failure says it through here.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
