//! The broadcast load measurement behind `bench web`: a local game watched by many
//! spectators over real WebSocket connections, and the time from each move to its
//! arrival at every spectator. Also a small client (an HTTP POST, a WebSocket reader) for
//! the measurement and the tests.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::{start, Options};

/// What the measurement found.
#[derive(Clone, Debug)]
pub struct Latencies {
    /// Move-to-spectator times, one per spectator and move, sorted.
    pub samples: Vec<Duration>,
    /// Spectators times moves: the arrivals expected.
    pub expected: usize,
}

impl Latencies {
    /// The `q`-quantile (0 to 1) of the samples.
    pub fn quantile(&self, q: f64) -> Duration {
        let last = self.samples.len().saturating_sub(1);
        self.samples.get((last as f64 * q).round() as usize).copied().unwrap_or_default()
    }
}

/// Sends `body` as JSON to `path` on `addr` by HTTP/1.1 POST (GET when `None`); the
/// status code and the body.
pub fn http(addr: SocketAddr, path: &str, body: Option<&str>) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    let request = match body {
        Some(body) => format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
        None => format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    };
    stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).map_err(|e| e.to_string())?;
    let status = answer.split(' ').nth(1).and_then(|code| code.parse().ok()).ok_or("no HTTP status")?;
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_string();
    Ok((status, body))
}

/// Plays `moves` moves of a local Xiangqi game watched by `spectators` connections on a
/// fresh server (database in the temporary directory), each move sent once every
/// spectator has the previous one, and times each arrival.
pub fn measure(spectators: usize, moves: usize) -> Result<Latencies, String> {
    let db = std::env::temp_dir().join(format!("xiangqi-zero-bench-web-{}.sqlite3", std::process::id()));
    let options = Options {
        addr: ([127, 0, 0, 1], 0).into(),
        db: db.clone(),
        engines: vec!["easy=random".into()],
        about: Vec::new(),
    };
    let server = start(&options)?;
    let (status, created) = http(server.addr(), "/api/games", Some(r#"{"game":"xiangqi","mode":"local"}"#))?;
    let created: serde_json::Value = serde_json::from_str(&created).map_err(|e| e.to_string())?;
    let (Some(id), Some(token)) = (created["id"].as_str(), created["token"].as_str()) else {
        return Err(format!("cannot create a game (HTTP {status})"));
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let url = format!("ws://{}/ws/{id}", server.addr());
    let result = runtime.block_on(run(url, token.to_string(), spectators, moves));
    server.stop();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    result
}

async fn run(url: String, token: String, spectators: usize, moves: usize) -> Result<Latencies, String> {
    let (arrived, mut arrivals) = mpsc::unbounded_channel::<(usize, Instant)>();
    for _ in 0..spectators {
        let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str()).await.map_err(|e| e.to_string())?;
        let arrived = arrived.clone();
        tokio::spawn(async move {
            let mut seen = 0;
            while let Some(Ok(Message::Text(text))) = socket.next().await {
                let now = Instant::now();
                let plies = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|state| state["moves"].as_array().map(Vec::len));
                if let Some(plies) = plies.filter(|&p| p > seen) {
                    seen = plies;
                    let _ = arrived.send((plies, now));
                }
            }
        });
    }
    let (mut player, _) =
        tokio_tungstenite::connect_async(format!("{url}?token={token}")).await.map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    for ply in 1..=moves {
        let legal = loop {
            match player.next().await {
                Some(Ok(Message::Text(text))) => {
                    let state: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                    if state["moves"].as_array().map(Vec::len) == Some(ply - 1) {
                        break state["legal"][0].as_str().unwrap_or_default().to_string();
                    }
                }
                _ => return Err("the player's connection closed".to_string()),
            }
        };
        let sent = Instant::now();
        let frame = serde_json::json!({"type": "move", "move": legal}).to_string();
        player.send(Message::Text(frame.into())).await.map_err(|e| e.to_string())?;
        let mut received = 0;
        while received < spectators {
            match tokio::time::timeout(Duration::from_secs(30), arrivals.recv()).await {
                Ok(Some((plies, at))) if plies == ply => {
                    samples.push(at.duration_since(sent));
                    received += 1;
                }
                Ok(Some(_)) => {}
                _ => return Err(format!("only {received} of {spectators} spectators got move {ply}")),
            }
        }
    }
    samples.sort();
    Ok(Latencies { samples, expected: spectators * moves })
}
