// "Your player" (`#/me`): who this browser plays as, and its key: shown on request to move the
// player to another device (copy or download, with a warning that it is a secret), imported
// from another device (the server says whose key it is; a wrong one changes nothing), and
// replaced when it may have leaked. A player's name cannot be changed: the API has no rename.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { makePlayer, player, replaceKey, suggestedName, usePlayer, whoseKey } from "./player.js";
import { problemText } from "./problems.js";

// A key inside whatever was pasted or loaded (the exported file has a line of warning too).
const keyIn = (text) => (String(text).match(/pk_[A-Za-z0-9_-]{20,}/) || [String(text).trim()])[0];

export function showMe(root) {
  const me = player();
  replace(root, h("section", { id: "me" },
    h("h1", {}, t("me.title")),
    me ? [
      h("p", { id: "me-who" }, t("me.as_before"), h("strong", { id: "me-name" }, me.name), "."),
      h("p", { class: "note" }, t("me.no_rename")),
      h("p", {}, h("a", { href: "#/tables" }, t("mine.title"))),
      exportSection(me),
    ] : [h("p", {}, t("me.none")), welcomeForm(() => showMe(root))],
    importSection(root, me),
    me ? replaceSection(root) : null));
  return () => {};
}

// The first visit's form: a name (suggested until changed) that makes the player.
export function welcomeForm(onMade) {
  const name = h("input", { id: "name", name: "name", required: true, maxlength: 64, autocomplete: "nickname",
    value: suggestedName(t("me.default_name")) });
  const problem = h("p", { id: "welcome-problem", role: "alert", hidden: true });
  const form = h("form", { id: "welcome" },
    h("p", {}, t("me.welcome")),
    h("div", { class: "row" }, h("label", { for: "name" }, `${t("lobby.name")} `), name,
      h("button", { type: "submit", id: "make-player" }, t("me.make"))),
    problem);
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      onMade(await makePlayer(name.value.trim()));
    } catch (error) {
      problem.hidden = false;
      problem.textContent = problemText(error);
    }
  };
  return form;
}

function exportSection(me) {
  const shown = h("div", { id: "key-shown", hidden: true });
  const said = h("p", { id: "key-said", "aria-live": "polite" });
  const reveal = h("button", { type: "button", id: "show-key", onclick: () => {
    reveal.hidden = true;
    shown.hidden = false;
    shown.querySelector("#key-out").select();
  } }, t("me.show_key"));
  const output = h("input", { id: "key-out", readonly: true, value: me.key, spellcheck: "false", autocomplete: "off", class: "key" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(me.key);
      said.textContent = t("me.copied");
    } catch {
      output.select();
      said.textContent = t("me.copy_failed");
    }
  };
  const download = () => {
    const text = `${t("me.file_warning", me.name)}\n${me.key}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = h("a", { href: url, download: "cardroom-player-key.txt", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  replace(shown,
    h("div", { class: "row" }, h("label", { for: "key-out" }, `${t("me.your_key")} `), output),
    h("div", { class: "row" },
      h("button", { type: "button", id: "copy-key", onclick: copy }, t("me.copy")),
      h("button", { type: "button", id: "download-key", onclick: download }, t("me.download"))),
    said);
  return h("section", { id: "export", "aria-labelledby": "export-title" },
    h("h2", { id: "export-title" }, t("me.export")),
    h("p", { class: "warning", id: "key-warning" }, t("me.secret")),
    h("p", {}, t("me.export_how")),
    reveal, shown);
}

function importSection(root, me) {
  const input = h("input", { id: "key-in", autocomplete: "off", spellcheck: "false", class: "key" });
  // The browser words a file input itself ("Choose File", in its own language): a label in the
  // page's language stands in for it, the input itself hidden but still focusable.
  const file = h("input", { id: "key-file", type: "file", accept: ".txt,text/plain", class: "visually-hidden" });
  const problem = h("p", { id: "import-problem", role: "alert", hidden: true });
  const say = (text) => {
    problem.hidden = !text;
    problem.textContent = text;
  };
  file.addEventListener("change", async () => {
    if (file.files[0]) input.value = keyIn(await file.files[0].text());
  });
  const form = h("form", { id: "import" },
    h("div", { class: "row" }, h("label", { for: "key-in" }, `${t("me.key")} `), input),
    h("div", { class: "row" }, file, h("label", { for: "key-file", class: "file-button" }, t("me.key_file"))),
    problem,
    h("button", { type: "submit", id: "import-key" }, t("me.import_button")));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const key = keyIn(input.value);
    if (!key) return say(t("me.import.empty"));
    if (me && key === me.key) return say(t("me.import.same"));
    let found;
    try {
      found = await whoseKey(key);
    } catch (error) {
      return say(error.status === 401 ? t("me.import.wrong") : problemText(error));
    }
    // Another player than this browser's: forgetting it here is the reader's call.
    if (me && found.id !== me.id && !confirm(t("me.import.confirm", me.name, found.name))) return;
    usePlayer(found);
    showMe(root);
    root.querySelector("#me-who").append(" ", h("span", { id: "imported", role: "status" }, t("me.imported")));
  };
  return h("section", { id: "import-section", "aria-labelledby": "import-title" },
    h("h2", { id: "import-title" }, t("me.import")),
    h("p", {}, t("me.import_how")),
    me ? h("p", { class: "warning" }, t("me.import_replaces", me.name)) : null,
    form);
}

function replaceSection(root) {
  const problem = h("p", { id: "replace-problem", role: "alert", hidden: true });
  const button = h("button", { type: "button", id: "replace-key", onclick: async () => {
    if (!confirm(t("me.replace.confirm"))) return;
    button.disabled = true;
    try {
      await replaceKey();
    } catch (error) {
      button.disabled = false;
      problem.hidden = false;
      problem.textContent = problemText(error);
      return;
    }
    showMe(root);
    root.querySelector("#me-who").append(" ", h("span", { id: "replaced", role: "status" }, t("me.replaced")));
  } }, t("me.replace_button"));
  return h("section", { id: "replace", "aria-labelledby": "replace-title" },
    h("h2", { id: "replace-title" }, t("me.replace")),
    h("p", {}, t("me.replace_how")),
    problem, button);
}
