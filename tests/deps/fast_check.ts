/**
 * fast-check, for the fuzz suites (`import fc from "fast-check"` maps here in deno.json). A test
 * tool, kept out of deno.lock like playwright_core.ts.
 */
export * from "npm:fast-check@4.10.2";
export { default } from "npm:fast-check@4.10.2";
