//! One WebSocket connection to a room: the newest `state` frame after every change, the
//! client's frames checked (size, rate, shape) and handed to the room, errors to this
//! client only.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use tokio::sync::mpsc;

use super::limits::{RateLimit, Verdict, MAX_FRAME};
use super::protocol::{nickname, ClientFrame, Reply};
use super::role::Role;
use super::room::Room;

/// Numbers the connections, so that a spectator's suggestion is its own.
static CONNECTIONS: AtomicU64 = AtomicU64::new(0);

/// Serves one connection to `room` with seat token `token` until it closes.
pub async fn serve(mut socket: WebSocket, room: Arc<Room>, token: Option<String>, name: Option<String>) {
    let connection = CONNECTIONS.fetch_add(1, Ordering::Relaxed);
    let mut frames = room.subscribe();
    let (role, warning) = room.join(token.as_deref(), &nickname(name.as_deref()));
    frames.mark_changed();
    let (replies, mut direct) = mpsc::unbounded_channel::<String>();
    if let Some(warning) = warning {
        let _ = replies.send(Reply::error(warning).to_json());
    }
    let mut limit = RateLimit::default();
    loop {
        let out = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => answer(&room, role, connection, &mut limit, text.as_bytes(), &replies),
                Some(Ok(Message::Binary(bytes))) => answer(&room, role, connection, &mut limit, &bytes, &replies),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            },
            changed = frames.changed() => match changed {
                Ok(()) => Some(frames.borrow_and_update().for_role(role).to_string()),
                Err(_) => break,
            },
            Some(reply) = direct.recv() => Some(reply),
        };
        if let Some(out) = out {
            if socket.send(Message::Text(out.into())).await.is_err() {
                break;
            }
        }
    }
    room.leave(role, connection);
}

/// What to send back for one client frame, if anything.
fn answer(
    room: &Arc<Room>,
    role: Role,
    connection: u64,
    limit: &mut RateLimit,
    bytes: &[u8],
    replies: &mpsc::UnboundedSender<String>,
) -> Option<String> {
    match limit.check() {
        Verdict::Accept => {}
        Verdict::Warn => return Some(Reply::error("too many frames: at most 20 a second; slow down").to_json()),
        Verdict::Drop => return None,
    }
    let reply = parse(bytes).and_then(|frame| room.handle(role, connection, frame, replies));
    match reply {
        Ok(reply) => reply.map(|r| r.to_json()),
        Err(message) => Some(Reply::error(message).to_json()),
    }
}

/// Reads a client frame, with a one-line reason when it is not one.
pub fn parse(bytes: &[u8]) -> Result<ClientFrame, String> {
    if bytes.len() > MAX_FRAME {
        return Err(format!("frame too large: {} bytes (at most {MAX_FRAME})", bytes.len()));
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let kind = value.get("type").and_then(|t| t.as_str()).ok_or("a frame needs a string `type`")?.to_string();
    const KINDS: [&str; 13] = [
        "move",
        "suggest",
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "takeback",
        "decline_takeback",
        "rematch",
        "hint",
        "abort",
        "change_engine",
        "ping",
    ];
    if !KINDS.contains(&kind.as_str()) {
        return Err(format!("unknown frame type `{}`", kind.chars().take(40).collect::<String>()));
    }
    serde_json::from_value(value).map_err(|e| format!("bad `{kind}` frame: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_or_refused_in_one_line() {
        assert!(matches!(parse(br#"{"type":"move","move":"h2e2"}"#), Ok(ClientFrame::Move { mv }) if mv == "h2e2"));
        assert_eq!(parse(br#"{"type":"dance"}"#).unwrap_err(), "unknown frame type `dance`");
        assert_eq!(parse(br#"[1,2]"#).unwrap_err(), "a frame needs a string `type`");
        assert_eq!(parse(br#"{"type":"move"}"#).unwrap_err(), "bad `move` frame: missing field `move`");
        assert!(parse(b"{").unwrap_err().starts_with("not JSON: "));
        assert_eq!(parse(&[b' '; 5000]).unwrap_err(), "frame too large: 5000 bytes (at most 4096)");
    }
}
