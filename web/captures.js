// What each colour has lost up to a ply, read from the boards of the game's plies (a move
// onto an occupied cell takes what stood there), and for Xiangqi the material lead by the
// usual points. Plain bookkeeping: plies whose board is unknown are passed over.

import { cellIndex, parseMove } from "./geometry.js";
import { pieceColor } from "./pieces.js";

// Xiangqi's customary piece values (the general is never taken).
const POINTS = { r: 9, c: 4.5, n: 4, a: 2, b: 2, p: 1 };

/** {red: [letters], black: [letters]}: the pieces of each colour taken in the first `ply`
 *  plies of `moves`, given the boards of `history` (a GameHistory). */
export function lostPieces(history, moves, ply) {
  const lost = { red: [], black: [] };
  for (let index = 1; index <= ply; index++) {
    const before = history.boards[index - 1];
    if (!before) continue;
    const { from, to } = parseMove(moves[index - 1]);
    if (from === to) continue;
    const taken = before.board[cellIndex(history.shape, to)];
    const color = pieceColor(taken);
    if (color) lost[color].push(taken);
  }
  return lost;
}

/** Xiangqi: the points `color` is ahead by in what the two sides have lost (0 when even). */
export function materialLead(lost, color) {
  const points = (letters) => letters.reduce((sum, letter) => sum + (POINTS[letter.toLowerCase()] || 0), 0);
  const opponent = color === "red" ? "black" : "red";
  return points(lost[opponent]) - points(lost[color]);
}
