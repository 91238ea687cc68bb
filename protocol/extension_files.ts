/**
 * What `extension/dist/` holds, by file name: the bundles esbuild makes from `extension/src/`,
 * the files copied as they are, and the generated icons. `hub start` installs exactly these
 * (server/extension/install.ts). Add a file: one line here.
 */

/** Bundled script (dist name) → its entry point under `extension/src/`. */
export const EXTENSION_BUNDLES: Record<string, string> = {
  "background.js": "worker/background.ts",
  "dom_kit.js": "page/dom_kit.ts",
  "panel.js": "panel/panel.ts",
};

/** Files copied from `extension/src/` unchanged (dist name → source path). */
export const EXTENSION_STATIC: Record<string, string> = {
  "panel.html": "panel/panel.html",
  "panel.css": "panel/panel.css",
};

/** Toolbar, notification and extensions-page icons, drawn by `extension/icons.ts`. */
export const EXTENSION_ICON_SIZES = [16, 32, 48, 128] as const;
export const iconFile = (size: number) => `icon${size}.png`;

/** Every installed file. */
export const EXTENSION_FILES: string[] = [
  "manifest.json",
  ...Object.keys(EXTENSION_BUNDLES),
  ...Object.keys(EXTENSION_STATIC),
  ...EXTENSION_ICON_SIZES.map(iconFile),
];
