/**
 * playwright-core, for the browser suites and benches (`import … from "playwright-core"` maps
 * here in deno.json). A test tool, not a dependency of hub: it is pinned here, so deno.lock (what
 * `deno task start` installs) never holds it; `deno task test` records it in tests/test.lock.
 * See docs/decisions/076-runtime-dependencies.md.
 */
export * from "npm:playwright-core@1.65.1";
