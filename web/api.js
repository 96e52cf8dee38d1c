// The server's HTTP routes (docs/web-protocol.md): engines, lobby, creating and joining
// games, and the address of a game's PGN and WebSocket.

async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${method} ${path}: HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** The engines the server offers: [{name, spec, games}]. */
export async function listEngines() {
  return (await request("GET", "/api/engines")).engines;
}

/** How an offered engine is named in a menu: a learned one by its kind, another by its spec. */
export function engineLabel(engine) {
  if (!engine.about) return `${engine.name} (${engine.spec})`;
  return `${engine.name} (${engine.spec.startsWith("nnue") ? "NNUE" : "trained net"})`;
}

/** Open and live games, newest first: [GameSummary]. */
export async function listLobby() {
  return (await request("GET", "/api/lobby")).games;
}

/** Creates a game from a NewGame body; resolves to {id, token, links}. */
export function createGame(newGame) {
  return request("POST", "/api/games", newGame);
}

/** A game's summary (GameSummary); rejects with `status` 404 for an unknown game. */
export function gameSummary(id) {
  return request("GET", `/api/games/${encodeURIComponent(id)}`);
}

/** Takes the free seat of a game open to anyone, for the player `name` (may be empty);
 *  resolves to {id, token, links}. */
export function joinGame(id, name) {
  return request("POST", `/api/games/${encodeURIComponent(id)}/join`, name ? { name } : undefined);
}

/** The address of a game's PGN, its Xiangqi moves in `notation` (iccs, wxf, chinese) when given. */
export function pgnUrl(id, notation) {
  const query = notation ? `?notation=${notation}` : "";
  return `/api/games/${encodeURIComponent(id)}/pgn${query}`;
}

/** The analysis of the Xiangqi position after `moves` (ICCS) from `fen` (null: the
 *  start; a FEN or a record), searched for `ms` milliseconds (default: the server's 0.8 s):
 *  the position, the engine's lines and the net's view (docs/web-protocol.md). */
export function analysePosition(fen, moves, ms) {
  const query = positionQuery(fen, moves);
  const think = ms ? `${query ? "&" : ""}ms=${ms}` : "";
  return request("GET", `/api/analysis?${query}${think}`);
}

/** The query naming a Xiangqi position: `fen=…` (left out for the start) and `moves=…`
 *  (ICCS, separated by commas; left out when none). */
export function positionQuery(fen, moves) {
  const query = new URLSearchParams();
  if (fen) query.set("fen", fen);
  if (moves.length) query.set("moves", moves.join(","));
  return query.toString();
}

/** The absolute address of one of the server's links ("/#/g/<id>?token=…"). */
export function absoluteLink(link) {
  return new URL(link, location.origin).href;
}
