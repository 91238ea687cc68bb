import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { NpmResult } from "../process/npm_runner.ts";
import { isNetworkFailure, npmFailure } from "./npm_failure.ts";

const ctx = {
  doing: "installing hub-plugin-x@1.0.0",
  name: "hub-plugin-x",
  registry: "http://registry.test/",
  timeoutMs: 120_000,
  command: "npm install --global hub-plugin-x@1.0.0",
};

const result = (r: Partial<NpmResult>): NpmResult => ({
  code: 1,
  stdout: "",
  stderr: "",
  timedOut: false,
  ...r,
});
const coded = (code: string, extra = "") =>
  result({ stderr: `npm error code ${code}\nnpm error ${extra || "something"}\n` });

Deno.test("npm failures map to codes with messages that say what to do", () => {
  const cases: [NpmResult, string, RegExp][] = [
    [result({ code: 143, timedOut: true }), "TIMEOUT", /did not finish installing .* within 120 s/],
    [result({ stdout: '{"error":{"code":"E404"}}' }), "PACKAGE_NOT_FOUND", /not published .*E404/],
    [coded("ETARGET"), "PACKAGE_NOT_FOUND", /no version that matches \(ETARGET\)/],
    [
      coded("ECONNREFUSED"),
      "REGISTRY_UNREACHABLE",
      /Cannot reach the npm registry http:\/\/registry\.test\/ while installing/,
    ],
    [coded("ENOTFOUND"), "REGISTRY_UNREACHABLE", /\(ENOTFOUND\)/],
    [coded("ETIMEDOUT"), "REGISTRY_UNREACHABLE", /\(ETIMEDOUT\)/],
    [coded("E401"), "NPM_FAILED", /refused .* \(E401\)\. Log in with "npm login --registry/],
    [coded("E403"), "NPM_FAILED", /\(E403\)/],
    [coded("EACCES"), "NPM_FAILED", /may not write .* \(EACCES\)/],
    [coded("EPERM"), "NPM_FAILED", /\(EPERM\)/],
    [coded("EINVALIDPACKAGENAME", "bad name"), "INVALID_NAME", /npm refused the name .*bad name/],
    [
      coded("E500", "Internal"),
      "NPM_FAILED",
      /npm failed installing .*: code E500 \/ Internal\. Run "npm install/,
    ],
    [result({ code: 7 }), "NPM_FAILED", /exit code 7/],
  ];
  for (const [npm, code, pattern] of cases) {
    const error = npmFailure(npm, ctx);
    assertEquals(error.code, code, error.message);
    assertMatch(error.message, pattern);
    assert(!error.message.includes("\n") && error.message.length <= 600, error.message);
  }
});

Deno.test("a long npm output stays bounded", () => {
  const error = npmFailure(coded("E500", "x".repeat(5_000)), ctx);
  assert(error.message.length <= 600, String(error.message.length));
});

Deno.test("isNetworkFailure", () => {
  assert(isNetworkFailure(coded("ECONNRESET")));
  assert(!isNetworkFailure(coded("E404")));
  assert(!isNetworkFailure(result({})));
});
