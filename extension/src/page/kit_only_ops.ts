/**
 * The kit's operations that no browser method names one to one: the worker calls them on its way
 * to a method's answer (trusted input finds an element's point on screen with one, then acts
 * through the debugger). Each entry is the operation's name and its arguments as they cross from
 * the worker (JSON); a ref in them is resolved by the worker as for any operation (`ref: KitRef`).
 */
// deno-lint-ignore no-empty-interface
export interface KitOnlyArgs {}

export type KitOnlyOp = keyof KitOnlyArgs;
