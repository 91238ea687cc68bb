/**
 * The editor of a `url` setting: rows of instance name and URL, with a button to add a row and
 * one to remove each. `value()` is the rows as typed; settings_model.ts turns them into the map.
 */
import { h, uid } from "./dom.ts";
import type { InstanceRow } from "./settings_model.ts";

export interface InstanceEditor {
  el: HTMLElement;
  value(): InstanceRow[];
  set(rows: InstanceRow[]): void;
  setDisabled(disabled: boolean): void;
}

export interface InstanceEditorOptions {
  key: string;
  /** The field's label, for the inputs' accessible names. */
  label: string;
  /** A row was typed in, added or removed. */
  onInput(): void;
}

export function instanceEditor(options: InstanceEditorOptions): InstanceEditor {
  const list = h("ul", { class: "instance-rows", "data-testid": `instances-${options.key}` });
  let disabled = false;
  const add = h("button", {
    type: "button",
    class: "small-button",
    "data-testid": `add-instance-${options.key}`,
    onclick: () => {
      addRow({ name: list.children.length === 0 ? "default" : "", url: "" });
      options.onInput();
      const inputs = list.lastElementChild?.querySelectorAll("input");
      (list.children.length > 1 ? inputs?.[0] : inputs?.[1])?.focus();
    },
  }, "Add instance");

  function addRow(row: InstanceRow) {
    const id = uid("instance");
    const name = h("input", {
      type: "text",
      id: `${id}-name`,
      class: "instance-name",
      value: row.name,
      placeholder: "name",
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": `${options.label}: instance name`,
      "data-testid": "instance-name",
      oninput: options.onInput,
    });
    const url = h("input", {
      type: "url",
      id: `${id}-url`,
      class: "instance-url",
      value: row.url,
      placeholder: "https://app.example.com",
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": `${options.label}: URL`,
      "data-testid": "instance-url",
      oninput: options.onInput,
    });
    const li = h("li", { class: "instance-row" }, name, url);
    const remove = h("button", {
      type: "button",
      class: "icon-button",
      title: "Remove this instance",
      "aria-label": `Remove instance ${row.name || "(unnamed)"}`,
      "data-testid": "remove-instance",
      onclick: () => {
        const next = li.nextElementSibling ?? li.previousElementSibling;
        li.remove();
        options.onInput();
        (next?.querySelector("input") as HTMLInputElement | null)?.focus() ?? add.focus();
      },
    }, "×");
    li.append(remove);
    for (const control of [name, url, remove]) control.disabled = disabled;
    list.append(li);
  }

  return {
    el: h("div", { class: "instance-editor" }, list, add),
    value: () =>
      [...list.children].map((li) => ({
        name: (li.querySelector(".instance-name") as HTMLInputElement).value,
        url: (li.querySelector(".instance-url") as HTMLInputElement).value,
      })),
    set(rows) {
      list.replaceChildren();
      rows.forEach(addRow);
    },
    setDisabled(value) {
      disabled = value;
      add.disabled = value;
      for (const control of list.querySelectorAll("input, button")) {
        (control as HTMLInputElement).disabled = value;
      }
    },
  };
}
