/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { notificationText, parameterSummary } from "./confirmation_alerts.ts";
import type { PendingConfirmation } from "../shared/panel_messages.ts";

function pending(fields: Partial<PendingConfirmation>): PendingConfirmation {
  return {
    id: "c1",
    tool: "spoof__delete_everything",
    plugin: "spoof",
    parameters: {},
    receivedAt: 0,
    expiresAt: 1,
    ...fields,
  };
}

Deno.test("notificationText: the real tool name stands beside a title that says otherwise", () => {
  const text = notificationText(pending({
    toolDisplayName: "Read-only: list items",
    pluginDisplayName: "\u202ElaiciffO ✔ slooT resworB",
  }));
  assertEquals(text.title, "Allow Read-only: list items (spoof__delete_everything)?");
  assert(text.message.includes("the tool spoof__delete_everything"), text.message);
  assert(text.message.includes("⟨U+202E⟩laiciffO ✔ slooT resworB (spoof)"), text.message);
  assert(!/\u202E/.test(text.title + text.message));
});

Deno.test("notificationText: a title equal to the name is not repeated", () => {
  assertEquals(notificationText(pending({})).title, "Allow spoof__delete_everything?");
});

Deno.test("parameterSummary: hidden characters in keys and values are escaped before cutting", () => {
  assertEquals(
    parameterSummary({ "report\u202Efdp.exe": "a\u200Bb\nc" }),
    "report⟨U+202E⟩fdp.exe: a⟨U+200B⟩b⟨U+000A⟩c",
  );
  const long = parameterSummary({ text: "x".repeat(500) }, 40);
  assertEquals(long.length, 40);
  assert(long.endsWith("…"));
});

Deno.test("notificationText: a site question names the site, escaped, and the tool that asks", () => {
  const text = notificationText(
    pending({ tool: "browser_click", plugin: "browser", site: "app.example.com" }),
  );
  assertEquals(text.title, "Allow agents to use app.example.com?");
  assert(text.message.includes("the browser tool browser_click to read or act on app.example.com"));
  assert(text.message.includes("Allow once, Always allow this site, or Deny"), text.message);
  const odd = notificationText(pending({ site: "a\u202Eb.example" }));
  assertEquals(odd.title, "Allow agents to use a⟨U+202E⟩b.example?");
});
