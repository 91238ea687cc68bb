/**
 * The markers around the generated part of a plugin's README.md. `hub plugin create` writes
 * them into a new project and `hub-plugin readme` replaces what lies between them, so both
 * commands must agree on the exact text.
 */
export const BEGIN = "<!-- hub-plugin readme: generated; edit package.json and the tools, then " +
  'run "deno task readme" or "hub-plugin readme" -->';
export const END = "<!-- /hub-plugin readme -->";
