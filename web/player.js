// What this browser remembers of its player: the nickname shown on its seats, and its own
// games (the seat links it created or joined), for the start screen's "Your games".
// Kept in localStorage; nothing of it leaves the browser but the nickname.

const NAME_KEY = "xz-name";
const GAMES_KEY = "xz-my-games";
/** The most games remembered; the oldest are forgotten first. */
const MAX_GAMES = 30;

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (a private window's policy): remembered for this page only, not at all.
  }
}

/** The nickname this browser plays under ("" when none was given). */
export function nickname() {
  return read(NAME_KEY, "");
}

/** Remembers `name` as this browser's nickname. */
export function setNickname(name) {
  write(NAME_KEY, name.trim());
}

/** This browser's games, newest first: [{id, game, mode, link, at}]. */
export function myGames() {
  return read(GAMES_KEY, []);
}

/** Remembers the game `id` (`game`, `mode`) whose seat this browser holds through `link`. */
export function rememberGame(id, game, mode, link) {
  const games = myGames().filter((entry) => entry.id !== id);
  games.unshift({ id, game, mode, link, at: Date.now() });
  write(GAMES_KEY, games.slice(0, MAX_GAMES));
}
