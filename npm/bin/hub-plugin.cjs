#!/usr/bin/env node
// `hub-plugin`: runs the plugin developer CLI (plugin_cli/main.js) with Deno; see run_deno.cjs.
"use strict";
require("./run_deno.cjs").run("hub-plugin", "plugin_cli/main.js");
