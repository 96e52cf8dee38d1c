// The start screen: a new game against an engine, for two players on this device, or
// online (the opponent's invite link is remembered with the game and shown first in it); and the lobby
// of open and live games to join or watch, refreshed while the screen is open.

import { analysisLink } from "./analysis-view.js";
import { createGame, engineLabel, joinGame, listEngines, listLobby } from "./api.js";
import { h } from "./dom.js";
import { myGames, nickname, rememberGame, setNickname } from "./player.js";
import { toast } from "./toast.js";

const LOBBY_REFRESH_MS = 5000;
const MODES = [
  ["engine", "Play the engine"],
  ["local", "Two players, one device"],
  ["online", "Play online"],
];
const CLOCKS = [["", "No clock"], ["180+2", "3 min + 2 s"], ["300+3", "5 min + 3 s"], ["600+5", "10 min + 5 s"], ["900+10", "15 min + 10 s"]];

function select(id, options) {
  return h("select", { id, name: id }, options.map(([value, label]) => h("option", { value }, label)));
}

function field(label, control) {
  return h("label", { class: "field" }, [h("span", {}, label), control]);
}

/** A lobby game's clock: "5+3" (minutes + seconds a move), or "no clock". */
function clockText(clock) {
  return clock ? `${+(clock.base_s / 60).toFixed(1)}+${clock.increment_s}` : "no clock";
}

/** Plies as players count them: "not started", "1 move", "3 moves" (a move per side). */
function movesText(plies) {
  if (plies === 0) return "not started";
  const moves = Math.ceil(plies / 2);
  return `${moves} move${moves === 1 ? "" : "s"}`;
}

/** Opens the seat (or watch view) behind one of the server's links ("/#/g/…"). */
export function openLink(link) {
  location.hash = link.slice(link.indexOf("#"));
}

/** The start screen inside `root`. */
export class StartView {
  constructor(root) {
    this.engines = [];
    this.build(root);
    this.loadEngines();
    this.refreshLobby();
    this.timer = setInterval(() => this.refreshLobby(), LOBBY_REFRESH_MS);
    document.title = "xiangqi-zero";
  }

  /** Leaves the screen: stops the lobby's refreshing. */
  destroy() {
    clearInterval(this.timer);
  }

  build(root) {
    this.game = select("game", [["xiangqi", "Xiangqi"], ["banqi", "Banqi (dark chess)"]]);
    this.engine = select("engine", []);
    this.side = select("side", []);
    this.clock = select("clock", CLOCKS);
    this.modeInputs = MODES.map(([value, label], index) => {
      const input = h("input", { type: "radio", name: "mode", id: `mode-${value}`, value, checked: index === 0 });
      return h("label", { class: "mode", for: `mode-${value}` }, [input, h("span", {}, label)]);
    });
    this.engineField = field("Engine", this.engine);
    // What the server says of the chosen engine (a trained net: whose, how strong).
    this.engineAbout = h("span", { class: "muted engine-about", id: "engine-about" });
    this.engineField.append(this.engineAbout);
    this.sideField = field("Your side", this.side);
    // A Xiangqi game may go on from a position or a record pasted here.
    this.record = h("textarea", {
      id: "start-record", name: "record", rows: 2, spellcheck: "false",
      placeholder: "Optional: a FEN, or a record in WXF, 中文 or ICCS",
    });
    this.recordField = field("Start from", this.record);
    this.name = h("input", {
      type: "text", id: "nickname", name: "nickname", maxlength: 24, autocomplete: "nickname",
      placeholder: "Shown on your seat", value: nickname(),
    });
    this.name.addEventListener("change", () => setNickname(this.name.value));
    // An online game is by invitation (its link) unless listed for anyone to join.
    this.openInput = h("input", { type: "checkbox", id: "open-game", name: "open" });
    this.openField = h("label", { class: "field checkbox" }, [this.openInput,
      h("span", {}, "Open to anyone: list it in the lobby (anyone may take the seat, and the invite link is then void)")]);
    const form = h("form", { class: "new-game", onsubmit: (event) => this.start(event) }, [
      h("div", { class: "modes", role: "radiogroup" }, this.modeInputs),
      field("Your name", this.name), field("Game", this.game), this.engineField, this.sideField, field("Clock", this.clock), this.openField, this.recordField,
      h("div", { class: "form-actions" }, [
        h("button", { type: "submit", id: "start-game", class: "primary" }, "Start"),
        (this.analyse = h("button", {
          type: "button", id: "analyse-position", title: "The analysis board for the FEN above (or the start)",
          onclick: () => { location.hash = analysisLink(this.record.value.trim() || null, []); },
        }, "Analyse")),
      ]),
    ]);
    form.addEventListener("change", () => this.refreshForm());
    this.lobby = h("div", { class: "lobby-list" }, h("p", { class: "muted" }, "Loading…"));
    root.replaceChildren(h("section", { class: "start-view" }, [
      h("div", { class: "panel" }, [h("h2", {}, "New game"), form]),
      h("div", { class: "panel" }, [h("h2", {}, "Lobby"), this.lobby]),
      this.yourGames(),
    ]));
    this.refreshForm();
  }

  mode() {
    return this.modeInputs.map((label) => label.querySelector("input")).find((input) => input.checked).value;
  }

  refreshForm() {
    const mode = this.mode();
    const game = this.game.value;
    this.engineField.hidden = mode !== "engine";
    this.sideField.hidden = mode === "local";
    this.openField.hidden = mode !== "online";
    this.recordField.hidden = this.analyse.hidden = game !== "xiangqi";
    const sideLabels = game === "banqi" ? ["Move first", "Move second"] : ["Red (moves first)", "Black"];
    const side = this.side.value || "red";
    this.side.replaceChildren(...[["red", sideLabels[0]], ["black", sideLabels[1]], ["random", "Random"]]
      .map(([value, label]) => h("option", { value, selected: value === side }, label)));
    const engine = this.engine.value;
    const offered = this.engines.filter((entry) => entry.games.includes(game));
    this.engine.replaceChildren(...offered.map((entry) =>
      h("option", { value: entry.name, selected: entry.name === engine, title: entry.spec }, engineLabel(entry))));
    const chosen = offered.find((entry) => entry.name === this.engine.value);
    this.engineAbout.textContent = chosen?.about ?? "";
    this.engineAbout.hidden = !chosen?.about;
  }

  async loadEngines() {
    try {
      this.engines = await listEngines();
      this.refreshForm();
    } catch (error) {
      toast(`Engines: ${error.message}`);
    }
  }

  async start(event) {
    event.preventDefault();
    const mode = this.mode();
    const newGame = { game: this.game.value, mode };
    if (mode === "engine") newGame.engine = this.engine.value;
    if (mode !== "local") newGame.side = this.side.value;
    if (mode === "online" && this.openInput.checked) newGame.open = true;
    setNickname(this.name.value);
    if (nickname()) newGame.name = nickname();
    if (newGame.game === "xiangqi" && this.record.value.trim()) newGame.record = this.record.value;
    if (this.clock.value) {
      const [base, increment] = this.clock.value.split("+").map(Number);
      newGame.clock = { base_s: base, increment_s: increment };
    }
    try {
      const created = await createGame(newGame);
      rememberGame(created.id, newGame.game, mode, created.links.play, created.links.opponent);
      openLink(created.links.play);
    } catch (error) {
      toast(error.message);
    }
  }

  /** "Your games": the games this browser created or joined, with their seat links. */
  yourGames() {
    const games = myGames();
    if (!games.length) return null;
    const label = { engine: "against the engine", local: "on one device", online: "online" };
    return h("div", { class: "panel your-games" }, [h("h2", {}, "Your games"), h("ul", { class: "lobby" },
      games.map((entry) => h("li", { "data-game": entry.id }, [
        h("div", { class: "lobby-title" }, `${entry.game === "banqi" ? "Banqi" : "Xiangqi"} · ${label[entry.mode] || entry.mode}`),
        h("div", { class: "lobby-players" }, new Date(entry.at).toLocaleString()),
        h("div", { class: "lobby-actions" }, h("a", { class: "button", href: entry.link.slice(entry.link.indexOf("#")) }, "Open")),
      ])))]);
  }

  async join(id, game) {
    try {
      setNickname(this.name.value);
      const joined = await joinGame(id, nickname());
      rememberGame(id, game, "online", joined.links.play);
      openLink(joined.links.play);
    } catch (error) {
      toast(`Joining: ${error.message}`);
    }
  }

  async refreshLobby() {
    let games;
    try {
      games = await listLobby();
    } catch (error) {
      this.lobby.replaceChildren(h("p", { class: "muted" }, `Lobby unavailable: ${error.message}`));
      return;
    }
    if (!games.length) {
      this.lobby.replaceChildren(h("p", { class: "muted" }, "No games open to anyone. Start one online and tick “Open to anyone”!"));
      return;
    }
    this.lobby.replaceChildren(h("ul", { class: "lobby" }, games.map((game) => h("li", { "data-game": game.id }, [
      h("div", { class: "lobby-title" }, `${game.game === "banqi" ? "Banqi" : "Xiangqi"} · ${game.mode}`),
      h("div", { class: "lobby-players" }, `${game.red || "—"} vs ${game.black || "—"} · ${clockText(game.clock)} · ${movesText(game.plies)} · ${game.spectators} watching`),
      h("div", { class: "lobby-actions" }, [
        game.status === "open" ? h("button", { type: "button", class: "primary", onclick: () => this.join(game.id, game.game) }, "Join") : null,
        h("button", { type: "button", onclick: () => openLink(`/#/g/${game.id}`) }, "Watch"),
      ]),
    ]))));
  }
}
