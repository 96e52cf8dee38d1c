// What this browser remembers of its player: the nickname shown on its seats, and its own
// games (the seat links it created or joined, and the invite link of an online game it
// created), for the start screen's "Your games" and the game screen of any of its tabs.
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

/** This browser's games, newest first: [{id, game, mode, link, invite, at}] (`invite`:
 *  the opponent's link of an online game created here, else absent). */
export function myGames() {
  return read(GAMES_KEY, []);
}

/** The invite link of the online game `id` this browser created, or null. */
export function inviteLink(id) {
  return myGames().find((entry) => entry.id === id)?.invite ?? null;
}

/** Remembers the game `id` (`game`, `mode`) whose seat this browser holds through `link`,
 *  with the opponent's `invite` link when it created the game online (an invite
 *  remembered before is kept). */
export function rememberGame(id, game, mode, link, invite) {
  const games = myGames();
  const known = games.find((entry) => entry.id === id);
  const entry = { id, game, mode, link, invite: invite ?? known?.invite, at: Date.now() };
  write(GAMES_KEY, [entry, ...games.filter((other) => other !== known)].slice(0, MAX_GAMES));
}
