// Board geometry for both games: squares named as the rules core names them (file letter,
// rank digit: Xiangqi's ICCS ranks 0–9 from Red's back rank, Banqi's ranks 1–8), the order
// of the server's `board` cells, and where each square sits in the SVG's coordinates,
// flipped or not. Xiangqi pieces stand on the 9×10 intersections; Banqi pieces stand in
// the 4×8 squares, drawn upright or, on a wide screen, on its side (8 columns × 4 rows).

/** Distance between neighbouring points, in SVG units. */
export const CELL = 60;

// `firstRank`: the bottom rank's number in text; `margin`: room around the grid for the
// coordinates (and, on points, the edge pieces); `turns`: laid on its side when wide.
const SHAPES = {
  xiangqi: { files: 9, ranks: 10, firstRank: 0, onPoints: true, margin: 64, turns: false },
  banqi: { files: 4, ranks: 8, firstRank: 1, onPoints: false, margin: 46, turns: true },
};

/**
 * The board shape of a game: files, ranks, first rank's number, points or squares, margin,
 * and `landscape` — on its side (ranks left to right, file a at the top) — when `wide` and
 * the game's board turns.
 */
export function shapeOf(game, wide = false) {
  const shape = SHAPES[game];
  if (!shape) throw new Error(`unknown game ${game}`);
  return { ...shape, landscape: wide && shape.turns };
}

/** The drawn grid's columns and rows: files × ranks, or ranks × files on its side. */
function gridSize(shape) {
  return shape.landscape ? { columns: shape.ranks, rows: shape.files } : { columns: shape.files, rows: shape.ranks };
}

/** "h2" from file 7, rank 2 (ranks count from 0 at the bottom). */
function squareName(shape, file, rank) {
  return String.fromCharCode(97 + file) + (rank + shape.firstRank);
}

/** {file, rank} from "h2" (rank from 0 at the bottom). */
function parseSquare(shape, name) {
  return { file: name.charCodeAt(0) - 97, rank: Number(name.slice(1)) - shape.firstRank };
}

/** {from, to, reveal} from "h2e2" or a recorded flip "b3b3:R". */
export function parseMove(text) {
  const [squares, reveal] = text.split(":");
  return { from: squares.slice(0, 2), to: squares.slice(2, 4), reveal: reveal || null };
}

/** Index in the server's `board` array (ranks from the top, files from a). */
export function cellIndex(shape, square) {
  const { file, rank } = parseSquare(shape, square);
  return (shape.ranks - 1 - rank) * shape.files + file;
}

/** Every square of the board, in `board` order. */
export function allSquares(shape) {
  const squares = [];
  for (let rank = shape.ranks - 1; rank >= 0; rank--) {
    for (let file = 0; file < shape.files; file++) squares.push(squareName(shape, file, rank));
  }
  return squares;
}

/** Width and height of the SVG's viewBox. */
export function viewSize(shape) {
  const { columns, rows } = gridSize(shape);
  const spans = shape.onPoints ? [columns - 1, rows - 1] : [columns, rows];
  return { width: 2 * shape.margin + spans[0] * CELL, height: 2 * shape.margin + spans[1] * CELL };
}

/** The SVG point of a (file, rank) — fractional values allowed for lines between points. */
export function pointOf(shape, file, rank, flipped) {
  const { columns, rows } = gridSize(shape);
  const upright = shape.landscape ? { column: rank, row: file } : { column: file, row: rows - 1 - rank };
  const column = flipped ? columns - 1 - upright.column : upright.column;
  const row = flipped ? rows - 1 - upright.row : upright.row;
  const centre = shape.onPoints ? 0 : CELL / 2;
  return { x: shape.margin + column * CELL + centre, y: shape.margin + row * CELL + centre };
}

/** The SVG point of a named square. */
export function squarePoint(shape, square, flipped) {
  const { file, rank } = parseSquare(shape, square);
  return pointOf(shape, file, rank, flipped);
}
