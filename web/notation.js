// The notation the page writes Xiangqi moves in — WXF (`C2.5`), Chinese (炮二平五) or
// ICCS (`h2e2`) — chosen with a switch above the move list and remembered in the
// browser. The server sends each move's names; the page only picks one.

import { h } from "./dom.js";
import { pieceGlyph } from "./pieces.js";

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
 *  ({wxf, chinese}) where the game has them; a Banqi move (no names) as its players read it. */
export function moveName(move, names, notation) {
  if (!names) return banqiMoveName(move);
  return notation !== "iccs" ? names[notation] : move;
}

/** A Banqi move in words: a flip (`b3b3:R`) as "flip b3 俥" (the piece once known), any
 *  other move (`b3b4`) as "b3–b4". */
function banqiMoveName(move) {
  const [squares, piece] = move.split(":");
  const [from, to] = [squares.slice(0, 2), squares.slice(2, 4)];
  if (from !== to) return `${from}–${to}`;
  return piece ? `flip ${from} ${pieceGlyph(piece)}` : `flip ${from}`;
}

/** Traditional characters a player may type, as the server's Chinese names write them. */
const SIMPLIFIED = { 進: "进", 車: "车", 俥: "车", 馬: "马", 傌: "马", 砲: "炮", 後: "后", 帥: "帅", 將: "将" };

/** A typed move made comparable: no spaces or dashes, ASCII letters in lower case, WXF's
 *  `=` (sideways) as `.`, digits ASCII (full-width ones too, as the server writes Black's
 *  Chinese figures), traditional characters simplified. */
function typedKey(text) {
  return [...text.replace(/[\s\-–]/g, "").replace(/=/g, ".")]
    .map((c) => SIMPLIFIED[c] || (c >= "０" && c <= "９" ? String.fromCharCode(c.charCodeAt(0) - 0xfee0) : c))
    .join("").toLowerCase();
}

/** The legal move of `state` that `text` names in any notation (ICCS `h2e2` or `h2-e2`,
 *  WXF `C2.5` or `C2=5`, Chinese 炮二平五; Banqi `b3b4`, `flip b3`), or null. */
export function typedMove(state, text) {
  const key = typedKey(text.replace(/^flip\s*([a-d][1-8])$/i, "$1$1"));
  const index = state.legal.findIndex((move, i) => {
    const names = state.legal_names[i];
    return [move, names?.wxf, names?.chinese].some((name) => name && typedKey(name) === key);
  });
  return index < 0 ? null : state.legal[index];
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
