/**
 * A failure the model caused and can fix (bad path, refused command, no unique match). The toolbox
 * hands its message back verbatim as the tool result, so the message must say what to do next;
 * anything else thrown by a tool is treated as an unexpected fault and reported with a prefix.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
