#!/usr/bin/env node
// `hub`: runs the hub (main.js) with Deno; see run_deno.cjs.
"use strict";
require("./run_deno.cjs").run("hub", "main.js");
