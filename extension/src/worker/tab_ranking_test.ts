/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { rankTabs } from "./tab_ranking.ts";

const tab = (id: number, windowId: number, active: boolean, lastAccessed = 0) => ({
  id,
  windowId,
  active,
  lastAccessed,
});

Deno.test("the focused window's active tab wins, then other active tabs, then the focused window", () => {
  const tabs = [tab(1, 2, false), tab(2, 2, true), tab(3, 1, false), tab(4, 1, true)];
  assertEquals(rankTabs(tabs, 1).map((t) => t.id), [4, 2, 3, 1]);
  assertEquals(rankTabs(tabs, 2).map((t) => t.id), [2, 4, 1, 3]);
});

Deno.test("without a focused window, active tabs come first", () => {
  const tabs = [tab(1, 1, false), tab(2, 2, true), tab(3, 1, true)];
  assertEquals(rankTabs(tabs).map((t) => t.id), [2, 3, 1]);
});

Deno.test("equals go by most recent use, then by lowest id", () => {
  const tabs = [tab(5, 1, false, 10), tab(3, 1, false, 10), tab(4, 1, false, 30)];
  assertEquals(rankTabs(tabs, 1).map((t) => t.id), [4, 3, 5]);
});

Deno.test("ranking leaves the input alone", () => {
  const tabs = [tab(2, 1, false), tab(1, 1, true)];
  rankTabs(tabs, 1);
  assertEquals(tabs.map((t) => t.id), [2, 1]);
});
