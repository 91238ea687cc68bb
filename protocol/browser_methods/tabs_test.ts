/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { isOpenableUrl } from "./tabs.ts";

Deno.test("isOpenableUrl: http(s) URLs and about:blank only", () => {
  for (const url of ["http://127.0.0.1:8080/x?y=1", "https://example.com/", "about:blank"]) {
    assertEquals(isOpenableUrl(url), true, url);
  }
  for (
    const url of ["file:///etc/passwd", "javascript:alert(1)", "chrome://settings", "about:config"]
  ) {
    assertEquals(isOpenableUrl(url), false, url);
  }
  assertEquals(isOpenableUrl("example.com"), false);
});
