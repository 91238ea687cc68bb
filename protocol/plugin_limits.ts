/**
 * How much a plugin may contain. The hub reads a plugin's files into memory (and writes its adapter
 * again for the extension), so each is bounded; an installed package is also bounded as a whole,
 * unpacked, since a tiny compressed tarball can expand to hundreds of megabytes. A built plugin
 * is far below all of these: the scaffolded adapter is about 90 KB, its tools.json a few KB.
 * docs/plugins.md ("Size limits") lists them for plugin authors.
 */

/** `dist/adapter.iife.js`. */
export const MAX_ADAPTER_BYTES = 5 * 1024 * 1024;
/** `dist/tools.json`. */
export const MAX_TOOLS_FILE_BYTES = 2 * 1024 * 1024;
/** The plugin's package.json. */
export const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;
/** The `hub.icon` SVG; a larger icon (or one that is not a regular file) fails the plugin. */
export const MAX_ICON_BYTES = 64 * 1024;
/** A plugin package as installed: every file in its folder, dependencies included. */
export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;
/** Files (and folders) in an installed plugin package, dependencies included. */
export const MAX_PACKAGE_FILES = 5_000;
