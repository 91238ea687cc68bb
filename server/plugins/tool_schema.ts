/**
 * The input schema clients see for a plugin tool: the plugin's own schema plus the injected
 * parameters, `tabId` always and `instance` as a required enum when the plugin has two or more
 * instances.
 */

export type JsonSchema = Record<string, unknown>;

export function injectParameters(
  schema: JsonSchema,
  instances: Record<string, string>,
): JsonSchema {
  const properties = { ...(schema.properties as Record<string, unknown> ?? {}) };
  const required = [...(schema.required as string[] ?? [])];
  properties.tabId = {
    type: "integer",
    minimum: 1,
    description: "Run in exactly this browser tab (ids from plugin_list_tabs). Omit to use the " +
      "best matching tab.",
  };
  const names = Object.keys(instances);
  if (names.length >= 2) {
    properties.instance = {
      type: "string",
      enum: names,
      description: `Which instance to use: ${
        names.map((n) => `${n} (${instances[n]})`).join(", ")
      }.`,
    };
    required.push("instance");
  }
  const result: JsonSchema = { ...schema, type: "object", properties };
  if (required.length > 0) result.required = required;
  return result;
}

/** Splits the injected parameters off a call's arguments. */
export function stripInjected(args: Record<string, unknown>) {
  const { tabId, instance, ...input } = args;
  return {
    tabId: tabId as number | undefined,
    instance: instance as string | undefined,
    input,
  };
}
