/**
 * Running one function in several frames of a tab at once, for the methods that read or address
 * frames (page_text_frames.ts, frame_target.ts).
 */
import { withTimeout } from "../../../../protocol/with_timeout.ts";

/**
 * How long one frame may take to answer, in milliseconds. A frame that never answers (a busy
 * loop, a synchronous request that hangs) is then left out, so it cannot hold the call until the
 * hub's deadline (docs/browser_tools.md, "Page text: frames and hidden text").
 */
export const FRAME_ANSWER_MS = 3_000;

type Answers<T> = chrome.scripting.InjectionResult<T>[];

/**
 * One injection per frame of `frameIds`, all at once; each frame's answer is awaited at most
 * `waitMs`. A frame that cannot be scripted, fails or answers late is absent from the result.
 */
export async function inFrames<T>(
  tabId: number,
  frameIds: number[],
  inject: (target: chrome.scripting.InjectionTarget) => Promise<Answers<T>>,
  waitMs = FRAME_ANSWER_MS,
): Promise<Map<number, T>> {
  const answers = new Map<number, T>();
  await Promise.all(frameIds.map(async (frameId) => {
    try {
      const injected = Promise.resolve().then(() => inject({ tabId, frameIds: [frameId] }));
      const results = await withTimeout<Answers<T> | undefined>(injected, waitMs, undefined);
      for (const r of results ?? []) {
        if (r.result !== undefined) answers.set(r.frameId, r.result as T);
      }
    } catch {
      /* that frame cannot be scripted */
    }
  }));
  return answers;
}
