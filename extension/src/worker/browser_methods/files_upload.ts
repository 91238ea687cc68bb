/**
 * `files.upload` (browser_upload_file): sets local files on a file input through the debugger.
 * The hub checked every path and wrote every base64 file before the call came here
 * (server/browser_tools/upload_file.ts), so the input holds only `{ path }` entries.
 *
 * - An `<input type=file>`: `DOM.setFileInputFiles` on it (hidden inputs too: pages often hide the
 *   input behind a styled label). Chromium fires its `input` and `change` events.
 * - Anything else (a button, a label, a drop zone that opens a chooser on click): file chooser
 *   interception on (`Page.setInterceptFileChooserDialog`), a trusted click at its visible center,
 *   and the chooser it opens (`Page.fileChooserOpened`, which names its input) is filled the same
 *   way; no native dialog appears. No chooser within CHOOSER_WAIT_MS: NOT_A_FILE_INPUT.
 */
import { hubError } from "../../../../protocol/errors.ts";
import { quoteClip } from "../../../../protocol/clip.ts";
import type { CdpEvent, TabSession } from "../debugger_sessions.ts";
import { baseName } from "../downloads.ts";
import { type BrowserMethod, type MethodContext, targetTab } from "./browser_method.ts";
import { releaseNodes, type ResolvedNode, resolveNode } from "./debugger_nodes.ts";
import { type ElementTarget, pointAt } from "./element_point.ts";
import { mouseClick } from "./trusted_pointer.ts";

const TOOL = "browser_upload_file";
/** How long a click is given to open a file chooser. */
export const CHOOSER_WAIT_MS = 2_000;

export const filesUpload: BrowserMethod<"files.upload"> = async (input, context) => {
  const paths = input.files.map((file) => "path" in file ? file.path : undefined);
  if (paths.some((path) => path === undefined)) {
    // The hub turns every base64 file into a path: this call did not come through it.
    throw hubError(
      "INVALID_ARGUMENTS",
      "browser_upload_file received file content instead of paths: update the hub (hub start).",
    );
  }
  const files = paths as string[];
  const tab = await targetTab({ tabId: input.tabId });
  const tabId = tab.id!;
  const target: ElementTarget = { ref: input.ref, selector: input.selector, frame: input.frame };
  const names = files.map(baseName);
  return await context.calls.run(tabId, TOOL, async () => {
    const session = await context.sessions.session(tabId);
    const node = await resolveNode(session, tabId, target, context, TOOL);
    try {
      const kind = await inputKind(session, node);
      const element = { ref: node.ref, tag: kind.tag };
      if (kind.file) {
        if (kind.disabled) {
          throw hubError("NOT_A_FILE_INPUT", `${what(target)} is a disabled file input.`);
        }
        if (files.length > 1 && !kind.multiple) throw notMultiple(target, files.length);
        await session.send("DOM.setFileInputFiles", { files, objectId: node.objectId }, {
          sessionId: node.sessionId,
        });
        return { tabId, files: names, via: "input" as const, element };
      }
      await fillChooser(tabId, session, node, target, files, context);
      return { tabId, files: names, via: "chooser" as const, element, input: "trusted" as const };
    } finally {
      await releaseNodes(session, node.sessionId);
    }
  });
};

/** What the element is, read in its own isolated world. */
async function inputKind(session: TabSession, node: ResolvedNode) {
  const { result } = await session.send<{ result?: { value?: unknown } }>(
    "Runtime.callFunctionOn",
    {
      objectId: node.objectId,
      functionDeclaration: describeInput.toString(),
      returnByValue: true,
      silent: true,
    },
    { sessionId: node.sessionId },
  );
  return (result?.value ?? { tag: "?", file: false }) as ReturnType<typeof describeInput>;
}

/** Runs on the element (serialized by CDP): its tag, and whether it is a file input. */
function describeInput(this: Element) {
  const input = this as HTMLInputElement;
  const file = this.localName === "input" && input.type === "file";
  return {
    tag: this.localName,
    file,
    multiple: file && input.multiple,
    disabled: file && input.disabled,
  };
}

/** Clicks the element for real with file choosers intercepted, and fills the one it opens. */
async function fillChooser(
  tabId: number,
  session: TabSession,
  node: ResolvedNode,
  target: ElementTarget,
  files: string[],
  context: MethodContext,
) {
  const sessionIds = [...new Set([undefined, node.sessionId])];
  let stop = () => {};
  const opened = new Promise<CdpEvent>((resolve) => {
    stop = context.sessions.onEvent((event) => {
      if (event.tabId === tabId && event.method === "Page.fileChooserOpened") resolve(event);
    });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CHOOSER_WAIT_MS);
  });
  try {
    for (const sessionId of sessionIds) {
      await session.send("Page.enable", {}, { sessionId });
      await session.send("Page.setInterceptFileChooserDialog", { enabled: true }, { sessionId });
    }
    const point = await pointAt(tabId, { ref: node.ref }, context, TOOL, {
      scroll: true,
      hitCheck: true,
    });
    await mouseClick(session, point.x, point.y);
    const chooser = await Promise.race([opened, late]);
    if (!chooser) {
      throw hubError(
        "NOT_A_FILE_INPUT",
        `${what(target)} is no file input, and a click on it opened no file chooser within ` +
          `${CHOOSER_WAIT_MS} ms. Find the page's <input type=file> (browser_query_elements ` +
          '"input[type=file]", hidden ones too) or the button that opens it.',
      );
    }
    const { backendNodeId, mode } = chooser.params as { backendNodeId?: number; mode?: string };
    if (typeof backendNodeId !== "number") {
      throw hubError(
        "NOT_A_FILE_INPUT",
        `A click on ${what(target)} opened a file picker that belongs to no file input (the ` +
          "File System Access API), which hub cannot fill.",
      );
    }
    if (files.length > 1 && mode !== "selectMultiple") throw notMultiple(target, files.length);
    await session.send("DOM.setFileInputFiles", { files, backendNodeId }, {
      sessionId: chooser.sessionId,
    });
  } finally {
    clearTimeout(timer);
    stop();
    for (const sessionId of sessionIds) {
      await session.send("Page.setInterceptFileChooserDialog", { enabled: false }, { sessionId })
        .catch(() => {});
    }
  }
}

function notMultiple(target: ElementTarget, count: number) {
  return hubError(
    "INVALID_ARGUMENTS",
    `${what(target)} takes one file (it has no multiple attribute), and ${count} were given.`,
  );
}

/** How messages name the target: `ref "e12"` or the quoted selector (in its frame). */
function what(target: ElementTarget): string {
  if (target.ref) return `The element of ref "${target.ref}"`;
  const frame = target.frame ? ` in frame ${quoteClip(target.frame)}` : "";
  return `The element ${quoteClip(target.selector ?? "")}${frame}`;
}
