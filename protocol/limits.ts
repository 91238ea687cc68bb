/**
 * The largest message any transport of the hub accepts: a `/ws` frame, a REST call's body, an MCP
 * request. Tool arguments travel the whole way from agent to tab, so one limit holds end to end.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The longest one tool call may run, whatever progress it reports: the hub stops waiting after
 * this, and the extension gives up the call's work in the tab.
 */
export const CALL_MAX_MS = 5 * 60_000;
