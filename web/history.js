// The boards of earlier plies, for stepping back through a game. The page keeps the
// board of every state it received; the plies before it joined are rebuilt from the
// `start` text by moving pieces square to square as recorded (a flip reveals its
// recorded piece) — plain bookkeeping, no rules. A ply that neither gives stays unknown.

import { cellIndex, parseMove, shapeOf } from "./geometry.js";

/** The cells of a FEN-like placement ("rnbakabnr/9/…"), or null when it does not fit the board. */
function parsePlacement(text, shape) {
  const rows = (text || "").split(" ")[0].split("/");
  if (rows.length !== shape.ranks) return null;
  const cells = [];
  for (const row of rows) {
    let width = 0;
    for (const char of row) {
      if (/[1-9]/.test(char)) {
        for (let i = 0; i < Number(char); i++) cells.push("");
        width += Number(char);
      } else if (/[a-zA-Z]/.test(char)) {
        cells.push(char);
        width += 1;
      } else {
        return null;
      }
    }
    if (width !== shape.files) return null;
  }
  return cells;
}

function applyMove(board, move, shape) {
  const { from, to, reveal } = parseMove(move);
  const next = board.slice();
  const source = cellIndex(shape, from);
  if (from === to) {
    next[source] = reveal || next[source];
  } else {
    next[cellIndex(shape, to)] = next[source];
    next[source] = "";
  }
  return next;
}

/** Every ply's board of one game, as far as known. */
export class GameHistory {
  constructor(game) {
    this.shape = shapeOf(game);
    this.seen = new Map();
  }

  /** Takes in a state frame; returns the boards by ply (null where unknown). */
  update(state) {
    const ply = state.moves.length;
    this.seen.set(ply, { board: state.board, check: state.check });
    const boards = [];
    let board = parsePlacement(state.start, this.shape);
    for (let index = 0; index <= ply; index++) {
      if (board && index > 0) board = applyMove(board, state.moves[index - 1], this.shape);
      const seen = this.seen.get(index);
      boards.push({
        board: seen ? seen.board : board,
        check: seen ? seen.check : null,
        last: index > 0 ? state.moves[index - 1].split(":")[0] : null,
      });
      if (seen) board = seen.board;
    }
    this.boards = boards.map((entry) => (entry.board ? entry : null));
    return this.boards;
  }
}
