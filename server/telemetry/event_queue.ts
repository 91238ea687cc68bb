/**
 * The events waiting to be sent, bounded: when it is full the oldest event is dropped, so a
 * receiver that stays down costs a fixed amount of memory however long the hub runs.
 */
export interface EventQueue<T> {
  push(event: T): void;
  /** Removes and returns up to `max` of the oldest events. */
  take(max: number): T[];
  clear(): void;
  readonly size: number;
  /** Events dropped because the queue was full, since it was made. */
  readonly dropped: number;
}

export function createEventQueue<T>(capacity: number): EventQueue<T> {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new Error(`Cannot make an event queue of capacity ${capacity}: it must be at least 1.`);
  }
  let items: T[] = [];
  let dropped = 0;
  return {
    push(event) {
      items.push(event);
      if (items.length > capacity) {
        items.splice(0, items.length - capacity);
        dropped++;
      }
    },
    take(max) {
      return items.splice(0, Math.max(0, max));
    },
    clear() {
      items = [];
    },
    get size() {
      return items.length;
    },
    get dropped() {
      return dropped;
    },
  };
}
