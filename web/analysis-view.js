// The analysis board: any Xiangqi position ("#/analysis?fen=<FEN>&moves=<ICCS,…>") with
// an evaluation bar, the alpha-beta engine's three best lines and, when the server offers
// a trained net, the net's own value and its policy drawn as arrows — the moves it would
// consider before any search, the thicker the likelier. Moves played on the board or typed
// in the move box explore a line; each position is its own link.

import { analysePosition, positionQuery } from "./api.js";
import { BoardView } from "./board.js";
import { copyText, h } from "./dom.js";
import { chosenNotation, moveName, NotationSwitch } from "./notation.js";
import { toast } from "./toast.js";
import { TypedMoveBox } from "./typed-move.js";

/** "Keep thinking": each search after the first takes twice as long, up to the server's
 *  10 s, until the position changes or the player stops it. On for every position once
 *  turned on, until turned off. */
let keepThinking = false;
const FIRST_MS = 800;
const LONGEST_MS = 10000;

/** The variation trees explored in this page, by start position (the `fen` given, "" for
 *  the start): nodes {move, names, children}, a node's first child its main line. Kept
 *  while the page is open, across the positions (each its own link) one explores. */
const trees = new Map();

/** The node after `moves` in the tree of `start`, made where missing (a new branch). */
function nodeAt(start, moves, namesOf) {
  if (!trees.has(start)) trees.set(start, { move: null, names: null, children: [] });
  let node = trees.get(start);
  for (const [i, move] of moves.entries()) {
    let child = node.children.find((c) => c.move === move);
    if (!child) {
      child = { move, names: null, children: [] };
      node.children.push(child);
    }
    child.names = child.names || namesOf(i);
    node = child;
  }
  return node;
}

/** The lead in centipawns that gives the leader 88% of the bar (tanh 1). */
const BAR_CP = 800;

/** The analysis board's link for the position after `moves` from `fen` (null: the start). */
export function analysisLink(fen, moves) {
  const query = positionQuery(fen, moves);
  return `#/analysis${query ? "?" + query : ""}`;
}

/** A score from Red's view, as players read it: `+0.35`, `−1.20`, `M3` (Red mates), `−M2`. */
function scoreText(line, redToMove) {
  const sign = redToMove ? 1 : -1;
  if (line.mate !== null) return `${sign * line.mate > 0 ? "" : "−"}M${Math.abs(line.mate)}`;
  const pawns = (sign * line.cp) / 100;
  return `${pawns >= 0 ? "+" : "−"}${Math.abs(pawns).toFixed(2)}`;
}

/** Red's share of the bar for a line: 0.5 even, towards 1 as Red is better. */
function barShare(line, redToMove) {
  const sign = redToMove ? 1 : -1;
  if (line.mate !== null) return sign * line.mate > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh((sign * line.cp) / BAR_CP);
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

/** The analysis screen inside `root` for `query` (the hash's query string). */
export class AnalysisView {
  constructor(root, query) {
    const params = new URLSearchParams(query || "");
    this.fen = params.get("fen");
    this.moves = (params.get("moves") || "").split(",").filter(Boolean);
    this.flipped = params.get("flip") === "1";
    this.analysis = null;
    this.build(root);
    this.load();
  }

  /** Leaves the screen. */
  destroy() {
    this.gone = true;
    this.board.destroy();
  }

  build(root) {
    this.bar = h("div", { class: "eval-bar", role: "meter", "aria-label": "evaluation, Red's share" }, [
      h("div", { class: "eval-red" }), h("span", { class: "eval-text" }),
    ]);
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, (move) => this.explore(move));
    this.typed = new TypedMoveBox((move) => this.explore(move));
    this.status = h("div", { id: "status", class: "status", role: "status" }, "Analysing…");
    this.notation = new NotationSwitch(() => this.render());
    this.lines = h("ol", { class: "analysis-lines", "aria-label": "engine lines" });
    this.net = h("div", { class: "net-view" });
    this.variations = h("div", { class: "variations", "aria-label": "variations explored" });
    this.actions = h("div", { class: "actions" }, [
      (this.thinkButton = h("button", { type: "button", class: "keep-thinking", onclick: () => this.toggleThinking() }, "")),
      h("button", { type: "button", class: "back", onclick: () => this.back() }, "Back a move"),
      h("button", { type: "button", class: "forward", onclick: () => this.forward() }, "Forward"),
      h("button", { type: "button", class: "flip", onclick: () => this.flip() }, "Flip board"),
      h("button", { type: "button", class: "copy-fen", onclick: () => this.copyFen() }, "Copy FEN"),
      h("a", { class: "button", href: "#/" }, "New game"),
    ]);
    root.replaceChildren(h("section", { class: "game-view analysis-view" }, [
      h("div", { class: "board-column" }, [this.bar, boardBox]),
      h("aside", { class: "side-column" }, [
        this.status, this.actions, this.typed.element,
        h("div", { class: "panel analysis-panel" }, [h("h3", {}, "Engine (alpha-beta)"), this.notation.element, this.lines]),
        (this.tree = h("div", { class: "panel analysis-panel", hidden: true }, [h("h3", {}, "Moves and variations"), this.variations])),
        this.net,
      ]),
    ]));
    document.title = "Xiangqi · analysis";
  }

  /** Analyses the position for `ms` milliseconds, then, while "keep thinking" is on,
   *  again for twice as long. */
  async load(ms = FIRST_MS) {
    this.thinking = true;
    this.renderThinking();
    try {
      this.analysis = await analysePosition(this.fen, this.moves, ms === FIRST_MS ? null : ms);
    } catch (error) {
      this.thinking = false;
      if (this.gone) return;
      this.status.textContent = `Cannot analyse: ${error.message}`;
      this.status.classList.add("over");
      return;
    }
    this.thinking = false;
    if (this.gone) return;
    if (this.analysis.moves.length > this.moves.length) {
      // A record was given as the position: its moves become steps of the board.
      this.fen = this.analysis.start;
      this.moves = this.analysis.moves;
      location.replace(analysisLink(this.fen, this.moves));
      return;
    }
    this.node = nodeAt(this.fen || "", this.moves, (i) => this.analysis.move_names[i]);
    this.render();
    if (keepThinking && ms < LONGEST_MS && this.analysis.legal.length) this.load(Math.min(ms * 2, LONGEST_MS));
  }

  toggleThinking() {
    keepThinking = !keepThinking;
    if (keepThinking && !this.thinking) this.load(FIRST_MS * 2);
    this.renderThinking();
  }

  renderThinking() {
    this.thinkButton.textContent = keepThinking ? "Stop thinking" : "Keep thinking";
    this.thinkButton.setAttribute("aria-pressed", String(keepThinking));
    if (this.analysis && !this.analysis.over) this.status.textContent = this.statusText();
  }

  statusText() {
    const analysis = this.analysis;
    const side = analysis.to_move === "red" ? "Red" : "Black";
    const more = this.thinking && keepThinking ? " · thinking deeper…" : "";
    return `${side} to move · depth ${analysis.depth}${analysis.check ? " · check!" : ""}${more}`;
  }

  /** Goes to the position after `move`, one of the legal moves here (a new branch of the
   *  tree when it is not one yet). */
  explore(move) {
    const names = this.analysis.legal_names[this.analysis.legal.indexOf(move)];
    nodeAt(this.fen || "", [...this.moves, move], (i) => (i === this.moves.length ? names : null));
    this.go([...this.moves, move]);
  }

  /** Along the main line of the tree from here. */
  forward() {
    if (this.node && this.node.children.length) this.go([...this.moves, this.node.children[0].move]);
  }

  back() {
    if (this.moves.length) this.go(this.moves.slice(0, -1));
  }

  /** Opens the position after `moves`, the board turned as now. */
  go(moves) {
    const link = analysisLink(this.fen, moves);
    location.hash = this.flipped ? `${link}${link.includes("?") ? "&" : "?"}flip=1` : link;
  }

  flip() {
    this.flipped = !this.flipped;
    this.render();
  }

  async copyFen() {
    if (!this.analysis) return;
    if (await copyText(this.analysis.fen)) toast("FEN copied", "info");
    else toast("Copying failed: " + this.analysis.fen);
  }

  /** `move` of `names` in the chosen notation. */
  name(move, names) {
    return moveName(move, names, chosenNotation());
  }

  render() {
    const analysis = this.analysis;
    if (!analysis) return;
    const redToMove = analysis.to_move === "red";
    const best = analysis.lines[0];
    const policy = analysis.net ? analysis.net.policy : [];
    const most = policy.length ? policy[0].share : 1;
    const arrows = policy.map((entry) => ({ move: entry.move, kind: "policy", weight: entry.share / most }));
    if (best) arrows.push({ move: best.moves[0], kind: "best" });
    this.board.render({
      game: "xiangqi", board: analysis.board, legal: analysis.legal, last: analysis.last, check: analysis.check,
      flipped: this.flipped, interactive: analysis.legal.length > 0, arrows,
    });
    this.renderBar(best, redToMove, analysis.over);
    this.typed.update("xiangqi", analysis);
    this.status.textContent = analysis.over ? analysis.over : this.statusText();
    this.status.classList.toggle("over", Boolean(analysis.over));
    this.actions.querySelector(".back").disabled = this.moves.length === 0;
    this.actions.querySelector(".forward").disabled = !this.node || this.node.children.length === 0;
    this.renderVariations();
    this.notation.update();
    this.lines.replaceChildren(...analysis.lines.map((line) => h("li", { "data-move": line.moves[0] }, [
      h("span", { class: "line-score" }, scoreText(line, redToMove)),
      h("span", { class: "line-moves" }, line.moves.map((move, i) => this.name(move, line.names[i])).join(" ")),
    ])));
    this.renderNet(analysis.net, redToMove);
  }

  /** The tree as players write it: the main line numbered, each branch in parentheses
   *  after the move it replaces; every move a link to its position, this one marked. */
  renderVariations() {
    const root = trees.get(this.fen || "");
    const redFirst = !this.fen || / w\b/.test(this.fen) || this.fen === "startpos";
    const label = (node, ply) => {
      const name = node.names ? moveName(node.move, node.names, chosenNotation()) : node.move;
      const number = Math.floor(ply / 2) + 1;
      const red = (ply % 2 === 0) === redFirst;
      return red ? `${number}. ${name}` : name;
    };
    const line = (node, path, ply) => {
      const parts = [];
      while (node.children.length) {
        const [main, ...others] = node.children;
        const mainPath = [...path, main.move];
        parts.push(this.moveButton(label(main, ply), mainPath));
        for (const other of others) {
          parts.push(h("span", { class: "branch" }, ["(", this.moveButton(label(other, ply), [...path, other.move]),
            ...line(other, [...path, other.move], ply + 1), ")"]));
        }
        node = main;
        path = mainPath;
        ply += 1;
      }
      return parts;
    };
    this.variations.replaceChildren(...(root ? line(root, [], 0) : []));
    this.tree.hidden = !root || root.children.length === 0;
  }

  moveButton(text, path) {
    const here = path.length === this.moves.length && path.every((move, i) => move === this.moves[i]);
    return h("button", { type: "button", class: `tree-move${here ? " here" : ""}`, "data-path": path.join(","),
      onclick: () => this.go(path) }, text);
  }

  renderBar(best, redToMove, over) {
    const share = best ? barShare(best, redToMove) : 0.5;
    this.bar.querySelector(".eval-red").style.width = percent(share);
    this.bar.querySelector(".eval-text").textContent = best ? scoreText(best, redToMove) : over ? "" : "…";
    this.bar.setAttribute("aria-valuenow", String(Math.round(share * 100)));
    this.bar.dataset.share = share.toFixed(3);
  }

  renderNet(net, redToMove) {
    if (!net) {
      this.net.replaceChildren();
      this.net.hidden = true;
      return;
    }
    this.net.hidden = false;
    const [win, draw, loss] = redToMove ? net.wdl : [net.wdl[2], net.wdl[1], net.wdl[0]];
    this.net.replaceChildren(h("div", { class: "panel" }, [
      h("h3", {}, `The net's view (${net.engine})`),
      h("p", { class: "net-value" },
        `Before any search: Red wins ${percent(win)} · draw ${percent(draw)} · Black wins ${percent(loss)}`),
      h("p", { class: "muted" }, "Its policy, drawn as green arrows (the thicker, the likelier):"),
      h("ol", { class: "net-policy" }, net.policy.map((entry) => h("li", { "data-move": entry.move }, [
        h("span", { class: "line-moves" }, this.name(entry.move, entry.names)),
        h("span", { class: "share" }, percent(entry.share)),
      ]))),
    ]));
  }
}
