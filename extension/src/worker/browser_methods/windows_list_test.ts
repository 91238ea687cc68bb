/// <reference lib="deno.ns" />
import { withChrome } from "../_test_fixtures.ts";
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { windowsList } from "./windows_list.ts";

Deno.test("windows.list: one compact entry per window", async () => {
  const windows = [
    {
      id: 1,
      focused: true,
      state: "normal",
      type: "normal",
      incognito: false,
      alwaysOnTop: false,
      left: 0,
      top: 10,
      width: 800,
      height: 600,
      tabs: [{ id: 3, active: false }, { id: 5, active: true }],
    },
    { id: 2, focused: false, incognito: true, alwaysOnTop: false, tabs: [] },
  ];
  await withChrome({ windows: { getAll: () => Promise.resolve(windows) } }, async () => {
    // deno-lint-ignore no-explicit-any
    assertEquals(await windowsList({}, undefined as any), {
      windows: [
        {
          windowId: 1,
          focused: true,
          state: "normal",
          type: "normal",
          incognito: false,
          tabCount: 2,
          activeTabId: 5,
          left: 0,
          top: 10,
          width: 800,
          height: 600,
        },
        {
          windowId: 2,
          focused: false,
          state: "normal",
          type: "normal",
          incognito: true,
          tabCount: 0,
          activeTabId: null,
          left: null,
          top: null,
          width: null,
          height: null,
        },
      ],
    });
  });
});
