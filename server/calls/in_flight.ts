/** Per-plugin count of calls in flight, capped at 25 calls of one plugin at once. */
export const MAX_IN_FLIGHT_PER_PLUGIN = 25;

export interface InFlight {
  /** A release function, or undefined when the group is at its limit. */
  acquire(group: string): (() => void) | undefined;
  count(group: string): number;
}

export function createInFlight(limit = MAX_IN_FLIGHT_PER_PLUGIN): InFlight {
  const counts = new Map<string, number>();
  return {
    acquire(group) {
      const current = counts.get(group) ?? 0;
      if (current >= limit) return undefined;
      counts.set(group, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(group) ?? 1) - 1;
        if (left <= 0) counts.delete(group);
        else counts.set(group, left);
      };
    },
    count: (group) => counts.get(group) ?? 0,
  };
}
