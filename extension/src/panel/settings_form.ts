/**
 * A plugin's settings form, generated from its `configSchema`: a text box per string, a number
 * box, a checkbox, a list for a select, and rows of name + URL for a `url` field (its instances).
 * It starts from the hub's resolved settings; Save sends only what changed
 * (`config.setPluginSettings`), and the hub's refusal shows beside the fields it names. While the
 * person edits, state pushes do not overwrite the form.
 */
import type { SyncPlugin } from "../../../protocol/events.ts";
import { h, setText, uid } from "./dom.ts";
import { instanceEditor } from "./instance_editor.ts";
import {
  fieldErrors,
  type FormField,
  formFields,
  initialValue,
  type InstanceRow,
  parseForm,
  type RawValue,
} from "./settings_model.ts";
import { errorText, type ViewContext } from "./view_context.ts";

interface FieldControl {
  field: FormField;
  el: HTMLElement;
  read(): RawValue;
  /** Text the control holds that is no value (a number box with letters). */
  badInput(): string | undefined;
  write(value: RawValue): void;
  setDisabled(disabled: boolean): void;
  showError(text: string | undefined): void;
}

function inputFor(field: FormField, id: string, describedBy: string, onInput: () => void) {
  const common = {
    id,
    "aria-describedby": describedBy,
    "data-testid": `setting-input-${field.key}`,
  };
  switch (field.kind) {
    case "select":
      return h(
        "select",
        { ...common, onchange: onInput },
        field.options!.map((o) => h("option", { value: o }, o)),
      );
    case "boolean":
      return h("input", { ...common, type: "checkbox", onchange: onInput });
    case "number":
      return h("input", {
        ...common,
        type: "number",
        min: field.min,
        max: field.max,
        step: field.integer ? 1 : "any",
        inputmode: field.integer ? "numeric" : "decimal",
        oninput: onInput,
      });
    default:
      return h("input", { ...common, type: "text", spellcheck: "false", oninput: onInput });
  }
}

function fieldControl(field: FormField, onInput: () => void): FieldControl {
  const id = uid(`setting-${field.key}`);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const error = h("p", {
    class: "error",
    id: errorId,
    hidden: true,
    "data-testid": `setting-error-${field.key}`,
  });
  const help = field.description
    ? h("p", { class: "muted small", id: helpId }, field.description)
    : undefined;
  const describedBy = [help ? helpId : "", errorId].filter(Boolean).join(" ");
  let control: FieldControl;
  if (field.kind === "url") {
    const editor = instanceEditor({ key: field.key, label: field.label, onInput });
    const el = h(
      "fieldset",
      { class: "field", "data-testid": `setting-${field.key}`, "aria-describedby": describedBy },
      h("legend", {}, field.label, field.required ? " (required)" : ""),
      help,
      editor.el,
      error,
    );
    control = {
      field,
      el,
      read: () => editor.value(),
      badInput: () => undefined,
      write: (value) => editor.set(value as InstanceRow[]),
      setDisabled: (d) => editor.setDisabled(d),
      showError: () => {},
    };
  } else {
    const input = inputFor(field, id, describedBy, onInput);
    const label = h("label", { for: id }, field.label);
    const el = h(
      "div",
      { class: `field field-${field.kind}`, "data-testid": `setting-${field.key}` },
      field.kind === "boolean" ? h("div", { class: "check-row" }, input, label) : [label, input],
      help,
      error,
    );
    const box = input as HTMLInputElement;
    control = {
      field,
      el,
      read: () => field.kind === "boolean" ? box.checked : input.value,
      badInput: () => box.validity?.badInput ? "enter a number" : undefined,
      write: (value) => {
        if (field.kind === "boolean") box.checked = value === true;
        else input.value = String(value);
      },
      setDisabled: (d) => (input.disabled = d),
      showError: () => {},
    };
  }
  control.showError = (text) => {
    setText(error, text ?? "");
    error.hidden = !text;
    control.el.classList.toggle("invalid", Boolean(text));
  };
  return control;
}

export interface SettingsForm {
  el: HTMLElement;
  update(plugin: SyncPlugin, enabled: boolean): void;
}

export function settingsForm(ctx: ViewContext): SettingsForm {
  let plugin: SyncPlugin | undefined;
  let controls: FieldControl[] = [];
  let schemaKey: string | undefined;
  let loaded = "";
  let dirty = false;
  let saving = false;
  let enabled = true;
  const summary = h("summary", {}, "Settings");
  const fieldsBox = h("div", { class: "fields" });
  const skippedNote = h("p", { class: "muted small", hidden: true });
  const status = h("p", { class: "small muted", role: "status", "data-testid": "settings-status" });
  const formError = h("p", { class: "error", hidden: true, "data-testid": "settings-error" });
  const save = h(
    "button",
    { type: "submit", class: "primary", "data-testid": "save-settings" },
    "Save",
  );
  const form = h(
    "form",
    { class: "settings-form", novalidate: true, onsubmit: submit },
    fieldsBox,
    skippedNote,
    h("div", { class: "actions" }, save),
    formError,
    status,
  );
  const el = h("details", { class: "settings", "data-testid": "settings" }, summary, form);

  const edited = () => {
    dirty = true;
    setText(status, "");
  };

  function load(p: SyncPlugin) {
    for (const c of controls) {
      c.write(initialValue(c.field, p.settings));
      c.showError(undefined);
    }
    loaded = JSON.stringify(p.settings);
    dirty = false;
  }

  function build(p: SyncPlugin) {
    const { fields, skipped } = formFields(p.configSchema);
    controls = fields.map((f) => fieldControl(f, edited));
    fieldsBox.replaceChildren(...controls.map((c) => c.el));
    skippedNote.hidden = skipped.length === 0;
    setText(
      skippedNote,
      `Not editable here: ${skipped.join(", ")}. Use “hub plugin configure ${p.name}”.`,
    );
    setText(summary, `Settings (${fields.length})`);
    el.hidden = fields.length === 0 && skipped.length === 0;
    schemaKey = JSON.stringify(p.configSchema ?? {});
    load(p);
  }

  function showHubError(message: string) {
    const { byField, rest } = fieldErrors(message, controls.map((c) => c.field.key));
    for (const c of controls) c.showError(byField[c.field.key]);
    setText(formError, rest ? `Not saved: ${rest}` : "Not saved: fix the fields marked above.");
    formError.hidden = false;
    ctx.announce(`Settings not saved: ${message}`, true);
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (!plugin || saving) return;
    const current = plugin;
    const raw: Record<string, RawValue> = {};
    const errors: Record<string, string> = {};
    for (const c of controls) {
      raw[c.field.key] = c.read();
      const bad = c.badInput();
      if (bad) errors[c.field.key] = bad;
    }
    const parsed = parseForm(controls.map((c) => c.field), raw, current.settings);
    Object.assign(parsed.errors, errors);
    for (const c of controls) c.showError(parsed.errors[c.field.key]);
    formError.hidden = true;
    if (Object.keys(parsed.errors).length > 0) {
      setText(formError, "Not saved: fix the fields marked above.");
      formError.hidden = false;
      ctx.announce("Settings not saved: fix the fields marked above.", true);
      return;
    }
    const keys = Object.keys(parsed.settings);
    if (keys.length === 0) {
      setText(status, "Nothing to save: the form shows the stored settings.");
      return;
    }
    saving = true;
    save.disabled = true;
    setText(status, "Saving…");
    try {
      await ctx.send({
        type: "setPluginSettings",
        plugin: current.name,
        settings: parsed.settings,
      });
      setText(status, `Saved ${keys.join(", ")}.`);
      ctx.announce(`Settings of ${current.displayName} saved.`);
      dirty = false;
      // A state push that came while saving was held back: show what the hub has now.
      if (plugin && JSON.stringify(plugin.settings) !== JSON.stringify(current.settings)) {
        load(plugin);
      } else loaded = "";
    } catch (error) {
      setText(status, "");
      showHubError(errorText(error));
    } finally {
      saving = false;
      save.disabled = !enabled;
    }
  }

  return {
    el,
    update(p, isEnabled) {
      plugin = p;
      enabled = isEnabled;
      if (!dirty && !saving) {
        if (JSON.stringify(p.configSchema ?? {}) !== schemaKey) build(p);
        else if (JSON.stringify(p.settings) !== loaded) load(p);
      }
      for (const c of controls) c.setDisabled(!enabled);
      save.disabled = !enabled || saving;
    },
  };
}
