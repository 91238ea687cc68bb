/** Version of hub (server, CLI and, later, the extension built with it). */
export const VERSION = "0.1.0";

/** Version of the plugin SDK API that this hub speaks. */
export const SDK_VERSION = "0.1.0";

/** Version of the hub's internal state layout, reported in `/health`. */
export const STATE_SCHEMA_VERSION = 1;
