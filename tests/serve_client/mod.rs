//! A client of `xiangqi-zero serve` for the tests: the real server started in-process on
//! a free loopback port over a database file, HTTP requests, WebSocket connections.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xiangqi_zero::web::{load, start, Options, Server};

/// How long a test waits for any one frame.
const PATIENCE: Duration = Duration::from_secs(20);

/// A fresh database path in the temporary directory, named for `test`.
pub fn fresh_db(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-zero-serve-tests-{}", std::process::id()));
    let db = dir.join(format!("{test}.sqlite3"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

/// Starts the real server on a free port over `db` with `engines`.
pub fn serve(db: &Path, engines: &[&str]) -> Server {
    let options = Options {
        addr: ([127, 0, 0, 1], 0).into(),
        db: db.to_path_buf(),
        engines: engines.iter().map(ToString::to_string).collect(),
        about: Vec::new(),
    };
    start(&options).expect("the server starts")
}

/// `GET path` (or POST `body`): the status and the body as JSON (or a string).
pub fn http(addr: SocketAddr, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = load::http(addr, path, body).expect("an HTTP answer");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// `GET path` (or POST `body`), which must be refused as a bad request: its error line.
pub fn bad_request(addr: SocketAddr, path: &str, body: Option<&str>) -> String {
    let (status, answer) = http(addr, path, body);
    assert_eq!(status, 400, "{answer}");
    answer["error"].as_str().expect("an error line").to_string()
}

/// Creates a game: its `Created` answer.
pub fn create(addr: SocketAddr, body: &str) -> Value {
    let (status, created) = http(addr, "/api/games", Some(body));
    assert_eq!(status, 200, "{created}");
    created
}

/// One WebSocket connection to a game.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The frame read while connecting, not yet returned by [`Client::next`].
    first: Option<Value>,
}

impl Client {
    /// Connects to game `id` with `token` (none: a spectator).
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let url = match token {
            Some(token) => format!("ws://{addr}/ws/{id}?token={token}"),
            None => format!("ws://{addr}/ws/{id}"),
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("the WebSocket opens");
        // The server speaks only once it has joined the connection to the game (taken its
        // seat): waiting for the first frame keeps a move sent next from racing the join.
        let mut client = Client { ws, first: None };
        client.first = Some(client.read().await);
        client
    }

    /// Sends a text frame.
    pub async fn send(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.expect("the frame is sent");
    }

    /// Sends `count` copies of a text frame in one write, so that they arrive together.
    pub async fn send_burst(&mut self, text: &str, count: usize) {
        for _ in 0..count {
            self.ws.feed(Message::Text(text.into())).await.expect("the frame is queued");
        }
        self.ws.flush().await.expect("the frames are sent");
    }

    /// Sends raw bytes as a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::Binary(bytes.into())).await.expect("the frame is sent");
    }

    /// Plays `mv`.
    pub async fn play(&mut self, mv: &str) {
        self.send(&format!(r#"{{"type":"move","move":"{mv}"}}"#)).await;
    }

    /// The next JSON frame.
    pub async fn next(&mut self) -> Value {
        match self.first.take() {
            Some(first) => first,
            None => self.read().await,
        }
    }

    /// The next JSON frame off the connection.
    async fn read(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next()).await.expect("a frame in time");
            match frame {
                Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).expect("JSON from the server"),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                other => panic!("the connection ended: {other:?}"),
            }
        }
    }

    /// The first `state` frame that satisfies `wanted`.
    pub async fn state_where(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let frame = self.next().await;
            if frame["type"] == "state" && wanted(&frame) {
                return frame;
            }
        }
    }

    /// The first `state` frame with `plies` moves.
    pub async fn state_at(&mut self, plies: usize) -> Value {
        self.state_where(|s| s["moves"].as_array().map(Vec::len) == Some(plies)).await
    }

    /// The message of the next `error` frame (skipping `state` frames).
    pub async fn error(&mut self) -> String {
        loop {
            let frame = self.next().await;
            if frame["type"] == "error" {
                return frame["message"].as_str().expect("a message").to_string();
            }
            assert_eq!(frame["type"], "state", "unexpected frame {frame}");
        }
    }

    /// The next frame that is not a `state` frame.
    pub async fn reply(&mut self) -> Value {
        loop {
            let frame = self.next().await;
            if frame["type"] != "state" {
                return frame;
            }
        }
    }
}

/// The moves of a state frame.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m.as_str().unwrap_or_default().to_string()).collect()
}
