// The game screen: the board, both seats with their clocks, the status line, the move
// list with stepping, the actions of a seat (hint, resign, draw), sharing (FEN, PGN,
// links) and, for spectators, suggested moves. The creator of an online game waiting for
// its opponent sees the invite link first, above the board. Everything shown comes from
// the newest state frame; the page only forwards what the user chose.

import { analysisLink } from "./analysis-view.js";
import { absoluteLink, engineLabel, gameSummary, listEngines, pgnUrl } from "./api.js";
import { BoardView, pieceBadge } from "./board.js";
import { lostPieces, materialLead } from "./captures.js";
import { ClockDisplay } from "./clock.js";
import { GameConnection } from "./connection.js";
import { copyText, h } from "./dom.js";
import { cellIndex, parseMove, shapeOf } from "./geometry.js";
import { GameHistory } from "./history.js";
import { MoveList } from "./move-list.js";
import { chosenNotation, legalMoveName } from "./notation.js";
import { inviteLink, rememberGame } from "./player.js";
import { playSound } from "./sounds.js";
import { toast } from "./toast.js";
import { TypedMoveBox } from "./typed-move.js";

const CONFIRM_MS = 3000;
const SIDES = ["red", "black"];

function other(side) {
  return side === "red" ? "black" : "red";
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One game's screen inside `root`, connected as `token`'s seat (or as a spectator). */
export class GameView {
  constructor(root, id, token) {
    this.id = id;
    this.token = token;
    this.state = null;
    this.viewPly = null;
    this.hint = null;
    this.mySuggestion = null;
    this.flipped = false;
    this.online = false;
    // A move sent and not yet answered: sent again on reconnecting if the game still waits
    // for it, since a frame sent as the connection drops (a server restart) is lost.
    this.pendingMove = null;
    this.reconnected = false;
    this.build(root);
    this.connection = new GameConnection(id, token, {
      onFrame: (frame) => this.onFrame(frame),
      onOnline: (online) => {
        this.online = online;
        this.reconnected = online;
        if (!online && !this.state) this.checkExists();
        this.render();
      },
    });
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  /** Leaves the game: closes the connection and stops the clocks. */
  destroy() {
    this.connection.close();
    this.clocks.stop();
    this.board.destroy();
    document.removeEventListener("keydown", this.onKey);
  }

  build(root) {
    this.root = root;
    const seatPanel = (position) => h("div", { class: `seat ${position}` }, [
      h("span", { class: "seat-dot" }), h("span", { class: "seat-name" }), h("span", { class: "captured" }),
    ]);
    this.top = seatPanel("top");
    this.bottom = seatPanel("bottom");
    this.clockOf = { red: h("span", { class: "clock", hidden: true }), black: h("span", { class: "clock", hidden: true }) };
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, (move) => this.chose(move));
    this.status = h("div", { id: "status", class: "status", role: "status" }, "Connecting…");
    this.moveList = new MoveList((ply) => this.view(ply), () => this.render());
    this.actions = h("div", { class: "actions" });
    this.share = h("div", { class: "share" });
    this.suggestions = h("div", { class: "suggestions" });
    this.typed = new TypedMoveBox((move) => this.chose(move));
    this.invite = h("div", { class: "panel invite", hidden: true });
    root.replaceChildren(h("section", { class: "game-view" }, [
      this.invite,
      h("div", { class: "board-column" }, [this.top, boardBox, this.bottom]),
      h("aside", { class: "side-column" }, [
        this.status, this.actions, this.typed.element, this.moveList.element, this.suggestions, this.share,
      ]),
    ]));
    this.clocks = new ClockDisplay(this.clockOf);
  }

  onFrame(frame) {
    if (frame.type === "state") {
      if (!this.state && this.token && frame.you !== "spectator") {
        rememberGame(frame.id, frame.game, frame.mode, `/#/g/${frame.id}?token=${this.token}`);
      }
      if (!this.state) {
        this.history = new GameHistory(frame.game);
        this.flipped = frame.you === "black";
      }
      if (frame.status.over || (this.state && this.state.moves.length !== frame.moves.length)) {
        this.hint = null;
        this.mySuggestion = null;
      }
      this.resendPendingMove(frame);
      if (this.state && frame.moves.length === this.state.moves.length + 1) this.announce(this.state, frame);
      this.state = frame;
      if (frame.rematch && frame.you !== "spectator" && this.token) {
        // The rematch is on: this seat's token sits at the other colour there.
        location.hash = `#/g/${frame.rematch}?token=${this.token}`;
        return;
      }
      this.boards = this.history.update(frame);
      this.clocks.update(frame.clock, frame.status.over);
      this.render();
    } else if (frame.type === "hint" && !this.state?.status.over) {
      this.hint = frame.move;
      this.render();
    } else if (frame.type === "error") {
      this.pendingMove = null;
      toast(frame.message);
    }
  }

  /** A move just made, from `before` to `after`: its sound, and its piece slides in. */
  announce(before, after) {
    const { from, to } = parseMove(after.last);
    const taken = from !== to && before.board[cellIndex(shapeOf(after.game), to)];
    playSound(after.check ? "check" : taken ? "capture" : "move");
    this.slideNext = this.viewPly === null;
  }

  /** A connection refused before any state: an unknown game ends the retrying and
   *  leaves only the server's word and a way to start a new game. */
  async checkExists() {
    try {
      await gameSummary(this.id);
    } catch (error) {
      if (error.status !== 404) return;
      this.connection.close();
      this.root.replaceChildren(h("section", { class: "panel missing-game" }, [
        h("h2", {}, "No such game"),
        h("p", {}, `${capitalized(error.message)}: the link is wrong or the game is gone.`),
        h("a", { class: "button primary", href: "#/" }, "Start a new game"),
      ]));
    }
  }

  chose(move) {
    const you = this.state.you;
    const warning = (this.state.repetition_warnings || {})[move];
    if (you === "spectator") {
      this.connection.send({ type: "suggest", move });
      this.mySuggestion = move;
    } else if (warning) {
      this.confirmMove(move, warning);
    } else {
      this.playMove(move);
    }
    this.render();
  }

  /** Sends a move of this seat, kept as pending until the server answers. */
  playMove(move) {
    this.pendingMove = { move, plies: this.state.moves.length };
    if (!this.connection.send({ type: "move", move })) toast("Not connected: the move is sent when the connection is back");
  }

  /** On the first state after a (re)connection, sends the pending move again if the game
   *  still stands where it was made; any other state settles it. */
  resendPendingMove(frame) {
    const pending = this.pendingMove;
    const reconnected = this.reconnected;
    this.reconnected = false;
    if (!pending) return;
    if (frame.status.over || frame.moves.length !== pending.plies || !frame.legal.includes(pending.move)) {
      this.pendingMove = null;
    } else if (reconnected) {
      this.connection.send({ type: "move", move: pending.move });
    }
  }

  /** Asks before sending a move that lets a repetition end the game against its player. */
  confirmMove(move, warning) {
    const dialog = h("dialog", { class: "confirm-move", id: "repetition-warning" }, [
      h("p", {}, `${capitalized(warning)}.`),
      h("div", { class: "dialog-actions" }, [
        h("button", { type: "button", class: "cancel", onclick: () => dialog.close() }, "Cancel"),
        h("button", {
          type: "button", class: "primary play-anyway",
          onclick: () => {
            dialog.close();
            this.playMove(move);
          },
        }, "Play it"),
      ]),
    ]);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }

  send(type, fields = {}) {
    if (!this.connection.send({ type, ...fields })) toast("Not connected to the server");
  }

  /** The engines the server offers for this game (loaded once), for going on when the
   *  game's own engine cannot be had. */
  async loadEngines() {
    if (this.engines) return;
    this.engines = [];
    try {
      this.engines = (await listEngines()).filter((engine) => engine.games.includes(this.state.game));
    } catch (error) {
      toast(`Engines: ${error.message}`);
    }
    this.renderActions();
  }

  view(ply) {
    this.viewPly = ply === this.state.moves.length ? null : ply;
    this.render();
  }

  key(event) {
    if (!this.state || event.target.closest("input, select, textarea")) return;
    const viewed = this.viewPly ?? this.state.moves.length;
    if (event.key === "ArrowLeft") this.moveList.go(viewed - 1);
    else if (event.key === "ArrowRight") this.moveList.go(viewed + 1);
    else return;
    event.preventDefault();
  }

  /** "Red", or in Banqi "First (Black)" once the colours are decided. */
  seatLabel(seat) {
    const state = this.state;
    if (state.game !== "banqi") return capitalized(seat);
    const order = seat === "red" ? "First" : "Second";
    const color = state.colors && state.colors[seat];
    return color ? `${order} (${capitalized(color)})` : order;
  }

  render() {
    const state = this.state;
    if (!state) return;
    const latest = this.viewPly === null;
    const over = state.status.over;
    const canMove = latest && !over && (state.you === "both" || state.you === state.to_move);
    const canSuggest = latest && !over && state.you === "spectator";
    const shown = latest ? state : { ...this.boards[this.viewPly], legal: [] };
    this.board.render({
      game: state.game, board: shown.board, legal: shown.legal, last: shown.last, check: shown.check,
      flipped: this.flipped, interactive: canMove || canSuggest, arrows: latest ? this.arrows() : [],
      slide: latest && this.slideNext,
    });
    this.slideNext = false;
    this.renderSeats();
    this.renderStatus(latest);
    this.renderActions();
    const names = state.game === "xiangqi" ? state.move_names : null;
    this.moveList.update(state.moves, this.boards.map(Boolean), this.viewPly ?? state.moves.length, names);
    this.renderSuggestions();
    this.renderShare();
    document.title = `${capitalized(state.game)} · ${state.status.over ? state.status.result : this.seatLabel(state.to_move) + " to move"}`;
  }

  arrows() {
    const arrows = [];
    if (this.hint) arrows.push({ move: this.hint, kind: "hint" });
    const tally = this.state.suggestions || [];
    const most = tally.length ? tally[0][1] : 1;
    for (const [move, count] of tally.slice(0, 3)) arrows.push({ move, kind: "suggestion", weight: count / most });
    return arrows;
  }

  renderSeats() {
    const state = this.state;
    const bottomSeat = this.flipped ? "black" : "red";
    const lost = lostPieces(this.history, state.moves, this.viewPly ?? state.moves.length);
    for (const [panel, seat] of [[this.bottom, bottomSeat], [this.top, other(bottomSeat)]]) {
      const name = state.seats[seat];
      const yours = state.you === seat ? " (you)" : "";
      const color = state.game === "banqi" ? state.colors && state.colors[seat] : seat;
      panel.classList.remove("red", "black", "undecided");
      panel.classList.add(color || "undecided");
      panel.classList.toggle("to-move", !state.status.over && state.to_move === seat);
      panel.dataset.seat = seat;
      panel.querySelector(".seat-name").textContent =
        `${this.seatLabel(seat)} · ${name || "waiting for a player…"}${yours}`;
      this.renderCaptured(panel.querySelector(".captured"), lost, color, state.game);
      panel.append(this.clockOf[seat]);
    }
  }

  /** The pieces `color` has taken, the most valuable first, and in Xiangqi its lead in points. */
  renderCaptured(element, lost, color, game) {
    if (!color) {
      element.replaceChildren();
      return;
    }
    const taken = lost[other(color)].slice().sort((a, b) => "rcnabpgmk".indexOf(a.toLowerCase()) - "rcnabpgmk".indexOf(b.toLowerCase()));
    const lead = game === "xiangqi" ? materialLead(lost, color) : 0;
    const badges = taken.map((letter) => pieceBadge(letter));
    element.replaceChildren(...badges, ...(lead > 0 ? [h("span", { class: "lead" }, `+${lead}`)] : []));
    element.dataset.taken = taken.join("");
  }

  renderStatus(latest) {
    const state = this.state;
    let text;
    if (state.status.over) {
      text = state.status.text;
      if (state.rematch_request) text += ` · ${this.seatLabel(state.rematch_request)} asks for a rematch`;
    } else if (state.engine_missing) {
      text = `${state.engine_missing[0].toUpperCase()}${state.engine_missing.slice(1)}. `
        + (state.you === "spectator" ? "The game waits for its player." : "Go on against another engine, or end the game.");
    } else if (SIDES.some((side) => state.seats[side] === null)) {
      text = "Waiting for an opponent to take the other seat";
    } else if (state.lobby_seat && state.lobby_seat !== state.you && state.moves.length === 0) {
      text = `A player from the lobby took ${this.seatLabel(state.lobby_seat)}'s seat; the invite link now only watches`;
    } else {
      const mine = state.you === state.to_move;
      text = mine ? `Your move (${this.seatLabel(state.to_move)})` : `${this.seatLabel(state.to_move)} to move`;
      if (state.check) text += " · check!";
      if (state.draw_offer) text += ` · ${this.seatLabel(state.draw_offer)} offers a draw`;
      if (state.takeback_request) text += ` · ${this.seatLabel(state.takeback_request)} asks to take a move back`;
    }
    if (!latest) text += ` — viewing move ${this.viewPly}`;
    if (!this.online) text += " — reconnecting…";
    this.status.textContent = text;
    this.status.classList.toggle("over", state.status.over);
    this.status.classList.toggle("check", Boolean(state.check) && !state.status.over);
  }

  renderActions() {
    const state = this.state;
    const myTurn = state.you === "both" || state.you === state.to_move || state.you === "spectator";
    this.typed.update(state.game, myTurn && this.viewPly === null ? state : null);
    const seat = state.you !== "spectator";
    const seated = SIDES.every((side) => state.seats[side] !== null);
    // Resigning and draws need an opponent, and a seat that has not moved yet can only abort.
    const live = seat && !state.status.over && seated;
    const button = (label, cls, onclick, shown = true) =>
      shown ? h("button", { type: "button", class: cls, onclick }, label) : null;
    const opponentOffers = state.draw_offer && state.draw_offer !== state.you && state.you !== "both";
    const iOffered = state.draw_offer && state.draw_offer === state.you;
    const takebacks = live && state.game === "xiangqi" && state.moves.length > 0;
    const opponentAsks = state.takeback_request && state.takeback_request !== state.you;
    const iAsked = state.takeback_request && state.takeback_request === state.you;
    const over = state.status.over && seat;
    const opponentRematch = state.rematch_request && state.rematch_request !== state.you;
    const iAskedRematch = state.rematch_request && state.rematch_request === state.you;
    const buttons = [
      button("Flip board", "flip", () => {
        this.flipped = !this.flipped;
        this.render();
      }),
      button("Hint", "hint", () => this.send("hint"), live && (state.mode === "engine" || state.mode === "local")),
      ...this.engineChoice(),
      button(state.engine_missing ? "End the game" : "Abort", "abort", () => this.send("abort"), state.can_abort),
      button("Resign", "resign", (event) => this.confirmThen(event.target, "Really resign?", () => this.send("resign")), live && !state.can_abort),
      // An engine never takes a draw: none is offered it.
      button(state.mode === "local" ? "Agree a draw" : iOffered ? "Draw offered" : "Offer draw", "offer-draw",
        () => this.send("offer_draw"), live && !state.can_abort && !opponentOffers && state.mode !== "engine"),
      button("Accept draw", "accept-draw", () => this.send("accept_draw"), live && opponentOffers),
      button("Decline draw", "decline-draw", () => this.send("decline_draw"), live && opponentOffers),
      button(iAsked ? "Takeback asked" : "Take back", "takeback", () => this.send("takeback"), takebacks && !opponentAsks),
      button("Accept takeback", "accept-takeback", () => this.send("takeback"), takebacks && opponentAsks),
      button("Decline takeback", "decline-takeback", () => this.send("decline_takeback"), takebacks && opponentAsks),
      button(opponentRematch ? "Accept rematch" : iAskedRematch ? "Rematch asked" : "Rematch", "rematch",
        () => this.send("rematch"), over && !state.rematch),
      state.rematch && state.you === "spectator" ? h("a", { class: "button watch-rematch", href: `#/g/${state.rematch}` }, "Watch the rematch") : null,
      // Analysis is for those not playing: watchers, a finished game, two players on one device.
      state.game === "xiangqi" && (state.you === "spectator" || state.status.over || state.mode === "local")
        ? h("a", { class: "button analyse", href: analysisLink(state.start, state.moves.slice(0, this.viewPly ?? state.moves.length)) }, "Analyse")
        : null,
      button("Copy FEN", "copy-fen", () => this.copy(state.fen, "FEN copied")),
      h("a", { class: "button pgn", href: pgnUrl(state.id, state.game === "xiangqi" ? chosenNotation() : null), download: `${state.game}-${state.id}.pgn` }, "Download PGN"),
      h("a", { class: "button", href: "#/" }, "New game"),
    ];
    this.actions.replaceChildren(...buttons.filter(Boolean));
    const offered = this.actions.querySelector(".offer-draw");
    if (offered && iOffered) offered.disabled = true;
    const asked = this.actions.querySelector(".takeback");
    if (asked && iAsked) asked.disabled = true;
    const rematch = this.actions.querySelector(".rematch");
    if (rematch && iAskedRematch) rematch.disabled = true;
  }

  /** When the game's engine cannot be had: a choice of the offered engines to go on against. */
  engineChoice() {
    if (!this.state.engine_missing || this.state.you === "spectator") return [];
    if (!this.engines) {
      this.loadEngines();
      return [];
    }
    if (!this.engines.length) return [];
    const choice = h("select", { class: "engine-choice", "aria-label": "Engine to go on against" },
      this.engines.map((engine) => h("option", { value: engine.name }, engineLabel(engine))));
    const go = h("button", { type: "button", class: "primary change-engine",
      onclick: () => this.send("change_engine", { engine: choice.value }) }, "Go on against");
    return [go, choice];
  }

  confirmThen(target, question, action) {
    if (target.dataset.confirming) {
      action();
      return;
    }
    const label = target.textContent;
    target.dataset.confirming = "1";
    target.textContent = question;
    setTimeout(() => {
      delete target.dataset.confirming;
      target.textContent = label;
    }, CONFIRM_MS);
  }

  async copy(text, done) {
    if (await copyText(text)) toast(done, "info");
    else toast("Copying failed: " + text);
  }

  renderSuggestions() {
    const tally = this.state.suggestions || [];
    const spectator = this.state.you === "spectator";
    const lines = [];
    if (spectator && !this.state.status.over) {
      lines.push(h("p", { class: "hint-text" }, this.mySuggestion
        ? `Your suggestion: ${legalMoveName(this.state, this.mySuggestion)}`
        : `You are watching (${this.state.spectators} watching). Move a piece to suggest ${this.seatLabel(this.state.to_move)}'s next move.`));
    }
    if (tally.length) {
      lines.push(h("h3", {}, "Suggested moves"));
      lines.push(h("ul", { class: "tally" }, tally.map(([move, count]) =>
        h("li", { "data-move": move }, [h("span", { class: "move" }, legalMoveName(this.state, move)), ` × ${count}`]))));
    }
    if (this.hint) lines.push(h("p", { class: "hint-text" }, `Hint: ${legalMoveName(this.state, this.hint)}`));
    this.suggestions.replaceChildren(...lines);
  }

  /** A link to hand out: its `label`, the address to select, and a copy button. */
  linkRow(label, url, cls) {
    return h("div", { class: `link-row ${cls}` }, [
      h("span", {}, label),
      h("input", { type: "text", readonly: true, value: url, onfocus: (event) => event.target.select() }),
      h("button", { type: "button", onclick: () => this.copy(url, `${label} copied`) }, "Copy"),
    ]);
  }

  /** The watch link; and, while the other seat is free, the invite link this browser
   *  remembers for the game it created, at the top of the screen. */
  renderShare() {
    const state = this.state;
    const waiting = state.mode === "online" && SIDES.some((side) => state.seats[side] === null);
    const invite = waiting && state.you !== "spectator" ? inviteLink(state.id) : null;
    this.invite.hidden = !invite;
    this.invite.replaceChildren(...(invite ? [
      h("p", {}, "Send your opponent this link: the game starts when they open it."),
      this.linkRow("Opponent's link", absoluteLink(invite), "opponent-link"),
    ] : []));
    this.share.replaceChildren(...(state.mode !== "local" ? [this.linkRow("Watch link", absoluteLink(`/#/g/${state.id}`), "watch-link")] : []));
  }
}
