//! `serve` under abuse and load: thousands of random and mutated frames against a live
//! game, and a move broadcast to 200 spectators.

mod serve_client;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serve_client::{create, fresh_db, moves, serve, Client};

/// Frames a valid client could send, the raw material of the mutations.
const VALID: [&str; 8] = [
    r#"{"type":"move","move":"h2e2"}"#,
    r#"{"type":"suggest","move":"h9g7"}"#,
    r#"{"type":"resign"}"#,
    r#"{"type":"offer_draw"}"#,
    r#"{"type":"accept_draw"}"#,
    r#"{"type":"decline_draw"}"#,
    r#"{"type":"hint"}"#,
    r#"{"type":"ping"}"#,
];

/// A frame that is random bytes, a truncated or mutated valid frame, a frame of the wrong
/// shape, or a huge one. `safe`: never a valid frame (for a seat, whose valid frames
/// would change the game).
fn garbage(rng: &mut StdRng, safe: bool) -> Vec<u8> {
    let valid = VALID[rng.random_range(0..VALID.len())].as_bytes().to_vec();
    match rng.random_range(0..6) {
        0 => (0..rng.random_range(0..200)).map(|_| rng.random()).collect(),
        1 => valid[..rng.random_range(0..valid.len() - 1)].to_vec(),
        2 if !safe => {
            let mut bytes = valid;
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..bytes.len());
                bytes[i] = rng.random();
            }
            bytes
        }
        3 => br#"{"type":7,"move":["h2e2"]}"#.to_vec(),
        4 => vec![b'['; rng.random_range(4097..20_000)],
        _ => format!(r#"{{"type":"move","move":"{}"}}"#, "a".repeat(rng.random_range(0..3000))).into_bytes(),
    }
}

#[test]
fn random_and_mutated_frames_change_nothing() {
    let db = fresh_db("fuzz");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let created = create(addr, r#"{"game":"xiangqi","mode":"online","side":"red"}"#);
    let id = created["id"].as_str().unwrap().to_string();
    let red_token = created["token"].as_str().unwrap().to_string();
    let black_token = created["links"]["opponent"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        red.play("h2e2").await;
        black.state_at(1).await;
        black.play("h9g7").await;
        let before = red.state_at(2).await;
        let mut rng = StdRng::seed_from_u64(9);
        let mut sent = 0;
        // Within each connection's burst of 40, so that every frame is read and answered.
        for round in 0..100 {
            let token = match round % 4 {
                0 => Some(red_token.as_str()),
                1 => Some(black_token.as_str()),
                2 => Some("ffffffffffffffffffffffffffffffff"),
                _ => None,
            };
            let mut client = Client::connect(addr, &id, token).await;
            for _ in 0..35 {
                let frame = garbage(&mut rng, token.is_some() && round % 4 < 2);
                match std::str::from_utf8(&frame) {
                    Ok(text) if rng.random_bool(0.7) => client.send(text).await,
                    _ => client.send_binary(frame).await,
                }
                sent += 1;
            }
            client.send(r#"{"type":"ping"}"#).await;
            while client.reply().await["type"] != "pong" {}
        }
        assert!(sent >= 3000);
        // A flood past the rate limit: one warning, then silence, and the game goes on.
        let mut flood = Client::connect(addr, &id, None).await;
        // A thousand at once: more than the burst of 40 and 20 a second allow however slowly
        // this machine reads them (unless it reads fewer than 20 a second).
        flood.send_burst("{", 1000).await;
        let mut answered = 0;
        loop {
            let message = flood.error().await;
            if message == "too many frames: at most 20 a second; slow down" {
                break;
            }
            assert!(message.starts_with("not JSON: "), "{message}");
            answered += 1;
        }
        assert!((40..1000).contains(&answered), "{answered} frames answered before the warning");
        let mut fresh = Client::connect(addr, &id, None).await;
        let after = fresh.next().await;
        assert_eq!(moves(&after), moves(&before));
        assert_eq!(after["fen"], before["fen"]);
        assert_eq!(after["fen"], "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        assert_eq!(after["status"]["over"], false);
        // Red read nothing during the rounds: its queued frames are read first, so that the
        // server is never stalled writing to it when its move comes.
        red.send(r#"{"type":"ping"}"#).await;
        while red.reply().await["type"] != "pong" {}
        red.play("h0g2").await;
        assert_eq!(moves(&black.state_at(3).await)[2], "h0g2");
    });
}

#[test]
fn a_move_reaches_all_200_spectators() {
    let latencies = xiangqi_zero::web::load::measure(200, 1).expect("the measurement runs");
    assert_eq!((latencies.samples.len(), latencies.expected), (200, 200));
}
