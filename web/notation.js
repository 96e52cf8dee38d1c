// The notation the page writes Xiangqi moves in — WXF (`C2.5`), Chinese (炮二平五) or
// ICCS (`h2e2`) — chosen with a switch above the move list and remembered in the
// browser. The server sends each move's names; the page only picks one.

import { h } from "./dom.js";

const KEY = "xz-notation";
const CHOICES = [["wxf", "WXF"], ["chinese", "中文"], ["iccs", "ICCS"]];

/** The notation chosen in this page; null until a choice. */
let chosen = null;

/** The chosen notation: this page's choice, else the browser's remembered one, else WXF. */
export function chosenNotation() {
  if (chosen) return chosen;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    // Storage refused (a private window's policy): the default.
  }
  return CHOICES.some(([value]) => value === saved) ? saved : "wxf";
}

/** `move` (ICCS, as the protocol sends it) in `notation`, given its `names`
 *  ({wxf, chinese}) where the game has them (Banqi has none: its moves stay as sent). */
export function moveName(move, names, notation) {
  return names && notation !== "iccs" ? names[notation] : move;
}

/** The name in the chosen notation of `move`, a legal move of `state`'s position. */
export function legalMoveName(state, move) {
  const index = state.legal.indexOf(move);
  return moveName(move, state.legal_names[index], chosenNotation());
}

/** A row of buttons choosing the notation; `onChange()` after a choice. */
export class NotationSwitch {
  constructor(onChange) {
    const choose = (value) => {
      chosen = value;
      try {
        localStorage.setItem(KEY, value);
      } catch {
        // Not remembered beyond this page; still used in it.
      }
      this.update();
      onChange();
    };
    this.element = h("div", { class: "notation-switch", role: "group", "aria-label": "Move notation" },
      CHOICES.map(([value, label]) =>
        h("button", { type: "button", "data-notation": value, onclick: () => choose(value) }, label)));
    this.update();
  }

  /** Marks the chosen notation's button. */
  update() {
    const notation = chosenNotation();
    for (const button of this.element.children) {
      button.setAttribute("aria-pressed", String(button.dataset.notation === notation));
    }
  }
}
