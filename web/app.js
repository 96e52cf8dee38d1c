// The page's entry point: routes the URL hash to a screen. "#/" is the start screen;
// "#/g/<id>?token=<seat token>" opens that seat of a game, "#/g/<id>" watches it — the
// same links the server hands out; "#/analysis?fen=…&moves=…" is the analysis board. Also wires the header's piece-set chooser and sound switch.

import { AnalysisView } from "./analysis-view.js";
import { GameView } from "./game-view.js";
import { attachPieceStyle } from "./piece-style.js";
import { attachSoundSwitch } from "./sounds.js";
import { StartView } from "./start-view.js";

const root = document.getElementById("app");
let screen = null;

function route() {
  if (screen) screen.destroy();
  const match = location.hash.match(/^#\/g\/([^?]+)(?:\?(.*))?$/);
  const analysis = location.hash.match(/^#\/analysis(?:\?(.*))?$/);
  if (match) {
    const token = new URLSearchParams(match[2] || "").get("token");
    screen = new GameView(root, decodeURIComponent(match[1]), token);
  } else if (analysis) {
    screen = new AnalysisView(root, analysis[1]);
  } else {
    screen = new StartView(root);
  }
  const kind = match ? "game" : analysis ? "analysis" : "start";
  // Another kind of screen opens at its top (a game opened from the start screen's foot).
  if (document.body.dataset.screen !== kind) window.scrollTo(0, 0);
  document.body.dataset.screen = kind;
}

attachPieceStyle(document.getElementById("piece-style"));
attachSoundSwitch(document.getElementById("sound-switch"));
window.addEventListener("hashchange", route);
route();
