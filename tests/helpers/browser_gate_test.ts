import { assert, assertEquals, assertMatch } from "./assert.ts";
import { CHROMIUM_ENV, decideBrowserRun, isCi } from "./browser_gate.ts";

const PATH = "/opt/chromium/chrome";

Deno.test("browser suites run wherever Chromium exists, in CI or not", () => {
  for (const ci of [undefined, "", "true", "1", "false"]) {
    assertEquals(decideBrowserRun({ ci, chromiumPath: PATH, chromiumExists: true }), {
      action: "run",
    });
  }
});

Deno.test("without CI a missing Chromium skips, saying why and how to install it", () => {
  for (const ci of [undefined, "", "false", "0"]) {
    const decision = decideBrowserRun({ ci, chromiumPath: PATH, chromiumExists: false });
    assertEquals(decision.action, "skip", String(ci));
    assert(decision.action === "skip");
    assertMatch(decision.reason, new RegExp(`${PATH} does not exist`));
    assertMatch(decision.reason, /apt-get install -y chromium/);
    assertMatch(decision.reason, new RegExp(CHROMIUM_ENV));
  }
});

Deno.test("with CI=true or CI=1 a missing Chromium fails the run, saying how to fix it", () => {
  for (const ci of ["true", "1", "TRUE", " true "]) {
    const decision = decideBrowserRun({ ci, chromiumPath: PATH, chromiumExists: false });
    assertEquals(decision.action, "fail", ci);
    assert(decision.action === "fail");
    assertMatch(decision.reason, /apt-get install -y chromium/);
    assertMatch(decision.reason, new RegExp(`set ${CHROMIUM_ENV} to the path`));
    assertMatch(decision.reason, /must run in CI/);
  }
});

Deno.test("isCi reads only true and 1 as CI", () => {
  assertEquals(
    [undefined, "", "0", "false", "no", "true", "1", "True"].map(isCi),
    [false, false, false, false, false, true, true, true],
  );
});
