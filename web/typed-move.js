// The box a move is typed into, in any notation, for those who prefer the keyboard: the
// game screen's and the analysis board's. Its examples are the game's own notations.

import { h } from "./dom.js";
import { typedMove } from "./notation.js";
import { toast } from "./toast.js";

const EXAMPLES = {
  xiangqi: "Type a move: C2.5, 炮二平五, h2e2",
  banqi: "Type a move: b3b4, flip b3",
};

/** A form whose typed move, once found among a position's legal moves, goes to `onMove(move)`. */
export class TypedMoveBox {
  constructor(onMove) {
    this.onMove = onMove;
    this.position = null;
    this.input = h("input", {
      type: "text", id: "typed-move", autocomplete: "off", spellcheck: "false", "aria-label": "Type a move",
    });
    this.element = h("form", { class: "typed-move", hidden: true, onsubmit: (event) => this.submit(event) }, [
      this.input, h("button", { type: "submit" }, "Play"),
    ]);
  }

  /** Reads moves against `position` ({legal, legal_names}) of `game`; hidden when there is
   *  none or it has no legal move. */
  update(game, position) {
    this.position = position;
    this.element.hidden = !position || position.legal.length === 0;
    this.input.placeholder = EXAMPLES[game];
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text || !this.position) return;
    const move = typedMove(this.position, text);
    if (!move) {
      toast(`\`${text}\` is not a legal move here`);
      return;
    }
    this.input.value = "";
    this.onMove(move);
  }
}
