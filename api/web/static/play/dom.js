// A tiny element builder: h("button", {class: "card", onclick}, "text", child).
// Text always goes in as text nodes, never as HTML, so names typed by players stay inert.

const SVG = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
export const s = (tag, attrs, ...children) =>
  build(document.createElementNS(SVG, tag), attrs, children);

export function replace(parent, ...children) {
  parent.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
}
