/**
 * `dom.click` (browser_click_element): clicks the first element matching a CSS selector, after
 * scrolling it into view. Runs in the extension's isolated world, which shares the page's DOM but
 * not its scripts, so a page cannot fake the outcome.
 */
import { type BrowserMethod, firstResult, targetTab, toolFailure } from "./browser_method.ts";

type Outcome =
  | { clicked: true; tag: string; text: string }
  | { clicked: false; reason: "invalid" | "missing"; message: string };

/** Runs in the page; self-contained. */
function clickFirst(selector: string): Outcome {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch (error) {
    return { clicked: false, reason: "invalid", message: (error as Error).message };
  }
  if (!element) return { clicked: false, reason: "missing", message: "" };
  element.scrollIntoView({ block: "center", inline: "center" });
  if (element instanceof HTMLElement) element.click();
  else element.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 200);
  return { clicked: true, tag: element.tagName.toLowerCase(), text };
}

export const domClick: BrowserMethod = async (input, { calls }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const selector = String(input.selector);
  const outcome = await calls.run(tabId, "browser_click_element", async () =>
    firstResult<Outcome>(
      await chrome.scripting.executeScript({
        target: { tabId },
        func: clickFirst,
        args: [selector],
      }),
    ));
  if (outcome.clicked) return { tabId, ...outcome };
  if (outcome.reason === "invalid") {
    throw toolFailure(
      "INVALID_SELECTOR",
      `"${selector}" is not a valid CSS selector: ${outcome.message}`,
      "validation",
    );
  }
  throw toolFailure(
    "ELEMENT_NOT_FOUND",
    `No element matches "${selector}" in tab ${tabId} (${tab.url}).`,
    "not_found",
  );
};
