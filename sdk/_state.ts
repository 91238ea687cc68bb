/**
 * What the SDK knows about the plugin it was bundled with. Each adapter bundle carries its own copy
 * of the SDK, so this state is per plugin. Set by the adapter runtime; read by log and settings.
 */
export const pluginState = {
  name: "",
  /** The resolved settings last received from the hub (with the latest call or probe). */
  settings: {} as Record<string, unknown>,
};

/** The plugin's resolved settings as of the latest call or readiness probe. */
export function getSettings<T extends Record<string, unknown> = Record<string, unknown>>(): T {
  return pluginState.settings as T;
}
