//! The HTTP routes: the page, the JSON API and the WebSocket upgrade; errors as
//! `{"error":"one line"}`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;

use super::analysis::MAX_THINK;
use super::assets::asset;
use super::hub::Hub;
use super::limits::MAX_FRAME;
use super::protocol::{Join, NewGame};
use super::socket;
use crate::game::xiangqi::Notation;

/// The largest `POST /api/games` body, in bytes.
const MAX_BODY: usize = 16 * 1024;
/// The most moves an analysis replays.
const MAX_ANALYSIS_MOVES: usize = 1000;
/// The largest WebSocket message the transport reads; larger ones close the connection.
/// Frames between [`MAX_FRAME`] and this are answered with an `error` frame.
const MAX_MESSAGE: usize = 256 * MAX_FRAME;

/// The server's routes over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(|| async { page("index.html") }))
        .route("/assets/{*file}", get(|Path(file): Path<String>| async move { page(&file) }))
        .route("/api/engines", get(engines))
        .route("/api/lobby", get(lobby))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/join", post(join))
        .route("/api/analysis", get(analysis))
        .route("/ws/{id}", get(connect))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
}

/// `{"error": message}` with `status`.
fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The 404 for an unknown game.
fn unknown_game(id: &str) -> Response {
    error(StatusCode::NOT_FOUND, &format!("unknown game `{}`", id.chars().take(40).collect::<String>()))
}

/// An embedded page file.
fn page(path: &str) -> Response {
    match asset(path) {
        Some((kind, bytes)) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        None => error(StatusCode::NOT_FOUND, "no such file"),
    }
}

async fn engines(State(hub): State<Arc<Hub>>) -> Response {
    let list: Vec<_> = hub
        .engines()
        .iter()
        .map(|e| json!({ "name": e.name, "spec": e.text, "games": e.games, "about": e.about }))
        .collect();
    axum::Json(json!({ "engines": list })).into_response()
}

async fn lobby(State(hub): State<Arc<Hub>>) -> Response {
    axum::Json(json!({ "games": hub.lobby() })).into_response()
}

async fn create(State(hub): State<Arc<Hub>>, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return error(rejection.status(), &format!("body too large (at most {MAX_BODY} bytes)")),
    };
    let new: NewGame = match serde_json::from_slice(&body) {
        Ok(new) => new,
        Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad NewGame body: {e}")),
    };
    match tokio::task::block_in_place(|| hub.create(&new)) {
        Ok(created) => axum::Json(created).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, &e),
    }
}

async fn join(State(hub): State<Arc<Hub>>, Path(id): Path<String>, body: Result<Bytes, BytesRejection>) -> Response {
    let join: Join = match body.as_deref().map(|body| body.trim_ascii()) {
        Ok([]) => Join::default(),
        Ok(body) => match serde_json::from_slice(body) {
            Ok(join) => join,
            Err(e) => return error(StatusCode::BAD_REQUEST, &format!("bad Join body: {e}")),
        },
        Err(rejection) => return error(rejection.status(), &format!("body too large (at most {MAX_BODY} bytes)")),
    };
    match tokio::task::block_in_place(|| hub.join(&id, join.name.as_deref())) {
        Some(Ok(created)) => axum::Json(created).into_response(),
        Some(Err(e)) => error(StatusCode::CONFLICT, &e),
        None => unknown_game(&id),
    }
}

async fn summary(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    match hub.room(&id) {
        Some(room) => axum::Json(room.summary()).into_response(),
        None => unknown_game(&id),
    }
}

/// The game's PGN, its Xiangqi moves in `?notation=` (`iccs`, the default, `wxf`, `chinese`).
async fn pgn(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let notation = match query.get("notation").map(|text| text.parse::<Notation>()) {
        None => Notation::Iccs,
        Some(Ok(notation)) => notation,
        Some(Err(why)) => return error(StatusCode::BAD_REQUEST, &why),
    };
    match hub.room(&id) {
        Some(room) => {
            let text = room.record().to_pgn("xiangqi-zero serve", notation);
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
        }
        None => unknown_game(&id),
    }
}

/// The analysis board's answer for `?fen=` (a position or a record; default: the start)
/// after `?moves=` (ICCS, separated by commas), searched for `?ms=` milliseconds (default
/// 0.8 s, at most [`MAX_THINK`]).
async fn analysis(State(hub): State<Arc<Hub>>, Query(query): Query<HashMap<String, String>>) -> Response {
    let moves: Vec<String> = query
        .get("moves")
        .map(|moves| moves.split(',').map(str::trim).filter(|m| !m.is_empty()).map(String::from).collect())
        .unwrap_or_default();
    if moves.len() > MAX_ANALYSIS_MOVES {
        return error(StatusCode::BAD_REQUEST, &format!("at most {MAX_ANALYSIS_MOVES} moves"));
    }
    let think = match query.get("ms").map(|ms| ms.parse::<u64>()) {
        None => None,
        Some(Ok(ms)) if (1..=MAX_THINK.as_millis() as u64).contains(&ms) => Some(Duration::from_millis(ms)),
        Some(_) => {
            return error(StatusCode::BAD_REQUEST, &format!("ms: a search time from 1 to {}", MAX_THINK.as_millis()))
        }
    };
    match hub.analyse(query.get("fen").cloned(), moves, think).await {
        Some(Ok(analysis)) => axum::Json(analysis).into_response(),
        Some(Err(e)) => error(StatusCode::BAD_REQUEST, &e),
        None => error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy analysing: try again in a moment"),
    }
}

async fn connect(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Some(room) = hub.room(&id) else { return unknown_game(&id) };
    match upgrade {
        Ok(upgrade) => upgrade
            .max_message_size(MAX_MESSAGE)
            .max_frame_size(MAX_MESSAGE)
            .on_upgrade(move |ws| socket::serve(ws, room, query.get("token").cloned(), query.get("name").cloned()))
            .into_response(),
        Err(rejection) => error(StatusCode::BAD_REQUEST, &rejection.body_text()),
    }
}
