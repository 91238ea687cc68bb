/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { withChrome } from "../_test_fixtures.ts";
import type { AgentGroup } from "../agent_group.ts";
import type { MethodContext } from "./browser_method.ts";
import { tabsList } from "./tabs_list.ts";

Deno.test("tabs.list marks the agent's tabs and joins none to the group", async () => {
  const joined: number[] = [];
  const agentGroup: AgentGroup = {
    join: (tabId) => Promise.resolve(void joined.push(tabId)),
    opened: (tabId) => Promise.resolve(void joined.push(tabId)),
    has: () => Promise.resolve(true),
    isMember: (tab) => tab.groupId === 5,
  };
  const context = {
    dialogs: { open: () => undefined },
    agentGroup,
  } as unknown as MethodContext;
  const tab = (id: number, groupId: number) => ({
    id,
    windowId: 1,
    url: `https://example.com/${id}`,
    title: `Tab ${id}`,
    active: id === 1,
    status: "complete",
    groupId,
  });
  await withChrome({
    tabs: { query: () => Promise.resolve([tab(1, 5), tab(2, -1), tab(3, 8)]) },
  }, async () => {
    const { tabs } = await tabsList({}, context);
    assertEquals(tabs.map((t) => [t.tabId, t.agentGroup]), [[1, true], [2, false], [3, false]]);
    assertEquals(tabs[0], {
      tabId: 1,
      windowId: 1,
      url: "https://example.com/1",
      title: "Tab 1",
      active: true,
      status: "complete",
      dialog: null,
      agentGroup: true,
    });
  });
  assertEquals(joined, []);
});
