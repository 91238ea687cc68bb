/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { syncPlugin } from "../worker/_test_fixtures.ts";
import {
  packageNameOf,
  progressOf,
  progressText,
  resultRows,
  updateFor,
  updatesSummary,
} from "./package_rows.ts";
import type { ProgressEntry } from "../shared/panel_messages.ts";

const RESULT = {
  query: "",
  packages: [
    {
      name: "@tabhub/hub-plugin-notes",
      version: "1.1.0",
      description: "Notes",
      author: "tabhub",
      official: true,
    },
    { name: "hub-plugin-weather", version: "2.0.0", official: false, installedVersion: "2.0.0" },
    { name: "hub-plugin-old", version: "1.0.0", official: false },
  ],
};

Deno.test("result rows say what is installed now: the hub's plugins win over the search", () => {
  const plugins = [
    syncPlugin("notes", { packageName: "@tabhub/hub-plugin-notes", version: "1.0.0" }),
    syncPlugin("old", { packageName: "hub-plugin-old", version: "1.0.0" }),
  ];
  assertEquals(resultRows(RESULT, plugins), [
    {
      name: "@tabhub/hub-plugin-notes",
      version: "1.1.0",
      description: "Notes",
      author: "tabhub",
      official: true,
      installedVersion: "1.0.0",
      plugin: "notes",
      action: "update",
    },
    {
      name: "hub-plugin-weather",
      version: "2.0.0",
      official: false,
      installedVersion: "2.0.0",
      action: "installed",
    },
    {
      name: "hub-plugin-old",
      version: "1.0.0",
      official: false,
      installedVersion: "1.0.0",
      plugin: "old",
      action: "installed",
    },
  ]);
  // Before anything is installed every row offers Install, except what the search says is.
  assertEquals(resultRows(RESULT, []).map((r) => r.action), ["install", "installed", "install"]);
  // A newer version installed than the registry's latest is no update.
  const newer = [syncPlugin("old", { packageName: "hub-plugin-old", version: "1.2.0" })];
  assertEquals(resultRows(RESULT, newer)[2].action, "installed");
});

Deno.test("an update is offered only while the installed version is older", () => {
  const check = {
    checkedAt: 1,
    updates: [{
      name: "@tabhub/hub-plugin-notes",
      plugin: "notes",
      installedVersion: "1.0.0",
      latestVersion: "1.1.0",
    }],
  };
  const notes = syncPlugin("notes", { packageName: "@tabhub/hub-plugin-notes", version: "1.0.0" });
  assertEquals(updateFor(notes, check)?.latestVersion, "1.1.0");
  assertEquals(updateFor({ ...notes, version: "1.1.0" }, check), undefined, "already updated");
  assertEquals(updateFor(syncPlugin("other"), check), undefined);
  assertEquals(updateFor(notes, undefined), undefined);
  assertEquals(packageNameOf(notes), "@tabhub/hub-plugin-notes");
  assertEquals(packageNameOf(syncPlugin("local-one")), "local-one");
});

Deno.test("progress lines: running operations, filtered by package and start time", () => {
  const entries: ProgressEntry[] = [
    { operation: "install", name: "a", message: "Downloading", done: false, receivedAt: 30 },
    { operation: "update", name: "b", message: "Updated to 1.1.0", done: true, receivedAt: 20 },
    { operation: "search", message: "Asking the registry", done: false, receivedAt: 10 },
  ];
  assertEquals(progressOf(entries).map((e) => e.receivedAt), [30, 10]);
  assertEquals(progressOf(entries, { names: ["b"] }), []);
  assertEquals(progressOf(entries, { names: ["b"], includeDone: true }).length, 1);
  assertEquals(progressOf(entries, { operations: ["search"], since: 11 }), []);
  assertEquals(progressText(entries[0]), "Installing a: Downloading");
  assertEquals(progressText(entries[2]), "Asking the registry");
});

Deno.test("the update check summary", () => {
  const ago = () => "2 min ago";
  assertEquals(updatesSummary(undefined, ago), "Not checked for updates yet.");
  assertEquals(updatesSummary({ checkedAt: 0, updates: [] }, ago), "Not checked for updates yet.");
  assertEquals(
    updatesSummary({ checkedAt: 5, updates: [] }, ago),
    "Checked 2 min ago: every plugin package is up to date.",
  );
  const one = { name: "n", plugin: "n", installedVersion: "1.0.0", latestVersion: "2.0.0" };
  assertEquals(
    updatesSummary({ checkedAt: 5, updates: [one] }, ago),
    "Checked 2 min ago: 1 update available.",
  );
  assertEquals(
    updatesSummary({ checkedAt: 5, updates: [], error: "registry down" }, ago),
    "Checked 2 min ago: the check failed (registry down).",
  );
});
