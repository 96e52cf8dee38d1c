//! `serve` over real connections: the real server in-process on a loopback port, players
//! and spectators as WebSocket clients, the database a real file.

mod serve_client;

use serde_json::Value;
use serve_client::{bad_request, create, fresh_db, http, moves, serve, Client};
use xiangqi_zero::game::xiangqi::Xiangqi;
use xiangqi_zero::game::Game;
use xiangqi_zero::web::Server;

/// Red to move mates in three: two chariots against a lone general (and a pawn, so that
/// Black has moves). Black's general on e9 cannot step to d9 (the generals would face
/// each other on the open d-file) nor to rank 8 (the chariot on a8).
const MATE_FEN: &str = "4k4/R8/9/9/9/9/p8/9/9/3K4R w - - 0 1";
/// The moves to mate from [`MATE_FEN`]: shuffles, then the chariot to i9.
const MATE_LINE: [&str; 5] = ["a8a7", "a3a2", "a7a8", "a2b2", "i0i9"];
/// The position after each move of [`MATE_LINE`], worked out by hand.
const MATE_FENS: [&str; 5] = [
    "4k4/9/R8/9/9/9/p8/9/9/3K4R b - - 1 1",
    "4k4/9/R8/9/9/9/9/p8/9/3K4R w - - 2 2",
    "4k4/R8/9/9/9/9/9/p8/9/3K4R b - - 3 2",
    "4k4/R8/9/9/9/9/9/1p7/9/3K4R w - - 4 3",
    "4k3R/R8/9/9/9/9/9/1p7/9/3K5 b - - 5 3",
];

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().expect("a runtime")
}

/// A server for `test` with an online game open to anyone from [`MATE_FEN`]: the
/// server, the game's id, and the red and black (invite link) seat tokens.
fn mate_server(test: &str) -> (Server, String, String, String) {
    let server = serve(&fresh_db(test), &["easy=alphabeta:depth=1"]);
    let (id, red, black) = online_mate_game(server.addr());
    (server, id, red, black)
}

fn online_mate_game(addr: std::net::SocketAddr) -> (String, String, String) {
    let created =
        create(addr, &format!(r#"{{"game":"xiangqi","mode":"online","side":"red","open":true,"fen":"{MATE_FEN}"}}"#));
    let id = created["id"].as_str().unwrap().to_string();
    let red = created["token"].as_str().unwrap().to_string();
    let opponent = created["links"]["opponent"].as_str().unwrap();
    let black = opponent.split("token=").nth(1).unwrap().to_string();
    assert_eq!(created["links"]["play"], format!("/#/g/{id}?token={red}"));
    assert_eq!(created["links"]["watch"], format!("/#/g/{id}"));
    (id, red, black)
}

#[test]
fn two_players_and_two_spectators_play_to_mate() {
    let (server, id, red_token, black_token) = mate_server("mate");
    let addr = server.addr();
    let (status, lobby) = http(addr, "/api/lobby", None);
    assert_eq!(status, 200);
    assert_eq!(lobby["games"][0]["id"], id.as_str());
    assert_eq!(lobby["games"][0]["status"], "open");
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let first = red.next().await;
        assert_eq!(first["you"], "red");
        assert_eq!(first["seats"]["black"], Value::Null);
        assert_eq!(first["legal"], serde_json::json!([]), "no move offered before the opponent is seated");
        red.play("a8a7").await;
        assert_eq!(red.error().await, "wait for an opponent to take the other seat");
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        let mut watchers = [Client::connect(addr, &id, None).await, Client::connect(addr, &id, None).await];
        let seated = black.state_where(|s| s["spectators"] == 2).await;
        assert_eq!((seated["you"].as_str(), seated["seats"]["black"].as_str()), (Some("black"), Some("human")));
        assert_eq!(seated["fen"], MATE_FEN);
        assert_eq!(seated["board"][4], "k");
        assert_eq!(seated["board"][9], "R");
        assert_eq!(seated["board"][84], "K");
        assert_eq!(seated["legal"].as_array().unwrap().len(), 28);
        for (ply, mv) in MATE_LINE.iter().enumerate() {
            let mover = if ply % 2 == 0 { &mut red } else { &mut black };
            mover.play(mv).await;
            for watcher in watchers.iter_mut() {
                let state = watcher.state_at(ply + 1).await;
                assert_eq!(state["you"], "spectator");
                assert_eq!(state["fen"], MATE_FENS[ply]);
                assert_eq!(state["last"], *mv);
            }
        }
        let end = red.state_at(5).await;
        assert_eq!(moves(&end), MATE_LINE);
        assert_eq!(end["check"], "e9");
        assert_eq!(end["legal"], serde_json::json!([]));
        assert_eq!(
            end["status"],
            serde_json::json!({"over":true,"result":"1-0","reason":"checkmate","text":"Red wins by checkmate"})
        );
        black.play("b2b1").await;
        assert_eq!(black.error().await, "the game is over");
    });
    let (_, summary) = http(addr, &format!("/api/games/{id}"), None);
    assert_eq!((summary["status"].as_str(), summary["result"].as_str()), (Some("over"), Some("1-0")));
    let (status, pgn) = http(addr, &format!("/api/games/{id}/pgn"), None);
    assert_eq!(status, 200);
    let pgn = pgn.as_str().unwrap().to_string();
    assert!(pgn.contains(&format!("[FEN \"{MATE_FEN}\"]")), "{pgn}");
    assert!(pgn.contains("1. A8-A7 A3-A2 2. A7-A8 A2-B2 3. I0-I9"), "{pgn}");
    assert!(pgn.contains("1-0"), "{pgn}");
    // In the notation the page chose (worked out by hand: Red's a-file is its 9th, Black's its 1st).
    let (_, pgn) = http(addr, &format!("/api/games/{id}/pgn?notation=wxf"), None);
    let pgn = pgn.as_str().unwrap().to_string();
    assert!(pgn.contains("[Format \"WXF\"]") && pgn.contains("1. R9-1 P1+1 2. R9+1 P1.2 3. R1+9"), "{pgn}");
    let (_, pgn) = http(addr, &format!("/api/games/{id}/pgn?notation=chinese"), None);
    assert!(pgn.as_str().unwrap().contains("车九退一"), "{pgn}");
    let (status, refused) = http(addr, &format!("/api/games/{id}/pgn?notation=klingon"), None);
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("unknown notation `klingon`"), "{refused}");
    let (_, lobby) = http(addr, "/api/lobby", None);
    assert_eq!(lobby["games"], serde_json::json!([]));
}

#[test]
fn spectators_and_strangers_cannot_move() {
    let (server, id, red_token, black_token) = mate_server("refusals");
    let addr = server.addr();
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let _black = Client::connect(addr, &id, Some(&black_token)).await;
        red.state_where(|s| s["seats"]["black"] == "human").await;
        let mut watcher = Client::connect(addr, &id, None).await;
        watcher.play("a8a7").await;
        assert_eq!(watcher.error().await, "spectators cannot move; send a suggestion instead");
        let mut stranger = Client::connect(addr, &id, Some("0123456789abcdef0123456789abcdef")).await;
        assert_eq!(
            stranger.error().await,
            format!("the token is not a seat of game {id}; you are watching as a spectator")
        );
        stranger.play("a8a7").await;
        assert_eq!(stranger.error().await, "spectators cannot move; send a suggestion instead");
        stranger.send(r#"{"type":"resign"}"#).await;
        assert_eq!(stranger.error().await, "spectators cannot resign");
        red.play("a3a2").await;
        assert_eq!(red.error().await, "illegal move `a3a2`");
        red.play("a8").await;
        assert_eq!(red.error().await, "malformed move `a8`: expected from and to squares such as `h2e2`");
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        black.play("a3a2").await;
        assert_eq!(black.error().await, "not your turn: red to move");
        let mut fresh = Client::connect(addr, &id, None).await;
        let state = fresh.next().await;
        assert_eq!(state["fen"], MATE_FEN);
        assert_eq!(moves(&state), Vec::<String>::new());
        assert_eq!(state["status"]["over"], false);
    });
    let (status, missing) = http(addr, "/api/games/nosuchgame", None);
    assert_eq!((status, missing["error"].as_str()), (404, Some("unknown game `nosuchgame`")));
    let (status, _) = http(addr, "/ws/nosuchgame", None);
    assert_eq!(status, 404);
    let (status, bad) = http(addr, "/api/games", Some(r#"{"game":"go","mode":"local"}"#));
    assert_eq!((status, bad["error"].as_str()), (400, Some("unknown game `go` (xiangqi, banqi)")));
    let (status, bad) = http(addr, "/api/games", Some(r#"{"game":"xiangqi","mode":"engine","engine":"nobody"}"#));
    assert_eq!((status, bad["error"].as_str()), (400, Some("unknown engine `nobody` (easy)")));
    let huge = format!(r#"{{"game":"xiangqi","mode":"local","fen":"{}"}}"#, "x".repeat(20_000));
    let (status, bad) = http(addr, "/api/games", Some(&huge));
    assert_eq!((status, bad["error"].as_str()), (413, Some("body too large (at most 16384 bytes)")));
}

#[test]
fn suggestions_are_tallied_for_spectators_and_the_waiting_player() {
    let (server, id, red_token, black_token) = mate_server("suggestions");
    let addr = server.addr();
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        let mut watchers = Vec::new();
        for _ in 0..3 {
            watchers.push(Client::connect(addr, &id, None).await);
        }
        for (watcher, mv) in watchers.iter_mut().zip(["i0i9", "a8a7", "i0i9"]) {
            watcher.send(&format!(r#"{{"type":"suggest","move":"{mv}"}}"#)).await;
        }
        let tally = serde_json::json!([["i0i9", 2], ["a8a7", 1]]);
        let seen = watchers[0].state_where(|s| s["suggestions"] == tally).await;
        assert_eq!(seen["spectators"], 3);
        black.state_where(|s| s["suggestions"] == tally).await;
        let own = red.state_where(|s| s["spectators"] == 3).await;
        assert_eq!(own["suggestions"], serde_json::json!([]), "red does not see suggestions on its own turn");
        watchers[1].send(r#"{"type":"suggest","move":"d0e0"}"#).await;
        assert_eq!(watchers[1].error().await, "`d0e0` is not a legal move in this position");
        red.send(r#"{"type":"suggest","move":"a8a7"}"#).await;
        assert_eq!(red.error().await, "only spectators suggest moves; players play them");
        red.play("a8a7").await;
        let after = watchers[2].state_at(1).await;
        assert_eq!(after["suggestions"], serde_json::json!([]), "a move clears the tally");
        watchers[2].send(r#"{"type":"suggest","move":"a3a2"}"#).await;
        red.state_where(|s| s["suggestions"] == serde_json::json!([["a3a2", 1]])).await;
    });
}

#[test]
fn banqi_flips_reveal_pieces_and_decide_colours() {
    let db = fresh_db("banqi");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let created = create(addr, r#"{"game":"banqi","mode":"local"}"#);
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    runtime().block_on(async {
        let mut both = Client::connect(addr, id, Some(token)).await;
        let start = both.next().await;
        assert_eq!(start["you"], "both");
        assert_eq!(start["board"], serde_json::json!(vec!["X"; 32]));
        assert_eq!(start["colors"], serde_json::json!({"red":null,"black":null}));
        assert_eq!(start["legal"].as_array().unwrap().len(), 32);
        both.play("a1a1").await;
        let flipped = both.state_at(1).await;
        let recorded = moves(&flipped)[0].clone();
        let (mv, piece) = recorded.split_once(':').expect("a flip records its piece");
        assert_eq!(mv, "a1a1");
        assert_eq!(flipped["board"][28], piece, "a1 is the first cell of the bottom row");
        assert_eq!(flipped["board"].as_array().unwrap().iter().filter(|c| *c == "X").count(), 31);
        let first = if piece.chars().all(|c| c.is_ascii_uppercase()) { "red" } else { "black" };
        let second = if first == "red" { "black" } else { "red" };
        assert_eq!(flipped["colors"], serde_json::json!({"red": first, "black": second}));
        assert_eq!(flipped["to_move"], "black");
        assert_eq!(flipped["last"], "a1a1");
        both.play("d8d8").await;
        let again = both.state_at(2).await;
        let (_, second_piece) = moves(&again)[1].split_once(':').map(|(a, b)| (a.to_string(), b.to_string())).unwrap();
        assert_eq!(again["board"][3], second_piece.as_str());
        assert_eq!(again["to_move"], "red");
        both.play("a1a1").await;
        assert_eq!(both.error().await, "illegal move `a1a1`");
    });
}

#[test]
fn an_engine_answers_a_human_with_a_legal_move() {
    let db = fresh_db("engine");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let (status, engines) = http(addr, "/api/engines", None);
    assert_eq!(status, 200);
    assert_eq!(
        engines,
        serde_json::json!({"engines":[{"name":"easy","spec":"alphabeta:depth=1","games":["xiangqi","banqi"],"about":null}]})
    );
    let created = create(addr, r#"{"game":"xiangqi","mode":"engine","engine":"easy","side":"red"}"#);
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    assert_eq!(created["links"].get("opponent"), None);
    runtime().block_on(async {
        let mut human = Client::connect(addr, id, Some(token)).await;
        let start = human.next().await;
        assert_eq!(start["seats"], serde_json::json!({"red":"human","black":"engine: easy"}));
        human.send(r#"{"type":"hint"}"#).await;
        let hint = human.reply().await;
        assert_eq!(hint["type"], "hint");
        let hinted = hint["move"].as_str().unwrap();
        assert!(Xiangqi::start().parse_move(hinted).is_ok(), "hint {hinted}");
        human.play("h2e2").await;
        let answered = human.state_at(2).await;
        let played = moves(&answered);
        let mut game = Xiangqi::start();
        game.play(game.parse_move("h2e2").unwrap());
        assert!(game.parse_move(&played[1]).is_ok(), "the engine's reply {} is legal", played[1]);
        assert_eq!(answered["to_move"], "red");
        human.send(r#"{"type":"offer_draw"}"#).await;
        assert_eq!(human.error().await, "the engine does not take draw offers");
        human.send(r#"{"type":"resign"}"#).await;
        let over = human.state_where(|s| s["status"]["over"] == true).await;
        assert_eq!(over["status"]["text"], "Black wins by resignation");
        assert_eq!(over["status"]["result"], "0-1");
    });
}

#[test]
fn a_failing_engine_loses_for_its_side() {
    let db = fresh_db("broken");
    let server = serve(&db, &["broken=uci:/nonexistent/xiangqi-engine"]);
    let addr = server.addr();
    let created = create(addr, r#"{"game":"xiangqi","mode":"engine","engine":"broken","side":"black"}"#);
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    runtime().block_on(async {
        let mut human = Client::connect(addr, id, Some(token)).await;
        let over = human.state_where(|s| s["status"]["over"] == true).await;
        assert_eq!(
            over["status"],
            serde_json::json!({"over":true,"result":"0-1","reason":"engine-failure","text":"Black wins by engine failure"})
        );
        assert_eq!(moves(&over), Vec::<String>::new());
    });
    let (status, bad) = http(addr, "/api/games", Some(r#"{"game":"banqi","mode":"engine","engine":"broken"}"#));
    assert_eq!((status, bad["error"].as_str()), (400, Some("engine `broken` does not play banqi")));
}

#[test]
fn a_restart_keeps_the_game_and_the_seats() {
    let db = fresh_db("restart");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let (id, red_token, black_token) = online_mate_game(addr);
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        red.play(MATE_LINE[0]).await;
        black.state_at(1).await;
        black.play(MATE_LINE[1]).await;
        red.state_at(2).await;
    });
    server.stop();
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let (_, lobby) = http(addr, "/api/lobby", None);
    assert_eq!(lobby["games"][0]["status"], "live");
    assert_eq!(lobby["games"][0]["plies"], 2);
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let back = red.next().await;
        assert_eq!((back["you"].as_str(), back["fen"].as_str()), (Some("red"), Some(MATE_FENS[1])));
        assert_eq!(moves(&back), MATE_LINE[..2]);
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        for (ply, mv) in MATE_LINE.iter().enumerate().skip(2) {
            let mover = if ply % 2 == 0 { &mut red } else { &mut black };
            mover.play(mv).await;
            mover.state_at(ply + 1).await;
        }
        let end = black.state_at(5).await;
        assert_eq!(end["fen"], MATE_FENS[4]);
        assert_eq!(end["status"]["text"], "Red wins by checkmate");
    });
}

/// An open game that nobody has moved in leaves the lobby half an hour after its creation,
/// and a pasted record's moves do not count as moves in it (they once kept such a game
/// listed for ever); a game moved in stays. The creation times are set back in the
/// database between two runs of the server.
#[test]
fn an_open_game_nobody_moves_in_leaves_the_lobby_after_half_an_hour() {
    let db = fresh_db("lobby-age");
    let server = serve(&db, &[]);
    let addr = server.addr();
    let open = |extra: &str| {
        let body = format!(r#"{{"game":"xiangqi","mode":"online","side":"red","open":true,{extra}}}"#);
        create(addr, &body)["id"].as_str().unwrap().to_string()
    };
    let fresh = open(&format!(r#""fen":"{MATE_FEN}""#));
    let record = serde_json::json!(format!("[FEN \"{MATE_FEN}\"]\n1. R9-1 p1+1 2. R9+1 p1.2"));
    let imported = open(&format!(r#""record":{record}"#));
    let (moved, red_token, black_token) = online_mate_game(addr);
    runtime().block_on(async {
        let mut red = Client::connect(addr, &moved, Some(&red_token)).await;
        let mut black = Client::connect(addr, &moved, Some(&black_token)).await;
        red.play(MATE_LINE[0]).await;
        black.state_at(1).await;
    });
    let listed = |addr| {
        let (_, lobby) = http(addr, "/api/lobby", None);
        let mut ids: Vec<String> =
            lobby["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect();
        ids.sort();
        ids
    };
    let mut all = vec![fresh.clone(), imported.clone(), moved.clone()];
    all.sort();
    assert_eq!(listed(addr), all);
    server.stop();
    let aged = rusqlite::Connection::open(&db).unwrap();
    aged.execute("UPDATE games SET created = created - 31 * 60", []).unwrap();
    drop(aged);
    let server = serve(&db, &[]);
    assert_eq!(listed(server.addr()), vec![moved]);
}

#[test]
fn a_flag_falls_without_any_message() {
    let db = fresh_db("clock");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let created = create(addr, r#"{"game":"xiangqi","mode":"local","clock":{"base_s":3,"increment_s":0}}"#);
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    runtime().block_on(async {
        let mut watcher = Client::connect(addr, id, None).await;
        let mut player = Client::connect(addr, id, Some(token)).await;
        // No clock runs until both sides have moved once.
        let start = watcher.next().await;
        assert_eq!((start["clock"]["running"].clone(), start["clock"]["red_ms"].clone()), (Value::Null, 3000.into()));
        player.play("h2e2").await;
        let after_red = watcher.state_at(1).await;
        assert_eq!(after_red["clock"]["running"], Value::Null);
        assert_eq!(after_red["clock"]["black_ms"], 3000);
        player.play("h9g7").await;
        assert_eq!(watcher.state_at(2).await["clock"]["running"], "red");
        let over = watcher.state_where(|s| s["status"]["over"] == true).await;
        assert_eq!(
            over["status"],
            serde_json::json!({"over":true,"result":"0-1","reason":"time","text":"Black wins by time"})
        );
        assert_eq!(over["clock"]["red_ms"], 0);
        assert_eq!(over["clock"]["black_ms"], 3000, "Black's time never ran");
        assert_eq!(over["clock"]["running"], Value::Null);
        player.play("b0c2").await;
        assert_eq!(player.error().await, "the game is over");
    });
    let (_, summary) = http(addr, &format!("/api/games/{id}"), None);
    assert_eq!(summary["result"], "0-1");
}

/// The seat flaw a new player found: a stranger's lobby Join took the invited friend's
/// seat (the join answered with the invite link's own token). A lobby join now gets a
/// token of its own and voids the invite link, and only a game open to anyone is listed
/// or joinable from the lobby at all.
#[test]
fn the_lobby_join_takes_the_free_seat_once_and_voids_the_invite() {
    let db = fresh_db("join");
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let (id, red_token, invite_token) = online_mate_game(addr);
    let (_, lobby) = http(addr, "/api/lobby", None);
    assert_eq!(lobby["games"][0]["clock"], Value::Null);
    let (status, joined) = http(addr, &format!("/api/games/{id}/join"), Some(""));
    assert_eq!(status, 200, "{joined}");
    let black_token = joined["token"].as_str().unwrap().to_string();
    assert_ne!(black_token, invite_token, "the join must not hand out the invite link's token");
    assert_eq!((black_token.len(), joined["links"]["opponent"].clone()), (32, Value::Null));
    assert_eq!(joined["links"]["play"], format!("/#/g/{id}?token={black_token}"));
    let (_, summary) = http(addr, &format!("/api/games/{id}"), None);
    assert_eq!((summary["status"].as_str(), summary["black"].as_str()), (Some("live"), Some("human")));
    let (status, again) = http(addr, &format!("/api/games/{id}/join"), Some(""));
    assert_eq!((status, again["error"].as_str()), (409, Some(format!("game {id} has no free seat").as_str())));
    let (status, unknown) = http(addr, "/api/games/0000000000000000/join", Some(""));
    assert_eq!((status, unknown["error"].as_str()), (404, Some("unknown game `0000000000000000`")));
    runtime().block_on(async {
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        assert_eq!(black.next().await["you"], "black");
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        // The creator is told that a player from the lobby took the seat.
        assert_eq!(red.next().await["lobby_seat"], "black");
        // The friend with the old invite link only watches.
        let mut friend = Client::connect(addr, &id, Some(&invite_token)).await;
        assert!(friend.error().await.contains("is not a seat of game"));
        friend.play(MATE_LINE[0]).await;
        assert_eq!(friend.error().await, "spectators cannot move; send a suggestion instead");
        red.play(MATE_LINE[0]).await;
        black.state_at(1).await;
        black.play(MATE_LINE[1]).await;
        assert_eq!(red.state_at(2).await["fen"], MATE_FENS[1]);
    });
    // After a restart too the invite token is no seat.
    server.stop();
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    runtime().block_on(async {
        let mut friend = Client::connect(server.addr(), &id, Some(&invite_token)).await;
        assert!(friend.error().await.contains("is not a seat of game"));
    });
}

/// A game created without "open to anyone" is played by invitation only: not in the
/// lobby, and its seat is taken with the invite link and nothing else.
#[test]
fn an_invitation_only_game_is_unlisted_and_unjoinable() {
    let server = serve(&fresh_db("invite"), &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let created = create(
        addr,
        r#"{"game":"xiangqi","mode":"online","side":"red","name":" Ann\u0007 ","clock":{"base_s":300,"increment_s":3}}"#,
    );
    let id = created["id"].as_str().unwrap();
    let invite = created["links"]["opponent"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let listed =
        create(addr, r#"{"game":"xiangqi","mode":"online","open":true,"clock":{"base_s":300,"increment_s":3}}"#);
    create(addr, r#"{"game":"xiangqi","mode":"local"}"#);
    create(addr, r#"{"game":"xiangqi","mode":"engine","engine":"easy"}"#);
    let (_, lobby) = http(addr, "/api/lobby", None);
    assert_eq!(lobby["games"].as_array().unwrap().len(), 1, "{lobby}");
    assert_eq!(lobby["games"][0]["id"], listed["id"]);
    assert_eq!(lobby["games"][0]["clock"], serde_json::json!({"base_s":300.0,"increment_s":3.0}));
    let (status, refused) = http(addr, &format!("/api/games/{id}/join"), Some(""));
    assert_eq!(status, 409);
    assert!(refused["error"].as_str().unwrap().contains("by invitation only"), "{refused}");
    // Engine and local games have no seat to join, and no invite link to speak of.
    for (mode, says) in [("local", "both sides on one device"), ("engine\",\"engine\":\"easy", "against the engine")] {
        let other = create(addr, &format!(r#"{{"game":"xiangqi","mode":"{mode}"}}"#));
        let (status, refused) = http(addr, &format!("/api/games/{}/join", other["id"].as_str().unwrap()), Some(""));
        let why = refused["error"].as_str().unwrap();
        assert!(status == 409 && why.contains(says) && !why.contains("invite"), "{refused}");
    }
    let (status, refused) = http(addr, "/api/games", Some(r#"{"game":"xiangqi","mode":"local","open":true}"#));
    assert_eq!((status, refused["error"].as_str()), (400, Some("only online games are open to anyone")));
    runtime().block_on(async {
        // Nicknames on seats: the creator's, cleaned, and the friend's from its connection.
        let mut friend = Client::connect(addr, id, Some(&format!("{invite}&name=Bo%20Li"))).await;
        let seated = friend.next().await;
        assert_eq!(seated["you"], "black");
        assert_eq!(seated["seats"], serde_json::json!({"red": "Ann", "black": "Bo Li"}));
    });
    let (status, joined) =
        http(addr, &format!("/api/games/{}/join", listed["id"].as_str().unwrap()), Some(r#"{"name":"engine: fake"}"#));
    assert_eq!(status, 200, "{joined}");
    let (_, summary) = http(addr, &format!("/api/games/{}", listed["id"].as_str().unwrap()), None);
    assert_eq!(summary["black"], "human", "no player poses as an engine");
}

/// What a player may do before the game has really started: no resignation or draw
/// offer to an empty seat, an abort by either side before its first move (none after),
/// and no clock until both have moved.
#[test]
fn either_side_aborts_before_its_first_move_and_nobody_resigns_to_an_empty_seat() {
    let (server, id, red_token, black_token) = mate_server("abort");
    let addr = server.addr();
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        assert_eq!(red.next().await["can_abort"], true);
        for frame in [r#"{"type":"resign"}"#, r#"{"type":"offer_draw"}"#] {
            red.send(frame).await;
            assert_eq!(red.error().await, "nobody has taken the other seat yet: abort the game instead");
        }
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        red.play(MATE_LINE[0]).await;
        let after = black.state_at(1).await;
        assert_eq!(after["can_abort"], true, "Black has not moved yet");
        // Nor does a seat resign before its first move (the page offers abort there).
        black.send(r#"{"type":"resign"}"#).await;
        assert_eq!(black.error().await, "you have not moved yet: abort the game instead");
        let mut spectator = Client::connect(addr, &id, None).await;
        spectator.send(r#"{"type":"resign"}"#).await;
        assert_eq!(spectator.error().await, "spectators cannot resign");
        red.send(r#"{"type":"abort"}"#).await;
        assert_eq!(red.error().await, "too late to abort: you have moved; resign or offer a draw");
        black.send(r#"{"type":"abort"}"#).await;
        let over = red.state_where(|s| s["status"]["over"] == true).await;
        assert_eq!(
            over["status"],
            serde_json::json!({"over":true,"result":"*","reason":"aborted","text":"Game aborted"})
        );
        assert_eq!(over["can_abort"], false);
    });
    let (_, pgn) = http(addr, &format!("/api/games/{id}/pgn"), None);
    assert!(pgn.as_str().unwrap().contains("[Result \"*\"]"), "{pgn}");
}

#[test]
fn a_draw_is_offered_declined_and_agreed() {
    let (server, id, red_token, black_token) = mate_server("draw");
    let addr = server.addr();
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        black.send(r#"{"type":"accept_draw"}"#).await;
        assert_eq!(black.error().await, "there is no draw offer to answer");
        red.send(r#"{"type":"offer_draw"}"#).await;
        assert_eq!(red.error().await, "you have not moved yet: abort the game instead of offering a draw");
        red.play(MATE_LINE[0]).await;
        black.state_at(1).await;
        black.send(r#"{"type":"offer_draw"}"#).await;
        assert_eq!(black.error().await, "you have not moved yet: abort the game instead of offering a draw");
        black.play(MATE_LINE[1]).await;
        red.state_at(2).await;
        red.send(r#"{"type":"offer_draw"}"#).await;
        black.state_where(|s| s["draw_offer"] == "red").await;
        red.send(r#"{"type":"accept_draw"}"#).await;
        assert_eq!(red.error().await, "there is no draw offer to answer");
        black.send(r#"{"type":"decline_draw"}"#).await;
        red.state_where(|s| s["draw_offer"].is_null()).await;
        black.send(r#"{"type":"offer_draw"}"#).await;
        red.state_where(|s| s["draw_offer"] == "black").await;
        red.send(r#"{"type":"accept_draw"}"#).await;
        let over = black.state_where(|s| s["status"]["over"] == true).await;
        assert_eq!(
            over["status"],
            serde_json::json!({"over":true,"result":"1/2-1/2","reason":"agreement","text":"Draw by agreement"})
        );
        assert_eq!(over["fen"], MATE_FENS[1]);
    });
    let (_, summary) = http(addr, &format!("/api/games/{id}"), None);
    assert_eq!((summary["status"].as_str(), summary["result"].as_str()), (Some("over"), Some("1/2-1/2")));
}

/// A Xiangqi game goes on from a pasted record or FEN: the record's moves are the game's
/// first plies; a record with an illegal move, one whose game is over, or both a FEN and a
/// record are refused with the reason.
#[test]
fn a_game_goes_on_from_a_pasted_record() {
    let server = serve(&fresh_db("record"), &[]);
    let addr = server.addr();
    // PlayOK's style: WXF with lower-case black letters, tags, numbers, the result left open.
    let record =
        format!("[Game \"Chinese Chess\"]\n[FEN \"{MATE_FEN}\"]\n[Format \"WXF\"]\n\n1. R9-1 p1+1\n2. R9+1 p1.2\n*\n");
    let body = serde_json::json!({"game": "xiangqi", "mode": "local", "record": record}).to_string();
    let created = create(addr, &body);
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    runtime().block_on(async {
        let mut player = Client::connect(addr, id, Some(token)).await;
        let state = player.state_at(4).await;
        assert_eq!(moves(&state), MATE_LINE[..4]);
        assert_eq!(state["fen"], MATE_FENS[3]);
        player.play("i0i9").await;
        let end = player.state_at(5).await;
        assert_eq!(end["status"]["reason"], "checkmate");
    });
    // A FEN alone starts there, with no moves.
    let body = serde_json::json!({"game": "xiangqi", "mode": "local", "record": MATE_FENS[3]}).to_string();
    let (_, summary) = http(addr, &format!("/api/games/{}", create(addr, &body)["id"].as_str().unwrap()), None);
    assert_eq!(summary["plies"], 0);
    let refused = |record: &str, fen: Option<&str>| {
        let mut body = serde_json::json!({"game": "xiangqi", "mode": "local", "record": record});
        if let Some(fen) = fen {
            body["fen"] = fen.into();
        }
        bad_request(addr, "/api/games", Some(&body.to_string()))
    };
    // Worked out by hand: six legal moves, then Red's a-file chariot onto its own pawn.
    let error = refused("1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 P7+1 4. R9+3", None);
    assert!(error.contains("move 7") && error.contains("R9+3"), "{error}");
    let error = refused(&format!("[FEN \"{MATE_FEN}\"]\n1. R9-1 p1+1 2. R9+1 p1.2 3. R1+9"), None);
    assert_eq!(error, "the record's game is already over (checkmate)");
    assert!(refused("1. h2e2", Some(MATE_FEN)).contains("not both"));
    // Issue 50: a FEN with a short row is named as a FEN, as the terminal names it.
    assert_eq!(
        refused("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", None),
        "the FEN: invalid position `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w`: row `RNBAKABN` \
         (rank 0) has 8 files, not 9"
    );
    // The analysis board reads the same box the same way: a record Start accepts, and
    // the same FEN error.
    let (status, analysed) = http(addr, "/api/analysis?fen=1.%20C2.5%20H8%2B7", None);
    assert_eq!(
        (status, analysed["fen"].as_str()),
        (200, Some("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"))
    );
    let error =
        bad_request(addr, "/api/analysis?fen=rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN%20w", None);
    assert!(error.starts_with("the FEN: invalid position") && error.ends_with("has 8 files, not 9"), "{error}");
}

/// Takebacks: online by request (declined, then accepted: the asker's move and the reply
/// go), remembered across a restart; against the engine back to the human's turn; on one
/// device the last ply; none before the first move, none in Banqi.
#[test]
fn moves_are_taken_back_by_request_online_and_at_once_otherwise() {
    let db = fresh_db("takeback");
    let (id, red_token, black_token) = {
        let server = serve(&db, &["easy=alphabeta:depth=1"]);
        let addr = server.addr();
        let (id, red_token, black_token) = online_mate_game(addr);
        runtime().block_on(async {
            let mut red = Client::connect(addr, &id, Some(&red_token)).await;
            let mut black = Client::connect(addr, &id, Some(&black_token)).await;
            red.send(r#"{"type":"takeback"}"#).await;
            assert_eq!(red.error().await, "there is no move to take back");
            red.play("a8a7").await;
            black.state_at(1).await;
            black.play("a3a2").await;
            // Red reads up to Black's reply, so that no frame from before the takeback
            // (its own move's, say) can pass for one after it below.
            red.state_at(2).await;
            black.send(r#"{"type":"decline_takeback"}"#).await;
            assert_eq!(black.error().await, "there is no takeback request to answer");
            red.send(r#"{"type":"takeback"}"#).await;
            black.state_where(|s| s["takeback_request"] == "red").await;
            black.send(r#"{"type":"decline_takeback"}"#).await;
            black.state_where(|s| s["takeback_request"].is_null()).await;
            red.send(r#"{"type":"takeback"}"#).await;
            black.state_where(|s| s["takeback_request"] == "red").await;
            black.send(r#"{"type":"takeback"}"#).await;
            // Red's move and Black's reply to it are gone: Red to move at the start.
            let back = red.state_at(0).await;
            assert_eq!((back["fen"].as_str(), back["to_move"].as_str()), (Some(MATE_FEN), Some("red")));
            red.play("a8a7").await;
            red.state_at(1).await;
        });
        (id, red_token, black_token)
    };
    // After a restart the game goes on from what was left: one move.
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    runtime().block_on(async {
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        let state = black.next().await;
        assert_eq!(moves(&state), ["a8a7"], "{red_token}");
        assert_eq!(state["fen"], MATE_FENS[0]);
    });
    let engine = create(addr, r#"{"game":"xiangqi","mode":"engine","engine":"easy","side":"red"}"#);
    let local = create(addr, r#"{"game":"xiangqi","mode":"local"}"#);
    let banqi = create(addr, r#"{"game":"banqi","mode":"local"}"#);
    runtime().block_on(async {
        let connect = |game: &Value| {
            let (id, token) = (game["id"].as_str().unwrap().to_string(), game["token"].as_str().unwrap().to_string());
            async move { Client::connect(addr, &id, Some(&token)).await }
        };
        let mut human = connect(&engine).await;
        human.play("h2e2").await;
        human.state_at(2).await;
        human.send(r#"{"type":"takeback"}"#).await;
        let back = human.state_at(0).await;
        assert_eq!(back["to_move"], "red");
        let mut both = connect(&local).await;
        both.play("h2e2").await;
        both.play("h9g7").await;
        both.state_at(2).await;
        both.send(r#"{"type":"takeback"}"#).await;
        assert_eq!(moves(&both.state_at(1).await), ["h2e2"]);
        let mut banqi = connect(&banqi).await;
        banqi.play("a1a1").await;
        banqi.state_at(1).await;
        banqi.send(r#"{"type":"takeback"}"#).await;
        assert_eq!(banqi.error().await, "takebacks are for Xiangqi: a Banqi flip cannot be hidden again");
    });
}

/// A rematch after the end: on one device and against the engine at once, online once
/// both seats ask; the new game starts where the old one did, with the same clock and the
/// seats swapped: each token now plays the other colour.
#[test]
fn a_rematch_swaps_the_colours_and_keeps_the_clock() {
    let server = serve(&fresh_db("rematch"), &["easy=alphabeta:depth=1"]);
    let addr = server.addr();
    let (id, red_token, black_token) = online_mate_game(addr);
    let engine = create(
        addr,
        r#"{"game":"xiangqi","mode":"engine","engine":"easy","side":"red","clock":{"base_s":60,"increment_s":1}}"#,
    );
    runtime().block_on(async {
        let mut red = Client::connect(addr, &id, Some(&red_token)).await;
        let mut black = Client::connect(addr, &id, Some(&black_token)).await;
        red.send(r#"{"type":"rematch"}"#).await;
        assert_eq!(red.error().await, "a rematch is for a finished game");
        red.play(MATE_LINE[0]).await;
        black.state_at(1).await;
        red.send(r#"{"type":"resign"}"#).await;
        black.state_where(|s| s["status"]["over"] == true).await;
        red.send(r#"{"type":"rematch"}"#).await;
        black.state_where(|s| s["rematch_request"] == "red").await;
        black.send(r#"{"type":"rematch"}"#).await;
        let over = red.state_where(|s| s["rematch"].is_string()).await;
        let rematch = over["rematch"].as_str().unwrap().to_string();
        // Red's token sits at Black's seat now, and the game starts from the same position.
        let mut new_black = Client::connect(addr, &rematch, Some(&red_token)).await;
        let state = new_black.next().await;
        assert_eq!((state["you"].as_str(), state["fen"].as_str()), (Some("black"), Some(MATE_FEN)));
        let mut new_red = Client::connect(addr, &rematch, Some(&black_token)).await;
        assert_eq!(new_red.next().await["you"], "red");

        let (id, token) = (engine["id"].as_str().unwrap(), engine["token"].as_str().unwrap());
        let mut human = Client::connect(addr, id, Some(token)).await;
        human.play("h2e2").await;
        human.state_at(2).await;
        human.send(r#"{"type":"resign"}"#).await;
        human.state_where(|s| s["status"]["over"] == true).await;
        human.send(r#"{"type":"rematch"}"#).await;
        let rematch = human.state_where(|s| s["rematch"].is_string()).await["rematch"].as_str().unwrap().to_string();
        let mut human = Client::connect(addr, &rematch, Some(token)).await;
        // The engine, now Red, opens; the clock is the old one, full.
        let first = human.state_at(1).await;
        assert_eq!(first["you"], "black");
        assert_eq!(first["seats"], serde_json::json!({"red":"engine: easy","black":"human"}));
        assert_eq!(first["clock"]["increment_ms"], 1000);
        assert!(first["clock"]["black_ms"].as_u64().unwrap() <= 60_000);
    });
}

/// Issue 20's analysis board over HTTP: the alpha-beta engine's three best lines (from
/// [`MATE_FEN`] the mate in one first, then mates in two and three, all distinct), the
/// position after the moves given, a trained net's own view (its likeliest legal moves,
/// their shares falling, a win/draw/loss that adds up to 1), and one-line refusals.
#[test]
fn the_analysis_board_answers_lines_and_the_net_view() {
    use burn::tensor::Device;
    use xiangqi_zero::nn::{Net, NetConfig};
    let net = fresh_db("analysis").with_extension("safetensors");
    std::fs::create_dir_all(net.parent().unwrap()).unwrap();
    Net::new(NetConfig::new::<Xiangqi>(1, 8), &Device::flex()).save(&net).unwrap();
    let server = serve(&fresh_db("analysis"), &["easy=alphabeta:depth=1", &format!("tiny=net:{}", net.display())]);
    let addr = server.addr();
    let fen = MATE_FEN.replace(' ', "%20");
    let (status, mate) = http(addr, &format!("/api/analysis?fen={fen}"), None);
    assert_eq!(status, 200, "{mate}");
    let lines = mate["lines"].as_array().unwrap();
    let firsts: Vec<&str> = lines.iter().map(|line| line["moves"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!((firsts[0], &lines[0]["mate"], &lines[0]["names"][0]["wxf"]), ("i0i9", &1.into(), &"R1+9".into()));
    assert!(lines[1]["mate"] == 2 && firsts[1] != firsts[2] && firsts[1] != "i0i9", "{mate}");
    let legal: Vec<&str> = mate["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let view = &mate["net"];
    assert_eq!(view["engine"], "tiny");
    let wdl: f64 = view["wdl"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((wdl - 1.0).abs() < 1e-4, "{view}");
    let shares: Vec<f64> = view["policy"].as_array().unwrap().iter().map(|p| p["share"].as_f64().unwrap()).collect();
    assert!(!shares.is_empty() && shares.len() <= 8 && shares.windows(2).all(|w| w[0] >= w[1]), "{view}");
    assert!(view["policy"].as_array().unwrap().iter().all(|p| legal.contains(&p["move"].as_str().unwrap())));
    // After MATE_LINE's first four moves: that position, Black's last move marked.
    let (_, after) = http(addr, &format!("/api/analysis?fen={fen}&moves={}", MATE_LINE[..4].join(",")), None);
    assert_eq!(
        (&after["fen"], &after["last"], &after["to_move"]),
        (&MATE_FENS[3].into(), &"a2b2".into(), &"red".into())
    );
    // The mate itself: the game's end, no line, no net.
    let (_, over) = http(addr, &format!("/api/analysis?fen={fen}&moves=i0i9"), None);
    assert_eq!(
        (&over["over"], &over["lines"], &over["net"]),
        (&"Red wins by checkmate".into(), &serde_json::json!([]), &Value::Null)
    );
    let refused = |query: &str| bad_request(addr, &format!("/api/analysis?{query}"), None);
    assert_eq!(refused("moves=h2e2,h9g7,h2e2"), "move 3 (`h2e2`) is not legal here");
    assert_eq!(refused(&format!("fen={fen}&moves=i0i9,e9e8")), "move 2 (`e9e8`) comes after the end of the game");
    assert!(refused("fen=nonsense").contains("nonsense"));
    let _ = std::fs::remove_file(net);
}

/// Issue 50: a game against a trained net survives a restart of the server. The game
/// keeps the net by its file (absolute path and content hash), not by the name the server
/// offered it under: restarted without that name, the same net plays on; once the file
/// holds another net, the state says so and the game goes on against an offered engine.
#[test]
fn an_engine_game_keeps_its_net_across_restarts() {
    use burn::tensor::Device;
    use xiangqi_zero::nn::{Net, NetConfig};
    let db = fresh_db("net-restart");
    let net = db.with_extension("safetensors");
    let new_net = || Net::new(NetConfig::new::<Xiangqi>(1, 8), &Device::flex()).save(&net).expect("a net file");
    new_net();
    let offered = format!("tiny-gen0001=net(sims=8):{}", net.display());
    let server = serve(&db, &[&offered, "easy=alphabeta:depth=1"]);
    let created = create(server.addr(), r#"{"game":"xiangqi","mode":"engine","engine":"tiny-gen0001","side":"red"}"#);
    let (id, token) = (created["id"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string());
    // The human plays its first legal move at ply `ply`: the state after the engine's answer.
    let play_and_answer = |addr, ply: usize| {
        let (id, token) = (id.clone(), token.clone());
        runtime().block_on(async move {
            let mut human = Client::connect(addr, &id, Some(&token)).await;
            let before = human.state_at(ply).await;
            human.play(before["legal"][0].as_str().unwrap()).await;
            human.state_at(ply + 2).await
        })
    };
    assert_eq!(play_and_answer(server.addr(), 0)["seats"]["black"], "engine: tiny-gen0001");
    server.stop();
    // Restarted under another name for the net (a newer generation offered): the same file plays on.
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let state = play_and_answer(server.addr(), 2);
    assert_eq!(state["engine_missing"], Value::Null);
    server.stop();
    // The file now holds another net: the game says so, and goes on against `easy`.
    new_net();
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    runtime().block_on(async {
        let mut human = Client::connect(server.addr(), &id, Some(&token)).await;
        let before = human.state_at(4).await;
        human.play(before["legal"][0].as_str().unwrap()).await;
        let waiting = human.state_at(5).await;
        let missing = waiting["engine_missing"].as_str().expect("the reason the engine is missing");
        assert!(missing.contains("tiny-gen0001") && missing.contains("has changed"), "{missing}");
        assert_eq!(waiting["can_abort"], true, "a way to end the game");
        human.send(r#"{"type":"change_engine","engine":"nosuch"}"#).await;
        assert_eq!(human.error().await, "unknown engine `nosuch`");
        human.send(r#"{"type":"change_engine","engine":"easy"}"#).await;
        let answered = human.state_at(6).await;
        assert_eq!(
            (answered["seats"]["black"].as_str(), answered["engine_missing"].clone()),
            (Some("engine: easy"), Value::Null)
        );
    });
    server.stop();
    let server = serve(&db, &["easy=alphabeta:depth=1"]);
    let state = play_and_answer(server.addr(), 6);
    assert_eq!(state["seats"]["black"], "engine: easy");
    let _ = std::fs::remove_file(net);
}
