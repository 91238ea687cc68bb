/**
 * Running one function in several frames of a tab at once, for the methods that read or address
 * frames (page_text_frames.ts, frame_target.ts).
 */

/** One injection in `frameIds` (all frames when undefined); per frame when the batch fails. */
export async function inFrames<T>(
  tabId: number,
  frameIds: number[] | undefined,
  inject: (target: chrome.scripting.InjectionTarget) => Promise<
    chrome.scripting.InjectionResult<T>[]
  >,
  all: number[],
): Promise<Map<number, T>> {
  const answers = new Map<number, T>();
  const keep = (results: chrome.scripting.InjectionResult<T>[]) => {
    for (const r of results) if (r.result !== undefined) answers.set(r.frameId, r.result as T);
  };
  try {
    keep(await inject(frameIds ? { tabId, frameIds } : { tabId, allFrames: true }));
    return answers;
  } catch { /* one frame refused the batch: go frame by frame */ }
  for (const frameId of frameIds ?? all) {
    try {
      keep(await inject({ tabId, frameIds: [frameId] }));
    } catch { /* that frame cannot be scripted */ }
  }
  return answers;
}
