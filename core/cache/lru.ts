/**
 * A `Map` used as a least-recently-used cache: its insertion order is the order of last use, so
 * the first key is the one to give way. `touch` is the one way in.
 */

/**
 * The value of `key` (made by `make` when missing), now the most recently used; when that takes
 * the map past `max` keys, the least recently used one is dropped.
 */
export function touch<K, V>(map: Map<K, V>, key: K, make: () => V, max: number): V {
  const value = map.has(key) ? map.get(key)! : make();
  map.delete(key); // re-inserted last
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
  return value;
}
