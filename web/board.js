// The board view: an SVG of the grid, the pieces of one position and its marks (last
// move, check, selection, legal targets, arrows for a hint or suggested moves). It knows
// no rules: the moves it offers are exactly the `legal` list it is given. A board that
// turns (Banqi) lies on its side while the window is wider than tall.

import { s } from "./dom.js";
import { drawGrid } from "./board-grid.js";
import { attachInput } from "./board-input.js";
import { CELL, allSquares, cellIndex, parseMove, shapeOf, squarePoint, viewSize } from "./geometry.js";
import { pieceIcon } from "./piece-icons.js";
import { chosenNotation } from "./notation.js";
import { HIDDEN, pieceColor, pieceGlyph, pieceName } from "./pieces.js";

const PIECE_RADIUS = CELL * 0.44;
const SLIDE_MS = 180;
const WIDE = window.matchMedia("(orientation: landscape)");

function pieceNode(letter, square, point) {
  const hidden = letter === HIDDEN;
  const color = pieceColor(letter);
  return s("g", {
    class: hidden ? "piece hidden" : `piece ${color}`,
    "data-square": square, "data-piece": letter,
    transform: `translate(${point.x} ${point.y})`,
  }, [
    s("title", {}, pieceName(letter)),
    // The body moves as one when a move slides it in.
    s("g", { class: "piece-body" }, [
      s("circle", { r: PIECE_RADIUS, class: "piece-disc" }),
      s("circle", { r: PIECE_RADIUS * 0.8, class: "piece-ring" }),
      hidden ? null : s("text", { class: "piece-glyph", y: 1 }, pieceGlyph(letter)),
      hidden ? null : pieceIcon(letter),
    ]),
  ]);
}

/** Slides the piece `node` in from `from` to where it stands, `to` (points). */
function slideIn(node, from, to) {
  if (!node.animate) return;
  const offset = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
  node.animate([{ transform: offset }, { transform: "translate(0px, 0px)" }], { duration: SLIDE_MS, easing: "ease-out" });
}

/** A piece alone, as a small inline SVG (the pieces a side has taken, beside its seat). */
export function pieceBadge(letter) {
  const edge = PIECE_RADIUS + 2;
  return s("svg", { class: "piece-badge", viewBox: `${-edge} ${-edge} ${2 * edge} ${2 * edge}`, role: "img" },
    [pieceNode(letter, "", { x: 0, y: 0 })]);
}

function arrow(from, to, cls) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const trim = PIECE_RADIUS * 0.55;
  const end = { x: to.x - (dx / length) * trim, y: to.y - (dy / length) * trim };
  return s("line", { x1: from.x, y1: from.y, x2: end.x, y2: end.y, class: `arrow ${cls}`, "marker-end": "url(#arrowhead)" });
}

/**
 * The interactive board inside `container`, which gets the board's width / height as
 * `--board-aspect` for style.css to size it; `onMove(move)` receives a chosen legal move.
 */
export class BoardView {
  constructor(container, onMove) {
    this.svg = s("svg", { class: "board", role: "img" });
    this.container = container;
    container.append(this.svg);
    this.onMove = onMove;
    this.selected = null;
    this.position = null;
    this.layout = null;
    this.onResize = () => this.position && this.render(this.position);
    WIDE.addEventListener("change", this.onResize);
    attachInput(this);
  }

  /** Stops following the window's shape. */
  destroy() {
    WIDE.removeEventListener("change", this.onResize);
  }

  /** Draws `position`: {game, board, legal, last, check, arrows: [{move, kind, weight?}], interactive,
   *  flipped, slide} — with `slide`, the last move's piece slides in. */
  render(position) {
    const layout = `${position.game}:${position.flipped}:${WIDE.matches}:${chosenNotation()}`;
    if (layout !== this.layout) this.drawLayout(position.game, position.flipped, WIDE.matches);
    // A new state frame of the same position (a spectator came, a reconnection) keeps the
    // piece the player has picked up.
    if (this.position && this.position.board.join() !== position.board.join()) this.selected = null;
    this.position = position;
    if (this.selected && this.targetsFrom(this.selected).length === 0) this.selected = null;
    this.drawPosition();
  }

  drawLayout(game, flipped, wide) {
    this.shape = shapeOf(game, wide);
    this.flipped = flipped;
    const notation = chosenNotation();
    this.layout = `${game}:${flipped}:${wide}:${notation}`;
    const { width, height } = viewSize(this.shape);
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.dataset.landscape = this.shape.landscape;
    this.container.style.setProperty("--board-aspect", String(width / height));
    this.svg.setAttribute("aria-label", `${game} board`);
    this.svg.dataset.game = game;
    this.svg.replaceChildren(
      s("defs", {}, s("marker", {
        id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5,
        markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse",
      }, s("path", { d: "M0 0L10 5L0 10z", class: "arrowhead" }))),
      drawGrid(this.shape, flipped, notation),
      (this.marks = s("g", { class: "marks" })),
      (this.pieces = s("g", { class: "pieces" })),
      (this.overlay = s("g", { class: "overlay" })),
      (this.hits = s("g", { class: "hits" }, allSquares(this.shape).map((square) => this.hitNode(square)))),
    );
  }

  hitNode(square) {
    const { x, y } = this.point(square);
    return s("rect", {
      class: "hit", "data-square": square,
      x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
    });
  }

  point(square) {
    return squarePoint(this.shape, square, this.flipped);
  }

  /** The letter on `square` ("" when empty). */
  pieceAt(square) {
    return this.position.board[cellIndex(this.shape, square)] || "";
  }

  /** The legal moves starting on `square` (a Banqi flip included). */
  targetsFrom(square) {
    if (!this.position.interactive) return [];
    return this.position.legal.filter((move) => move.startsWith(square));
  }

  /** Whether `from`→`to` is one of the legal moves; returns the move text or null. */
  legalMove(from, to) {
    const move = from + to;
    return this.targetsFrom(from).includes(move) ? move : null;
  }

  select(square) {
    this.selected = square;
    this.drawPosition();
  }

  drawPosition() {
    const { board, last, check, arrows } = this.position;
    const squares = allSquares(this.shape);
    this.pieces.replaceChildren(...squares.flatMap((square, index) =>
      board[index] ? [pieceNode(board[index], square, this.point(square))] : []));
    const marks = [];
    if (last) {
      const { from, to } = parseMove(last);
      for (const square of new Set([from, to])) marks.push(this.squareMark(square, "last-move"));
    }
    if (check) marks.push(s("circle", { ...this.centre(check), r: PIECE_RADIUS * 1.18, class: "check-mark", "data-square": check }));
    if (this.selected) marks.push(this.squareMark(this.selected, "selected"));
    this.marks.replaceChildren(...marks);
    const overlay = [];
    if (this.selected) {
      for (const move of this.targetsFrom(this.selected)) {
        const target = parseMove(move).to;
        if (target === this.selected) continue;
        const capture = Boolean(this.pieceAt(target));
        overlay.push(s("circle", {
          ...this.centre(target), r: capture ? PIECE_RADIUS * 1.05 : CELL * 0.12,
          class: capture ? "target capture" : "target", "data-square": target,
        }));
      }
    }
    for (const { move, kind, weight } of arrows || []) {
      const { from, to } = parseMove(move);
      const line = arrow(this.point(from), this.point(to), kind);
      if (weight !== undefined) {
        line.style.opacity = String(0.35 + 0.55 * weight);
        line.style.strokeWidth = String(3 + 6 * weight);
      }
      overlay.push(line);
    }
    this.overlay.replaceChildren(...overlay);
    const checkNode = check && this.pieces.querySelector(`[data-square="${check}"]`);
    if (checkNode) checkNode.classList.add("in-check");
    if (this.position.slide && last) {
      const { from, to } = parseMove(last);
      const moved = this.pieces.querySelector(`[data-square="${to}"] .piece-body`);
      if (moved && from !== to) slideIn(moved, this.point(from), this.point(to));
      this.svg.dataset.slid = last;
      this.position = { ...this.position, slide: false };
    }
  }

  centre(square) {
    const { x, y } = this.point(square);
    return { cx: x, cy: y };
  }

  squareMark(square, cls) {
    const { x, y } = this.point(square);
    const size = CELL * 0.96;
    return s("rect", {
      x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 8,
      class: cls, "data-square": square,
    });
  }
}
