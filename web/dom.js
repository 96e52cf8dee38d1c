// Small DOM helpers shared by the page's modules: element creation (HTML and SVG) and
// copying text to the clipboard on plain-HTTP origins too.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Creates an element; `attrs` become attributes (or listeners for `on…` keys), `children` are nodes or text. */
function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of [children ?? []].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: `h("button", {class: "x", onclick}, "text")`. */
export function h(tag, attrs, children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element: `s("circle", {r: 10})`. */
export function s(tag, attrs, children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Copies `text` to the clipboard; resolves to true on success. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (plain HTTP on another host): the old selection route.
    const area = h("textarea", { readonly: true, class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}
