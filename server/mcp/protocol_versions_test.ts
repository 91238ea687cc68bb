import { assertEquals } from "../../tests/helpers/assert.ts";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./protocol_versions.ts";
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from "./sdk.ts";

Deno.test("the hub's protocol versions are the SDK's, in the same order", () => {
  assertEquals([...SUPPORTED_PROTOCOL_VERSIONS], [...SDK_VERSIONS]);
});
