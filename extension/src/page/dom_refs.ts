/**
 * The kit's ref registry: one per document (the kit lives in the document's isolated world), so a
 * ref names one element of one document (docs/decisions/063-refs-across-frames.md). It maps a number
 * to a weak reference of its element and each element to its number, so an element keeps its ref
 * across snapshots; nothing is written to the DOM, and the page cannot see, forge or list refs.
 * A random token tells this registry from one a newer kit starts in the same document.
 */
/** A ref as the worker hands it to the kit: its element number, the registry's token, its text. */
export interface KitRef {
  n: number;
  token: string;
  /** The ref as the agent wrote it (`f1e3`), for messages. */
  text: string;
}

/** How this call's document writes its refs, from the worker's frame table. */
export interface RefScheme {
  /** "" for the top document, `f<k>` for another frame's document. */
  prefix: string;
  /**
   * The first number a registry with no refs yet hands out: above every number an earlier top
   * document of the tab handed out, so an old `e5` never names an element of a new page.
   */
  base: number;
}

export interface RefRegistry {
  readonly token: string;
  /** The highest number handed out so far (base − 1 before the first). */
  readonly upTo: number;
  /** The ref text of `element` (`<prefix>e<n>`), handing out a number when it has none yet. */
  refOf(element: Element, scheme: RefScheme): string;
  /**
   * The live element of `ref`: undefined when it left the document (not connected, or adopted
   * into another document, a same-origin frame's) or belongs to another registry.
   */
  elementOf(ref: Pick<KitRef, "n" | "token">): Element | undefined;
  /** Drops the numbers of elements that were collected. */
  prune(): void;
}

/**
 * A registry with a fresh random token, for the elements of `doc` (the kit's document; the tests
 * pass a stand-in).
 */
export function createRefRegistry(
  token: string = crypto.randomUUID(),
  doc: Document = globalThis.document,
): RefRegistry {
  const elements = new Map<number, WeakRef<Element>>();
  const numbers = new WeakMap<Element, number>();
  let next = 0;
  return {
    token,
    get upTo() {
      return next - 1;
    },
    refOf(element, { prefix, base }) {
      let n = numbers.get(element);
      if (n === undefined) {
        if (next === 0) next = Math.max(1, Math.floor(base));
        n = next++;
        numbers.set(element, n);
        elements.set(n, new WeakRef(element));
      }
      return `${prefix}e${n}`;
    },
    elementOf({ n, token: wanted }) {
      if (wanted !== token) return undefined;
      const element = elements.get(n)?.deref();
      // A ref lives while its element is connected in this kit's document (ADR 063): an element
      // the page moved into another document (adoptNode) is stale, not clicked over there.
      return element?.isConnected && element.ownerDocument === doc ? element : undefined;
    },
    prune() {
      for (const [n, ref] of elements) if (!ref.deref()) elements.delete(n);
    },
  };
}
