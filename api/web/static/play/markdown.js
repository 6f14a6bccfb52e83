// Just enough Markdown for the rules guides and the glossary (/play/guides/*.md, the same text
// as docs/rules/guides/): headings, paragraphs, lists, tables, **bold**, *italics*,
// `code` and [links](url). Everything goes in as text nodes, never as HTML.

import { h } from "./dom.js";

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`|\[(.+?)\]\((.+?)\)/g;

export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(h("strong", {}, inline(m[1])));
    else if (m[2] !== undefined) out.push(h("em", {}, inline(m[2])));
    else if (m[3] !== undefined) out.push(h("code", {}, m[3]));
    else out.push(h("a", { href: link(m[5]) }, inline(m[4])));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "");
}

// Links between guides are written for docs/ ("<game>.en.md"); in the page they are routes.
function link(target) {
  const guide = target.match(/^(\w+)\.(en|fr)\.md(#.*)?$/);
  if (!guide) return target.startsWith("#") || target.startsWith("/") ? target : "#/";
  return guide[1] === "glossary" ? "#/glossary" : `#/rules/${guide[1]}`;
}

const cells = (line) => line.replace(/^\s*\|/, "").replace(/\|\s*$/, "").split("|").map((c) => c.trim());

// `headingLevel`: the level a "#" heading becomes in the page ("##" one more, and so on).
export function render(markdown, { headingLevel = 2 } = {}) {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, "").split("\n");
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      const level = Math.min(6, heading[1].length - 1 + headingLevel);
      blocks.push(h(`h${level}`, { id: slug(heading[2]) }, inline(heading[2])));
      i++;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(cells(lines[i++]));
      const body = rows.filter((row, k) => k !== 1 || !row.every((c) => /^:?-+:?$/.test(c)));
      blocks.push(h("table", {}, h("thead", {}, h("tr", {}, body[0].map((c) => h("th", { scope: "col" }, inline(c))))),
        h("tbody", {}, body.slice(1).map((row) => h("tr", {}, row.map((c) => h("td", {}, inline(c))))))));
      continue;
    }
    const bullet = line.match(/^(\s*)([-*]|\d+\.)\s+/);
    if (bullet) {
      const ordered = /\d/.test(bullet[2]);
      const items = [];
      while (i < lines.length && lines[i].trim()) {
        const item = lines[i].match(/^\s*([-*]|\d+\.)\s+(.*)$/);
        if (item) items.push(item[2]);
        else items[items.length - 1] += ` ${lines[i].trim()}`; // a continued item
        i++;
      }
      blocks.push(h(ordered ? "ol" : "ul", {}, items.map((item) => h("li", {}, inline(item)))));
      continue;
    }
    const paragraph = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,4}\s|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) {
      paragraph.push(lines[i++].trim());
    }
    blocks.push(h("p", {}, inline(paragraph.join(" "))));
  }
  return blocks;
}

export const slug = (text) => text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
  .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
