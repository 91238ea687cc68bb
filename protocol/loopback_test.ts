/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { isLoopbackHost, LOOPBACK_HOSTS } from "./loopback.ts";

Deno.test("the loopback hosts, spelled as URL.hostname spells them", () => {
  assertEquals([...LOOPBACK_HOSTS], ["127.0.0.1", "localhost", "[::1]"]);
  for (const url of ["http://127.0.0.1:9/", "http://LOCALHOST/", "http://[::1]:80/mcp"]) {
    assertEquals(isLoopbackHost(new URL(url).hostname), true, url);
  }
  for (const host of ["127.0.0.2", "::1", "localhost.example.com", "0.0.0.0", ""]) {
    assertEquals(isLoopbackHost(host), false, host);
  }
});
