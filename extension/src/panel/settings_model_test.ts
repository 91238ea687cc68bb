/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { fieldErrors, formFields, initialValue, parseForm, rowsToMap } from "./settings_model.ts";

const SCHEMA = {
  instances: { type: "url", label: "Instances", description: "Where it runs", required: true },
  mode: { type: "select", label: "Mode", options: ["fast", "thorough"], default: "fast" },
  verbose: { type: "boolean", label: "Verbose" },
  pageSize: { type: "number", label: "Page size", min: 1, max: 100, integer: true },
  title: { type: "string", label: "" },
  odd: { type: "color", label: "Colour" },
  empty: { type: "select", label: "No options", options: [] },
};

Deno.test("the form's fields follow the schema; unknown types are skipped and named", () => {
  const { fields, skipped } = formFields(SCHEMA);
  assertEquals(fields, [
    {
      key: "instances",
      kind: "url",
      label: "Instances",
      description: "Where it runs",
      required: true,
    },
    { key: "mode", kind: "select", label: "Mode", options: ["fast", "thorough"] },
    { key: "verbose", kind: "boolean", label: "Verbose" },
    { key: "pageSize", kind: "number", label: "Page size", min: 1, max: 100, integer: true },
    { key: "title", kind: "string", label: "title" },
  ]);
  assertEquals(skipped, ["odd", "empty"]);
  assertEquals(formFields(undefined), { fields: [], skipped: [] });
});

Deno.test("starting values come from the resolved settings, url fields as instance rows", () => {
  const { fields } = formFields(SCHEMA);
  const settings = {
    instances: { work: "https://a.example", home: "https://b.example" },
    mode: "thorough",
    pageSize: 20,
  };
  assertEquals(fields.map((f) => initialValue(f, settings)), [
    [{ name: "work", url: "https://a.example" }, { name: "home", url: "https://b.example" }],
    "thorough",
    false,
    "20",
    "",
  ]);
  // No instances yet: one empty row named "default" to fill in.
  assertEquals(initialValue(fields[0], {}), [{ name: "default", url: "" }]);
  assertEquals(initialValue(fields[0], { instances: "https://c.example" }), [
    { name: "default", url: "https://c.example" },
  ]);
});

Deno.test("instance rows become the map the hub stores", () => {
  assertEquals(rowsToMap([{ name: " work ", url: " https://a.example " }, { name: "", url: "" }]), {
    map: { work: "https://a.example" },
  });
  assertEquals(rowsToMap([{ name: "", url: "https://a.example" }]), {
    map: { default: "https://a.example" },
  });
  assertEquals(
    rowsToMap([{ name: "a", url: "https://a.example" }, { name: "", url: "https://b.example" }])
      .error,
    "give the instance at https://b.example a name",
  );
  assertEquals(rowsToMap([{ name: "a", url: "" }]).error, 'instance "a" needs a URL');
  assertEquals(
    rowsToMap([{ name: "a", url: "https://x.example" }, { name: "a", url: "https://y.example" }])
      .error,
    'instance "a" is listed twice',
  );
});

Deno.test("a filled-in form sends only what changed; cleared fields send null", () => {
  const { fields } = formFields(SCHEMA);
  const current = {
    instances: { default: "https://a.example" },
    mode: "fast",
    verbose: false,
    pageSize: 20,
  };
  const unchanged = parseForm(fields, {
    instances: [{ name: "default", url: "https://a.example" }],
    mode: "fast",
    verbose: false,
    pageSize: "20",
    title: "",
  }, current);
  assertEquals(unchanged, { settings: {}, errors: {} });

  const edited = parseForm(fields, {
    instances: [{ name: "default", url: "https://a.example" }, { name: "b", url: "https://b.x" }],
    mode: "thorough",
    verbose: true,
    pageSize: "",
    title: " Hello ",
  }, current);
  assertEquals(edited, {
    settings: {
      instances: { default: "https://a.example", b: "https://b.x" },
      mode: "thorough",
      verbose: true,
      pageSize: null,
      title: "Hello",
    },
    errors: {},
  });

  const cleared = parseForm(fields, { instances: [{ name: "default", url: "" }] }, current);
  assertEquals(cleared.settings, { instances: null });

  const bad = parseForm(
    fields,
    { pageSize: "twelve", instances: [{ name: "x", url: "" }] },
    current,
  );
  assertEquals(bad, {
    settings: {},
    errors: { pageSize: '"twelve" is not a number', instances: 'instance "x" needs a URL' },
  });
});

Deno.test("the hub's refusal is split into one message per field it names", () => {
  const keys = ["instances", "pageSize", "mode"];
  assertEquals(
    fieldErrors(
      'Settings of "test-app": pageSize: must be at most 100; instances: instance "default": ' +
        '"nope" is not a valid URL (for example "https://app.example.com")',
      keys,
    ),
    {
      byField: {
        pageSize: "must be at most 100",
        instances:
          'instance "default": "nope" is not a valid URL (for example "https://app.example.com")',
      },
    },
  );
  assertEquals(
    fieldErrors('Settings of "x": mode: must be one of "a"; b; and 3 more problems', keys),
    { byField: { mode: 'must be one of "a"; b' }, rest: "and 3 more problems" },
  );
  assertEquals(fieldErrors('No plugin "x" is loaded (plugins: none).', keys), {
    byField: {},
    rest: 'No plugin "x" is loaded (plugins: none).',
  });
});
