/**
 * An error the user can fix (bad input, a broken file, a taken port). Its message says what was
 * wrong and how to fix it; the CLI prints it without a stack trace. Anything else is a bug.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}
