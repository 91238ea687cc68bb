/** Human-readable summaries of JSON Schemas: field names, types and whether they are required. */

export interface FieldSummary {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

type Schema = Record<string, unknown>;

/** A short type for a JSON Schema: `string`, `integer (1-100)`, `"a" | "b"`, `string[]`, … */
export function typeOf(schema: Schema | undefined): string {
  if (!schema || typeof schema !== "object") return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union)) return union.map(typeOf).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (type === "array") return `${typeOf(schema.items as Schema)}[]`;
  if (type === "integer" || type === "number") {
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    const lo = min !== undefined && min > Number.MIN_SAFE_INTEGER ? min : undefined;
    const hi = max !== undefined && max < Number.MAX_SAFE_INTEGER ? max : undefined;
    if (lo === undefined && hi === undefined) return String(type);
    return `${type} (${lo ?? ""}–${hi ?? ""})`;
  }
  return typeof type === "string" ? type : "any";
}

/** The top-level fields of an object schema. */
export function fieldsOf(schema: Schema | undefined): FieldSummary[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    type: typeOf(prop),
    required: required.has(name),
    ...(typeof prop.description === "string" ? { description: prop.description } : {}),
  }));
}
