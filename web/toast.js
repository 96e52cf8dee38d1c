// Unobtrusive messages (server errors, "copied"): a small line at the bottom of the
// screen that fades after a few seconds.

import { h } from "./dom.js";

const SHOW_MS = 4000;

/** Shows `message`; `kind` is "error" or "info". */
export function toast(message, kind = "error") {
  let area = document.getElementById("toasts");
  if (!area) {
    area = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(area);
  }
  const line = h("div", { class: `toast ${kind}` }, message);
  area.append(line);
  setTimeout(() => line.classList.add("fading"), SHOW_MS);
  setTimeout(() => line.remove(), SHOW_MS + 600);
}
