/**
 * Input validation for tools, with ajv. A validator is compiled the first time a tool is called
 * after a reload and kept while the tool's schema stays the same, so a reload of many plugins does
 * not pay for compiling every schema up front. String formats (email, uri, …) are not checked here;
 * the SDK re-validates the input with the plugin's own zod schema in the page.
 *
 * Checking stops at the first problem (ajv without `allErrors`), so a huge invalid input costs one
 * error object. Only when an input is invalid and small is it checked again for every problem, so
 * the caller can fix them all at once; either way at most a handful are reported.
 *
 * ajv itself is imported for the first call, not at start (about 35 ms and hundreds of modules):
 * the pipeline awaits `loadValidators()` before it checks arguments.
 */
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { boundProblems, FULL_CHECK_MAX_VALUES, hasMoreValues } from "./validation_problems.ts";
import { loadOnce } from "../../core/cache/load_once.ts";

let AjvClass: typeof Ajv | undefined;
const importAjv = loadOnce(() => import("ajv").then((m) => void (AjvClass = m.Ajv)));

/** Imports ajv once; undefined when it is loaded (so the hot path awaits nothing). */
export function loadValidators(): Promise<void> | undefined {
  return AjvClass ? undefined : importAjv();
}

function newAjv(allErrors: boolean): Ajv {
  if (!AjvClass) throw new Error("a validator ran before loadValidators() resolved");
  return new AjvClass({ allErrors, strict: false, validateFormats: false });
}

export interface ValidationResult {
  valid: boolean;
  /** One line per problem, like `query: must be string`; at most a handful, then "…and N more". */
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

interface Compiled {
  schema: Record<string, unknown>;
  /** Stops at the first problem. */
  first: ValidateFunction;
  /** Reports every problem; compiled the first time a small input is invalid. */
  all?: ValidateFunction;
}

export class ValidatorCache {
  #firstAjv: Ajv | undefined;
  #allAjv: Ajv | undefined;
  #compiled = new Map<string, Compiled>();

  /**
   * Drops the validators of schemas no tool uses any more. The hub keeps one cache for its
   * lifetime and calls this after each reload, so unchanged schemas keep their validators.
   */
  retain(keep: Set<string>): void {
    for (const [key, compiled] of [...this.#compiled]) {
      if (keep.has(key)) continue;
      this.#compiled.delete(key);
      // ajv keeps every schema it compiled until it is removed.
      this.#firstAjv?.removeSchema(compiled.schema);
      this.#allAjv?.removeSchema(compiled.schema);
    }
  }

  /** A validate function for `schema`; compilation happens on its first use. */
  validator(schema: Record<string, unknown>): { key: string; validate: Validate } {
    const key = JSON.stringify(schema);
    const validate: Validate = (input) => {
      let compiled = this.#compiled.get(key);
      if (!compiled) {
        this.#firstAjv ??= newAjv(false);
        compiled = { schema, first: this.#firstAjv.compile(schema) };
        this.#compiled.set(key, compiled);
      }
      if (compiled.first(input)) return { valid: true, errors: [] };
      let fn = compiled.first;
      if (!hasMoreValues(input, FULL_CHECK_MAX_VALUES)) {
        this.#allAjv ??= newAjv(true);
        compiled.all ??= this.#allAjv.compile(schema);
        fn = compiled.all;
        fn(input);
      }
      const errors = fn.errors ?? [];
      return {
        valid: false,
        errors: boundProblems(errors.slice(0, 50).map(describe), errors.length),
      };
    };
    return { key, validate };
  }

  get compiledCount(): number {
    return this.#compiled.size;
  }
}
