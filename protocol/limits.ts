/**
 * The largest message any transport of the hub accepts: a `/ws` frame, a REST call's body, an MCP
 * request. Tool arguments travel the whole way from agent to tab, so one limit holds end to end.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
