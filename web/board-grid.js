// The drawn board, without pieces: Xiangqi's lines with the river (楚河 漢界), the
// palaces' diagonals and the position marks, or Banqi's 4×8 squares (upright or on its
// side); files and ranks labelled in ICCS on every side, or in WXF and Chinese each side's file
// numbers at its own edge. Redrawn only when the game or the orientation changes.

import { s } from "./dom.js";
import { pointOf, viewSize } from "./geometry.js";

const MARK_GAP = 5;
const MARK_LENGTH = 11;
const POSITION_MARKS = [
  [1, 2], [7, 2], [1, 7], [7, 7],
  [0, 3], [2, 3], [4, 3], [6, 3], [8, 3],
  [0, 6], [2, 6], [4, 6], [6, 6], [8, 6],
];

function line(shape, flipped, [f1, r1], [f2, r2], cls = "grid-line") {
  const a = pointOf(shape, f1, r1, flipped);
  const b = pointOf(shape, f2, r2, flipped);
  return s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls });
}

/** The four little corners around a cannon's or soldier's starting point. */
function positionMark(shape, flipped, file, rank) {
  const { x, y } = pointOf(shape, file, rank, flipped);
  const parts = [];
  for (const dx of [-1, 1]) {
    const sideFile = file + (flipped ? -dx : dx);
    if (sideFile < 0 || sideFile >= shape.files) continue;
    for (const dy of [-1, 1]) {
      const cx = x + dx * MARK_GAP;
      const cy = y + dy * MARK_GAP;
      parts.push(`M${cx} ${cy + dy * MARK_LENGTH}V${cy}H${cx + dx * MARK_LENGTH}`);
    }
  }
  return s("path", { d: parts.join(""), class: "grid-mark" });
}

function xiangqiLines(shape, flipped) {
  const parts = [];
  for (let rank = 0; rank < shape.ranks; rank++) {
    parts.push(line(shape, flipped, [0, rank], [shape.files - 1, rank]));
  }
  for (let file = 0; file < shape.files; file++) {
    const edge = file === 0 || file === shape.files - 1;
    if (edge) {
      parts.push(line(shape, flipped, [file, 0], [file, shape.ranks - 1]));
    } else {
      parts.push(line(shape, flipped, [file, 0], [file, 4]));
      parts.push(line(shape, flipped, [file, 5], [file, shape.ranks - 1]));
    }
  }
  for (const [low, high] of [[0, 2], [7, 9]]) {
    parts.push(line(shape, flipped, [3, low], [5, high]));
    parts.push(line(shape, flipped, [5, low], [3, high]));
  }
  for (const [file, rank] of POSITION_MARKS) parts.push(positionMark(shape, flipped, file, rank));
  return parts;
}

function river(shape, flipped) {
  const y = (pointOf(shape, 0, 4, flipped).y + pointOf(shape, 0, 5, flipped).y) / 2;
  const left = pointOf(shape, flipped ? 6 : 2, 0, flipped).x;
  const right = pointOf(shape, flipped ? 2 : 6, 0, flipped).x;
  return [
    s("text", { x: left, y, class: "river-text" }, "楚 河"),
    s("text", { x: right, y, class: "river-text" }, "漢 界"),
  ];
}

function banqiSquares(shape, flipped) {
  const parts = [];
  for (let file = 0; file <= shape.files; file++) {
    parts.push(line(shape, flipped, [file - 0.5, -0.5], [file - 0.5, shape.ranks - 0.5]));
  }
  for (let rank = 0; rank <= shape.ranks; rank++) {
    parts.push(line(shape, flipped, [-0.5, rank - 0.5], [shape.files - 0.5, rank - 0.5]));
  }
  return parts;
}

/** Red's file numbers in Chinese notation: Chinese numerals. */
const CHINESE_NUMBERS = "一二三四五六七八九";
/** Black's file numbers in Chinese notation: full-width digits, as Chinese records (and
 *  the server's move names) write them. */
const FULL_WIDTH_DIGITS = "１２３４５６７８９";

/** A Xiangqi file's number for each side in `notation` (`wxf`, `chinese`): [Red's, Black's].
 *  Each side counts its files from its own right: Red's a-file is its 9th (九), Black's its 1st (１). */
function fileNumbers(file, notation) {
  const red = 9 - file;
  const chinese = notation === "chinese";
  return [chinese ? CHINESE_NUMBERS[red - 1] : String(red), chinese ? FULL_WIDTH_DIGITS[file] : String(file + 1)];
}

function labels(shape, flipped, notation) {
  const { width, height } = viewSize(shape);
  const offset = shape.margin / 2 - 5;
  const text = (x, y, content) => s("text", { x, y, class: "coord" }, content);
  // At both ends of the line through `point` (bottom or left first): above and below when
  // it runs down the board.
  const ends = ({ x, y }, runsDown, [first, second]) => runsDown
    ? [text(x, height - offset, first), text(x, offset, second)]
    : [text(offset, y, first), text(width - offset, y, second)];
  // In WXF and Chinese a Xiangqi board is labelled as those notations count: each side's
  // files from its own right, and no ranks.
  const numbered = shape.onPoints && !shape.landscape && notation !== "iccs";
  const parts = [];
  for (let file = 0; file < shape.files; file++) {
    const letter = String.fromCharCode(97 + file);
    const [red, black] = numbered ? fileNumbers(file, notation) : [letter, letter];
    parts.push(ends(pointOf(shape, file, 0, flipped), !shape.landscape, flipped ? [black, red] : [red, black]));
  }
  for (let rank = 0; rank < shape.ranks && !numbered; rank++) {
    const label = rank + shape.firstRank;
    parts.push(ends(pointOf(shape, 0, rank, flipped), shape.landscape, [label, label]));
  }
  return parts;
}

/** The board's background, lines and labels (Xiangqi's files as `notation` counts them) as
 *  one SVG group. */
export function drawGrid(shape, flipped, notation) {
  const { width, height } = viewSize(shape);
  const inset = shape.onPoints ? 8 : 4;
  const edge = shape.onPoints ? 0 : 0.5;
  const a = pointOf(shape, -edge, -edge, false);
  const b = pointOf(shape, shape.files - 1 + edge, shape.ranks - 1 + edge, false);
  return s("g", { class: "grid" }, [
    s("rect", { x: 0, y: 0, width, height, rx: 14, class: "board-wood" }),
    s("rect", {
      x: Math.min(a.x, b.x) - inset, y: Math.min(a.y, b.y) - inset,
      width: Math.abs(a.x - b.x) + 2 * inset, height: Math.abs(a.y - b.y) + 2 * inset, class: "grid-frame",
    }),
    shape.onPoints ? xiangqiLines(shape, flipped) : banqiSquares(shape, flipped),
    shape.onPoints ? river(shape, flipped) : [],
    labels(shape, flipped, notation),
  ]);
}
