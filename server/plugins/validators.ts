/**
 * Input validation for tools, with ajv. A validator is compiled the first time a tool is called
 * after a reload and kept while the tool's schema stays the same, so a reload of many plugins does
 * not pay for compiling every schema up front. String formats (email, uri, …) are not checked here;
 * the SDK re-validates the input with the plugin's own zod schema in the page.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

export interface ValidationResult {
  valid: boolean;
  /** One line per problem, like `query: must be string`. */
  errors: string[];
}

export type Validate = (input: unknown) => ValidationResult;

function describe(error: ErrorObject): string {
  const where = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${where ? `${where}.` : ""}${params.missingProperty}: is required`;
    case "additionalProperties":
      return `${where ? `${where}.` : ""}${params.additionalProperty}: is not a known field`;
    case "enum":
      return `${where || "input"}: must be one of ${
        (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    default:
      return `${where || "input"}: ${error.message}`;
  }
}

export class ValidatorCache {
  readonly #ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  #compiled = new Map<string, ValidateFunction>();

  /**
   * Drops the validators of schemas no tool uses any more. The hub keeps one cache for its
   * lifetime and calls this after each reload, so unchanged schemas keep their validators.
   */
  retain(keep: Set<string>): void {
    for (const key of [...this.#compiled.keys()]) if (!keep.has(key)) this.#compiled.delete(key);
  }

  /** A validate function for `schema`; compilation happens on its first use. */
  validator(schema: Record<string, unknown>): { key: string; validate: Validate } {
    const key = JSON.stringify(schema);
    const validate: Validate = (input) => {
      let fn = this.#compiled.get(key);
      if (!fn) {
        fn = this.#ajv.compile(schema);
        this.#compiled.set(key, fn);
      }
      const valid = fn(input) as boolean;
      return { valid, errors: valid ? [] : (fn.errors ?? []).map(describe) };
    };
    return { key, validate };
  }

  get compiledCount(): number {
    return this.#compiled.size;
  }
}
