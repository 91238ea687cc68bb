/** A problem ajv found in a schema (the fields the hub reads). */
export interface SchemaProblem {
  instancePath: string;
  message?: string;
}

/** Whether `schema` is a valid JSON Schema (draft-07); when not, `validate.errors` says why. */
export declare const validate: ((schema: unknown) => boolean) & {
  errors?: SchemaProblem[] | null;
};
export default validate;
