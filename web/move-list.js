// The move list, two plies a line, in the chosen notation (a switch above it, for
// Xiangqi), with buttons to step through the game: a ply whose board is known can be
// clicked to view it.

import { h } from "./dom.js";
import { chosenNotation, moveName, NotationSwitch } from "./notation.js";

/** The list, its notation switch and its step buttons; `onView(ply)` is called with the
 *  ply to show, `onNotation()` after another notation was chosen. */
export class MoveList {
  constructor(onView, onNotation) {
    this.onView = onView;
    this.list = h("ol", { class: "moves", "aria-label": "moves" });
    const step = (label, title, target) =>
      h("button", { type: "button", class: "step", title, "aria-label": title, onclick: () => this.go(target()) }, label);
    this.buttons = h("div", { class: "steps" }, [
      step("«", "first position", () => 0),
      step("‹", "previous move", () => this.viewed - 1),
      step("›", "next move", () => this.viewed + 1),
      step("»", "latest position", () => this.moves.length),
    ]);
    this.notation = new NotationSwitch(onNotation);
    this.element = h("div", { class: "move-list" }, [this.notation.element, this.list, this.buttons]);
    this.moves = [];
    this.names = [];
    this.known = [];
    this.viewed = 0;
  }

  go(ply) {
    const clamped = Math.max(0, Math.min(this.moves.length, ply));
    if (this.known[clamped]) this.onView(clamped);
  }

  /** Redraws with the game's `moves` and their `names` (null for Banqi, which has no
   *  notation switch), which plies are `known`, and the `viewed` ply. */
  update(moves, known, viewed, names) {
    this.moves = moves;
    this.known = known;
    this.viewed = viewed;
    this.names = names;
    this.notation.element.hidden = !names;
    const rows = [];
    for (let index = 0; index < moves.length; index += 2) {
      rows.push(h("li", {}, [
        h("span", { class: "move-number" }, `${index / 2 + 1}.`),
        this.moveButton(index + 1),
        index + 1 < moves.length ? this.moveButton(index + 2) : null,
      ]));
    }
    this.list.replaceChildren(...rows);
    this.reveal(this.list.querySelector(".viewed"));
    const [first, previous, next, latest] = this.buttons.children;
    first.disabled = viewed === 0 || !known[0];
    previous.disabled = viewed === 0 || !known[viewed - 1];
    next.disabled = latest.disabled = viewed === moves.length;
  }

  /** Scrolls the list (not the page) so that `item` is visible. */
  reveal(item) {
    if (!item) return;
    const list = this.list;
    const below = item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight;
    if (item.offsetTop < list.scrollTop || below) list.scrollTop = item.offsetTop - list.clientHeight / 2;
  }

  moveButton(ply) {
    return h("button", {
      type: "button", class: ply === this.viewed ? "move viewed" : "move",
      "data-ply": ply, "data-move": this.moves[ply - 1], disabled: !this.known[ply], onclick: () => this.go(ply),
    }, moveName(this.moves[ply - 1], this.names?.[ply - 1], chosenNotation()));
  }
}
