/**
 * The MCP protocol versions the hub speaks, newest first. A copy of the SDK's list, kept here so
 * the hub's own MCP path (front.ts, fast_request.ts) does not load the SDK at start;
 * `protocol_versions_test.ts` fails when an SDK upgrade changes the list.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];
