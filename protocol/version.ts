/**
 * The one version of hub, set here: the server and CLI, the npm wrapper (`@tabhub/hub`), the plugin
 * SDK package (`@tabhub/sdk`) and the extension built with it all carry it.
 */
export const VERSION = "0.1.0";

/**
 * Version of the plugin SDK this hub ships (in `hub-plugin`, and published as `@tabhub/sdk`): the
 * hub's own version. Plugins built with an SDK of the same compatibility line (see sdkCompatLine)
 * load in this hub.
 */
export const SDK_VERSION: string = VERSION;

/**
 * The SDK compatibility line of a version: its major, or `0.<minor>` while the major is 0 (where
 * every minor may break, as npm's caret ranges assume). SDK versions on one line are compatible.
 */
export function sdkCompatLine(version: string): string {
  const [major, minor] = version.split(".");
  return major === "0" ? `0.${minor}` : major;
}

/**
 * The `@tabhub/sdk` version range a new plugin declares: a caret range from this SDK's minor
 * (`^0.1`, `^1.2`), so the plugin builds with this hub and any later one of the same line.
 */
export function sdkRange(version: string = SDK_VERSION): string {
  const [major, minor] = version.split(".");
  return `^${major}.${minor}`;
}

/** Version of the hub's internal state layout, reported in `/health`. */
export const STATE_SCHEMA_VERSION = 1;
