//! Issue 9, the page of `serve` in a real browser: starts the server and headless
//! Chromium (WebDriver), plays a two-player Xiangqi game to mate by clicking, a move
//! against an engine, and a Banqi flip, checking what the page shows after each step;
//! issue 20: the Chinese characters drawn by the shipped font, the icon piece set, and
//! every board fitting the screen, and the analysis board; issue 75: what a new player
//! still tripped over (the invite link in any tab, the move boxes, a phone's controls and
//! status line, Chinese moves as records write them). Saves screenshots (desktop and
//! phone-sized) in `target/browser-screenshots/`.

mod browser;

use browser::page::{screenshot_dir, Page};
use browser::session::Session;
use std::collections::BTreeMap;

/// A short mate from the start position (`xiangqi-zero status` says `1-0 checkmate 9`):
/// a cannon takes the central soldier and moves to e7, the other comes to e4 behind it.
const MATE_LINE: [&str; 9] = ["h2e2", "a6a5", "e2e6", "i6i5", "e6e7", "a5a4", "b2b4", "i5i4", "b4e4"];
/// That line in WXF and in Chinese, worked out by hand (Red's files counted from Red's
/// right in Chinese numerals, Black's from Black's right in full-width figures, as
/// Chinese records write them: issue 75).
const MATE_LINE_WXF: &str = "C2.5 P1+1 C5+4 P9+1 C5+1 P1+1 C8+2 P9+1 C8.5";
const MATE_LINE_CHINESE: &str = "炮二平五 卒１进１ 炮五进四 卒９进１ 炮五进一 卒１进１ 炮八进二 卒９进１ 炮八平五";

const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1280, 900);

/// The Xiangqi start position as square → FEN letter.
fn start_position() -> BTreeMap<String, String> {
    let rows = ["rnbakabnr", "", "1c5c1", "p1p1p1p1p", "", "", "P1P1P1P1P", "1C5C1", "", "RNBAKABNR"];
    let mut pieces = BTreeMap::new();
    for (row, text) in rows.iter().enumerate() {
        let rank = 9 - row;
        let mut file = 0u8;
        for c in text.chars() {
            match c.to_digit(10) {
                Some(empty) => file += empty as u8,
                None => {
                    pieces.insert(format!("{}{rank}", (b'a' + file) as char), c.to_string());
                    file += 1;
                }
            }
        }
    }
    pieces
}

/// The pieces the board shows, square → FEN letter.
async fn shown_position(page: &Page<'_>) -> BTreeMap<String, String> {
    let pieces = page
        .eval("Object.fromEntries([...document.querySelectorAll('svg.board .piece')].map(p => [p.dataset.square, p.dataset.piece]))")
        .await;
    serde_json::from_value(pieces).expect("square → letter")
}

fn piece_at(square: &str) -> String {
    format!("((document.querySelector('svg.board .piece[data-square=\"{square}\"]') || {{dataset: {{}}}}).dataset.piece || '')")
}

/// The moves of the move list as the protocol knows them (ICCS), whatever notation shows.
fn moves_listed() -> &'static str {
    "[...document.querySelectorAll('.moves .move')].map(b => b.dataset.move).join(' ')"
}

/// The moves of the move list as shown.
fn moves_shown() -> &'static str {
    "[...document.querySelectorAll('.moves .move')].map(b => b.textContent).join(' ')"
}

/// Plays `from`→`to` as ply `ply` by clicking both squares, checking the legal targets on
/// the way and afterwards the move list, the moved piece and (unless a reply came at once)
/// the last-move mark.
async fn click_move(page: &Page<'_>, from: &str, to: &str, ply: usize) {
    let piece = page.eval(&piece_at(from)).await;
    let piece = piece.as_str().expect("a letter").to_owned();
    assert!(!piece.is_empty(), "no piece on {from} to move");
    page.click(&format!(".hit[data-square=\"{from}\"]")).await;
    page.wait_for(
        &format!("{to} highlighted as a target of {from}"),
        &format!("!!document.querySelector('.target[data-square=\"{to}\"]')"),
    )
    .await;
    page.click(&format!(".hit[data-square=\"{to}\"]")).await;
    page.wait_for(
        &format!("{piece} moved {from}→{to}"),
        &format!(
            "((document.querySelectorAll('.moves .move')[{index}] || {{}}).dataset || {{}}).move === '{from}{to}' \
             && {} === '{piece}' && {} === '' \
             && (document.querySelectorAll('.moves .move').length > {ply} || !!document.querySelector('.last-move[data-square=\"{to}\"]'))",
            piece_at(to),
            piece_at(from),
            index = ply - 1,
        ),
    )
    .await;
}

async fn open_start_screen(page: &Page<'_>, base: &str) {
    page.client.goto(&format!("{base}/#/")).await.expect("the page opens");
    page.wait_for("the start screen", "!!document.getElementById('start-game')").await;
}

async fn start_game(page: &Page<'_>, mode: &str, game: &str) {
    page.click(&format!("label[for=\"mode-{mode}\"]")).await;
    let select = page.client.find(fantoccini::Locator::Id("game")).await.expect("the game select");
    select.select_by_value(game).await.expect("the game can be chosen");
    if mode == "engine" {
        page.wait_for("the engines listed", "document.querySelectorAll('#engine option').length > 0").await;
    }
    page.click("#start-game").await;
    page.wait_for(
        &format!("a {game} board"),
        &format!("!!document.querySelector('svg.board[data-game=\"{game}\"] .piece')"),
    )
    .await;
}

/// From the start screen, a game of `game` for two players on one device.
async fn new_local_game(page: &Page<'_>, base: &str, game: &str) {
    open_start_screen(page, base).await;
    start_game(page, "local", game).await;
}

/// Two players on one device: the mate, stepping back and forth, and the phone layout.
async fn local_xiangqi_to_mate(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    page.client.set_window_size(PHONE.0, PHONE.1).await.expect("a phone-sized window");
    page.screenshot("start-phone").await;
    page.client.set_window_size(DESKTOP.0, DESKTOP.1).await.expect("a desktop-sized window");
    page.screenshot("start-desktop").await;
    start_game(page, "local", "xiangqi").await;
    assert_eq!(shown_position(page).await, start_position(), "the start position as drawn");
    page.wait_for("Red to move", "document.getElementById('status').textContent.startsWith('Red to move')").await;
    // Issue 20: each move slides in and sounds: a move, a capture (the cannon takes e6), a check.
    let last_sound = "document.documentElement.dataset.lastSound";
    for (index, mv) in MATE_LINE.iter().enumerate() {
        click_move(page, &mv[..2], &mv[2..], index + 1).await;
        let sound = match index {
            2 => "capture",
            8 => "check",
            _ => "move",
        };
        page.wait_for(
            &format!("the {sound} sound and slide of {mv}"),
            &format!("{last_sound} === '{sound}' && document.querySelector('svg.board').dataset.slid === '{mv}'"),
        )
        .await;
    }
    page.wait_for("the result", "document.getElementById('status').textContent.includes('checkmate')").await;
    let status = page.text("#status").await;
    assert!(status.contains("Red"), "the winner is named: {status}");
    assert!(
        page.eval("!!document.querySelector('.check-mark[data-square=\"e9\"]')").await.as_bool().unwrap(),
        "e9 marked in check"
    );
    assert_eq!(page.eval(moves_listed()).await, MATE_LINE.join(" "), "the move list");
    assert_eq!(page.eval(moves_shown()).await, MATE_LINE_WXF, "the move list in WXF, the default");
    assert_eq!(page.eval("document.querySelectorAll('.hit').length").await, 90, "90 points on the board");
    page.click(".hit[data-square=\"e9\"]").await;
    assert_eq!(page.eval("document.querySelectorAll('.target').length").await, 0, "no moves after the mate");
    // Issue 20: the pieces each side took, and the lead in points (the cannon took a pawn).
    let taken = |seat: &str| format!("document.querySelector('.seat[data-seat=\"{seat}\"] .captured').dataset.taken");
    assert_eq!(page.eval(&taken("red")).await, "p", "what Red took");
    assert_eq!(page.eval(&taken("black")).await, "", "what Black took");
    assert_eq!(page.text(".seat[data-seat=\"red\"] .captured .lead").await, "+1");
    page.screenshot("xiangqi-mate-desktop").await;
    // The finished game opens on the analysis board, at the position viewed.
    let analyse = page.eval("document.querySelector('a.analyse').getAttribute('href')").await;
    assert!(analyse.as_str().unwrap().ends_with(&format!("moves={}", MATE_LINE.join("%2C"))), "{analyse}");

    page.click("button[title=\"previous move\"]").await;
    page.wait_for(
        "the position before the mate",
        &format!("{} === 'C' && {} === '' && !document.querySelector('.check-mark')", piece_at("b4"), piece_at("e4")),
    )
    .await;
    page.click("button[title=\"first position\"]").await;
    page.wait_for("the start position again", &format!("{} === 'C' && {} === 'p'", piece_at("h2"), piece_at("e6")))
        .await;
    assert_eq!(shown_position(page).await, start_position(), "stepping back to the start");
    assert_eq!(page.eval(&taken("red")).await, "", "nothing taken at the start");
    page.click("button[title=\"latest position\"]").await;
    page.wait_for(
        "the final position",
        &format!("{} === 'C' && !!document.querySelector('.check-mark')", piece_at("e4")),
    )
    .await;

    // The sound switch, remembered after a reload.
    let switch = "document.getElementById('sound-switch').getAttribute('aria-label')";
    assert_eq!(page.eval(switch).await, "Sound on");
    page.click("#sound-switch").await;
    page.client.refresh().await.expect("the page reloads");
    page.wait_for("the switch remembered", &format!("{switch} === 'Sound off'")).await;
    page.click("#sound-switch").await;
    assert_eq!(page.eval(switch).await, "Sound on");
    page.wait_for("the board again", "!!document.querySelector('button.flip')").await;
    page.click("button.flip").await;
    page.wait_for("the flipped board", "document.querySelector('.seat.bottom').dataset.seat === 'black'").await;
    page.click("button.flip").await;
    page.client.set_window_size(PHONE.0, PHONE.1).await.expect("a phone-sized window");
    page.wait_for("the board within a phone's width", "document.querySelector('svg.board').getBoundingClientRect().right <= window.innerWidth && document.documentElement.scrollWidth <= window.innerWidth").await;
    page.screenshot("xiangqi-mate-phone").await;
    page.client.set_window_size(DESKTOP.0, DESKTOP.1).await.expect("a desktop-sized window");
}

/// Against an engine: one move by clicking, the engine's reply, a hint, whose arrow and
/// line leave when the game ends by resigning.
async fn engine_reply(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    start_game(page, "engine", "xiangqi").await;
    page.wait_for("our turn", "document.getElementById('status').textContent.startsWith('Your move')").await;
    click_move(page, "h2", "e2", 1).await;
    page.wait_for("the engine's reply", "document.querySelectorAll('.moves .move').length === 2").await;
    page.wait_for("our turn again", "document.getElementById('status').textContent.startsWith('Your move')").await;
    // Issue 20: a takeback against the engine goes back to our turn before our move.
    page.click(".actions .takeback").await;
    page.wait_for("both moves taken back", "document.querySelectorAll('.moves .move').length === 0").await;
    assert_eq!(page.eval(&piece_at("h2")).await, "C", "the cannon back on h2");
    click_move(page, "h2", "e2", 1).await;
    page.wait_for("the engine's reply again", "document.querySelectorAll('.moves .move').length === 2").await;
    page.wait_for("our turn again", "document.getElementById('status').textContent.startsWith('Your move')").await;
    page.click(".actions .hint").await;
    page.wait_for("the hint's arrow", "!!document.querySelector('.arrow.hint')").await;
    page.screenshot("engine-desktop").await;
    // On a phone the game against an engine (its row of actions the longest) fits across.
    page.set_viewport(SMALL_PHONE.0, SMALL_PHONE.1).await;
    page.wait_for("no sideways scrolling", "document.documentElement.scrollWidth <= window.innerWidth").await;
    page.screenshot("engine-phone").await;
    page.set_viewport(1366, 768).await;
    page.click(".actions .resign").await;
    page.wait_for("the resign button asking", "!!document.querySelector('.actions .resign[data-confirming]')").await;
    page.click(".actions .resign").await;
    page.wait_for("the game over", "document.getElementById('status').classList.contains('over')").await;
    assert_eq!(
        page.eval("[!!document.querySelector('.arrow.hint'), document.querySelector('.suggestions').textContent]")
            .await,
        serde_json::json!([false, ""]),
        "no hint arrow or hint line once the game is over"
    );
    // Issue 20: a rematch with the colours swapped: the engine opens as Red.
    page.click(".actions .rematch").await;
    page.wait_for("the rematch, seen from Black", "document.querySelector('.seat.bottom').dataset.seat === 'black'")
        .await;
    page.wait_for("the engine's first move", "document.querySelectorAll('.moves .move').length === 1").await;
    page.wait_for("our turn as Black", "document.getElementById('status').textContent.startsWith('Your move (Black)')")
        .await;
}

/// A link to a game that does not exist: one panel naming it, with a link to start a new
/// game, which leads to the start screen.
async fn unknown_game_link(page: &Page<'_>, base: &str) {
    page.client.goto(&format!("{base}/#/g/nosuchgame")).await.expect("the page opens");
    page.wait_for("the missing game's panel", "!!document.querySelector('.missing-game')").await;
    assert_eq!(
        page.eval("[...document.getElementById('app').querySelectorAll('a, button, input, select, svg')].map((e) => e.textContent)")
            .await,
        serde_json::json!(["Start a new game"]),
        "only the way to a new game"
    );
    assert!(page.text(".missing-game").await.contains("nosuchgame"), "the game's name is said");
    page.screenshot("missing-game-desktop").await;
    page.click(".missing-game a").await;
    page.wait_for("the start screen", "!!document.getElementById('start-game')").await;
}

/// Banqi on one device: a click flips a face-down piece, which shows its character, and
/// the seats' colours show.
async fn banqi_flip(page: &Page<'_>, base: &str) {
    new_local_game(page, base, "banqi").await;
    assert_eq!(
        page.eval("[...document.querySelectorAll('svg.board .piece')].filter(p => p.dataset.piece === 'X').length")
            .await,
        32,
        "32 face-down pieces"
    );
    page.click(".hit[data-square=\"b3\"]").await;
    page.wait_for(
        "b3 flipped",
        &format!(
            "!['', 'X'].includes({}) && document.querySelector('.moves .move').dataset.move.startsWith('b3b3:')
             && /^flip b3 \\S$/u.test(document.querySelector('.moves .move').textContent)
             && (document.querySelector('svg.board .piece[data-square=\"b3\"] .piece-glyph') || {{textContent: ''}}).textContent !== ''",
            piece_at("b3")
        ),
    )
    .await;
    page.wait_for("the seats' colours", "document.querySelector('.seat.bottom').textContent.includes('(Red)') || document.querySelector('.seat.bottom').textContent.includes('(Black)')").await;
    page.client.set_window_size(PHONE.0, PHONE.1).await.expect("a phone-sized window");
    page.screenshot("banqi-phone").await;
    page.client.set_window_size(DESKTOP.0, DESKTOP.1).await.expect("a desktop-sized window");
}

/// Online: the creator sees the links to hand out; a spectator suggests a move and sees
/// the tally, while the real board stays as it was.
async fn online_and_watch(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    start_game(page, "online", "xiangqi").await;
    let link = |class: &str| format!("(document.querySelector('.{class} input') || {{value: ''}}).value");
    page.wait_for(
        "the opponent's link",
        &format!("{}.includes('/#/g/') && {}.includes('token=')", link("opponent-link"), link("opponent-link")),
    )
    .await;
    // Issue 20: until the opponent takes the other seat, no move is offered.
    page.wait_for(
        "the waiting status",
        "document.getElementById('status').textContent.startsWith('Waiting for an opponent')",
    )
    .await;
    page.click(".hit[data-square=\"h2\"]").await;
    assert_eq!(page.eval("document.querySelectorAll('.target').length").await, 0, "a move offered before the opponent");
    let opponent = page.eval(&link("opponent-link")).await;
    let opponent = opponent.as_str().expect("the opponent's link").to_owned();
    let watch = page.eval(&link("watch-link")).await;
    let watch = watch.as_str().expect("the watch link").to_owned();
    assert!(watch.starts_with(base) && !watch.contains("token"), "a watch link without a token: {watch}");
    page.screenshot("online-desktop").await;
    // The opponent's link takes the black seat: the game is on.
    page.client.goto(&opponent).await.expect("the opponent's link opens");
    page.wait_for("Red to move", "document.getElementById('status').textContent.startsWith('Red to move')").await;
    page.client.goto(&watch).await.expect("the watch link opens");
    page.wait_for(
        "the spectator's view",
        "(document.querySelector('.suggestions') || {textContent: ''}).textContent.includes('watching')",
    )
    .await;
    page.click(".hit[data-square=\"h2\"]").await;
    page.click(".hit[data-square=\"e2\"]").await;
    page.wait_for("the suggestion's tally", "!!document.querySelector('.tally li[data-move=\"h2e2\"]')").await;
    assert_eq!(page.text(".tally li[data-move=\"h2e2\"] .move").await, "C2.5", "the suggestion named in WXF");
    assert_eq!(page.eval(&piece_at("h2")).await, "C", "the real position stays on the spectator's board");
    assert_eq!(page.eval("document.querySelectorAll('.moves .move').length").await, 0, "no move made by suggesting");
}

/// Issue 19: the move list's notation switch (WXF by default, Chinese, ICCS), remembered
/// after a reload, drawn with the shipped font, and the PGN link in the chosen notation.
async fn notation_switch(page: &Page<'_>) {
    assert_eq!(
        page.eval("document.querySelector('.notation-switch [aria-pressed=\"true\"]').dataset.notation").await,
        "wxf"
    );
    page.click(".notation-switch [data-notation=\"chinese\"]").await;
    page.wait_for("the moves in Chinese", &format!("{} === '{MATE_LINE_CHINESE}'", moves_shown())).await;
    // Issue 50: the board's files as the notation counts them, each side's at its own edge,
    // bottom (Red's) then top (Black's), a-file first; no ranks.
    let coords = "[...document.querySelectorAll('svg.board .coord')].map(t => t.textContent).join('')";
    page.wait_for("the files in Chinese", &format!("{coords} === '九１八２七３六４五５四６三７二８一９'")).await;
    assert_eq!(
        page.eval(CHARACTERS_NOT_DRAWN).await,
        serde_json::json!([]),
        "characters the move list's font does not draw"
    );
    assert!(page
        .eval("document.querySelector('a.pgn').href")
        .await
        .as_str()
        .unwrap()
        .ends_with("/pgn?notation=chinese"));
    // Issue 75: the move list writes the moves as the PGN export does.
    assert_eq!(page.eval(PGN_MOVES).await, MATE_LINE_CHINESE, "the PGN export's moves");
    page.screenshot("move-list-chinese-desktop").await;
    page.client.refresh().await.expect("the page reloads");
    page.wait_for("the moves in Chinese after a reload", &format!("{} === '{MATE_LINE_CHINESE}'", moves_shown())).await;
    page.client.set_window_size(PHONE.0, PHONE.1).await.expect("a phone-sized window");
    page.eval("document.querySelector('.move-list').scrollIntoView({block: 'center'})").await;
    page.screenshot("move-list-chinese-phone").await;
    page.client.set_window_size(DESKTOP.0, DESKTOP.1).await.expect("a desktop-sized window");
    page.click(".notation-switch [data-notation=\"iccs\"]").await;
    page.wait_for("the moves in ICCS", &format!("{} === '{}'", moves_shown(), MATE_LINE.join(" "))).await;
    page.wait_for("the files and ranks in ICCS", &format!("{coords}.startsWith('aabbcc') && {coords}.endsWith('99')"))
        .await;
    page.click(".notation-switch [data-notation=\"wxf\"]").await;
    page.wait_for("the moves in WXF", &format!("{} === '{MATE_LINE_WXF}'", moves_shown())).await;
    page.wait_for("the files in WXF", &format!("{coords} === '918273645546372819'")).await;
    page.screenshot("move-list-wxf-desktop").await;
}

/// The moves of the PGN the page's download link gives: its movetext without the move
/// numbers, comments and result.
const PGN_MOVES: &str = r"fetch(document.querySelector('a.pgn').href).then(r => r.text()).then(pgn =>
  pgn.split('\n\n').slice(1).join(' ').replace(/\{[^}]*\}/g, ' ').split(/\s+/)
    .filter(w => w && !/^\d+\.$/.test(w) && !['1-0', '0-1', '1/2-1/2', '*'].includes(w)).join(' '))";

/// Issue 19: a record typed into the start screen (Chinese moves) starts the game after
/// its moves, and play goes on from there to the mate.
async fn record_paste(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    page.click("label[for=\"mode-local\"]").await;
    let record = page.client.find(fantoccini::Locator::Id("start-record")).await.expect("the record field");
    let chinese: Vec<&str> = MATE_LINE_CHINESE.split(' ').collect();
    record.send_keys(&chinese[..8].join(" ")).await.expect("the record typed");
    page.click("#start-game").await;
    let played = MATE_LINE[..8].join(" ");
    page.wait_for("the record's moves", &format!("{} === '{played}'", moves_listed())).await;
    click_move(page, "b4", "e4", 9).await;
    page.wait_for("the mate", "document.getElementById('status').textContent.includes('checkmate')").await;
}

/// Issue 20: before Red's horse checks for the third time in a perpetual check (a cycle of
/// tests/data/xiangqi-repetition-public.jsonl), the page says that Black's reply can end
/// the game against Red and asks; cancelled, nothing is played; confirmed, the move is,
/// and Black's reply wins by the perpetual check.
async fn repetition_warning(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    page.click("label[for=\"mode-local\"]").await;
    let record = page.client.find(fantoccini::Locator::Id("start-record")).await.expect("the record field");
    let cycle = "[FEN \"5kb2/9/5a3/4N4/9/9/4P4/9/9/2BA1K1R1 w - - 7 37\"]\n1. e6d8 f9f8 2. d8e6 f8f9 3. e6d8 f9f8";
    record.send_keys(cycle).await.expect("the record typed");
    page.click("#start-game").await;
    page.wait_for("the cycle's six moves", "document.querySelectorAll('.moves .move').length === 6").await;
    let ask = || async {
        page.click(".hit[data-square=\"d8\"]").await;
        page.click(".hit[data-square=\"e6\"]").await;
        page.wait_for("the repetition warning", "!!document.querySelector('#repetition-warning[open]')").await;
    };
    ask().await;
    let warning = page.text("#repetition-warning p").await;
    assert!(warning.contains("a perpetual check by you, which loses"), "{warning}");
    page.screenshot("repetition-warning-desktop").await;
    page.click("#repetition-warning .cancel").await;
    page.wait_for("the warning closed", "!document.querySelector('#repetition-warning')").await;
    assert_eq!(
        page.eval("document.querySelectorAll('.moves .move').length").await,
        6,
        "a cancelled move is not played"
    );
    ask().await;
    page.click("#repetition-warning .play-anyway").await;
    page.wait_for("the check played", "document.querySelectorAll('.moves .move').length === 7").await;
    click_move(page, "f8", "f9", 8).await;
    page.wait_for("the perpetual check's end", "document.getElementById('status').textContent.includes('perpetual')")
        .await;
}

#[test]
fn the_page_plays_in_a_real_browser() {
    let Some(session) = Session::start("web_browser", DESKTOP.0, DESKTOP.1) else { return };
    let _ = std::fs::remove_file(screenshot_dir().join("failure.png"));
    let page = session.page();
    let base = &session.base;
    session.run(async {
        local_xiangqi_to_mate(&page, base).await;
        notation_switch(&page).await;
        record_paste(&page, base).await;
        repetition_warning(&page, base).await;
        engine_reply(&page, base).await;
        banqi_flip(&page, base).await;
        online_and_watch(&page, base).await;
        unknown_game_link(&page, base).await;
    });
    eprintln!("screenshots in {}", screenshot_dir().display());
}

/// Each character the page draws (and those of Chinese move notation, which the shipped
/// font holds for the move list), on a canvas with its element's computed font: a list
/// of those drawn as the no-glyph box of U+10FFFD, or no differently than by the same
/// font list without the page's own `@font-face` fonts (so by a system font, if any).
const CHARACTERS_NOT_DRAWN: &str = r#"(async () => {
  const { pieceGlyph } = await import('/assets/pieces.js');
  const pieces = [...'KABNRCPGMkabnrcpgm'].map(pieceGlyph).join('');
  const notation = '一二三四五六七八九１２３４５６７８９进進退平前中后後帅将马车';
  const checks = [['.piece-glyph', pieces + notation], ['.river-text', '楚河漢界'], ['.brand-glyph', '帥'],
    ['.moves .move', notation], ['.notation-switch [data-notation="chinese"]', '中文'], ['svg.board .coord', '一二三四五六七八九１２３４５６７８９']]
    .filter(([selector]) => document.querySelector(selector));
  const unquoted = (family) => family.trim().replace(/^"|"$/g, '');
  const shipped = new Set([...document.fonts].map((face) => unquoted(face.family)));
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const drawn = (text, font) => {
    context.clearRect(0, 0, 64, 64);
    context.font = font;
    // Placed by the glyph's own font alone: the default left and alphabetic baseline.
    context.fillText(text, 6, 52);
    return context.getImageData(0, 0, 64, 64).data.join();
  };
  const failures = [];
  for (const [selector, characters] of checks) {
    const style = getComputedStyle(document.querySelector(selector));
    const system = style.fontFamily.split(',').filter((family) => !shipped.has(unquoted(family)));
    const font = `${style.fontWeight} 48px ${style.fontFamily}`;
    const systemFont = `${style.fontWeight} 48px ${system.join(',') || 'serif'}`;
    await document.fonts.load(font, characters);
    const tofu = drawn('\u{10FFFD}', font);
    for (const character of characters) {
      const glyph = drawn(character, font);
      if (glyph === tofu) failures.push(`${character} (${selector}): the no-glyph box`);
      else if (glyph === drawn(character, systemFont)) failures.push(`${character} (${selector}): not the page's font`);
    }
  }
  return failures;
})()"#;

/// Issue 20: every piece character of both games, the river, the header's glyph and the
/// move notation's characters are drawn by the font shipped with the page, so they show
/// on a machine without CJK fonts too.
#[test]
fn the_page_draws_its_characters_with_the_shipped_font() {
    let Some(session) = Session::start("web_browser_font", DESKTOP.0, DESKTOP.1) else { return };
    let page = session.page();
    session.run(async {
        new_local_game(&page, &session.base, "xiangqi").await;
        let failures = page.eval(CHARACTERS_NOT_DRAWN).await;
        assert_eq!(failures, serde_json::json!([]), "characters the page's font does not draw");
        page.screenshot("font-desktop").await;
    });
}

/// "characters" or "icons" when every face-up piece shows only its character or only
/// its icon, "mixed" otherwise.
const PIECES_SHOWN: &str = "(() => {
  const shown = (piece, part) => piece.querySelector(part).getBoundingClientRect().width > 0;
  const pieces = [...document.querySelectorAll('svg.board .piece:not(.hidden)')];
  if (pieces.length && pieces.every((p) => shown(p, '.piece-glyph') && !shown(p, '.piece-icon'))) return 'characters';
  if (pieces.length && pieces.every((p) => !shown(p, '.piece-glyph') && shown(p, '.piece-icon'))) return 'icons';
  return 'mixed';
})()";

/// Issue 20: the icon piece set, a different pictogram for each kind, chosen in the
/// header and still chosen after a reload.
#[test]
fn the_icon_pieces_are_chosen_and_remembered() {
    let Some(session) = Session::start("web_browser_icons", DESKTOP.0, DESKTOP.1) else { return };
    let page = session.page();
    session.run(async {
        new_local_game(&page, &session.base, "xiangqi").await;
        assert_eq!(page.eval(PIECES_SHOWN).await, "characters", "the characters by default");
        let chooser = page.client.find(fantoccini::Locator::Id("piece-style")).await.expect("the piece-set chooser");
        chooser.select_by_value("icons").await.expect("the icons can be chosen");
        page.wait_for("the icons", &format!("{PIECES_SHOWN} === 'icons'")).await;
        let kinds = "new Set([...'KABNRCP'].map((l) => document.querySelector(`.piece[data-piece=\"${l}\"] .piece-icon`).innerHTML)).size";
        assert_eq!(page.eval(kinds).await, 7, "a different icon for each kind");
        page.screenshot("icons-desktop").await;
        page.client.refresh().await.expect("the page reloads");
        page.wait_for("a board again", "!!document.querySelector('svg.board .piece')").await;
        assert_eq!(page.eval(PIECES_SHOWN).await, "icons", "the icons still chosen after a reload");
        assert_eq!(page.eval("document.getElementById('piece-style').value").await, "icons", "the chooser says so");
    });
}

/// Issue 20: at a desktop's and a phone's size, the whole board of either game is in
/// view without scrolling and fills much of it; Banqi's lies on its side on the desktop.
#[test]
fn every_board_fits_the_screen() {
    let sizes = [("desktop", 1366, 768), ("phone", 360, 640)];
    let Some(session) = Session::start("web_browser_fit", sizes[0].1, sizes[0].2) else { return };
    let page = session.page();
    session.run(async {
        for game in ["xiangqi", "banqi"] {
            new_local_game(&page, &session.base, game).await;
            for (name, width, height) in sizes {
                page.set_viewport(width, height).await;
                let landscape = game == "banqi" && width > height;
                page.wait_for(
                    &format!("the {game} board in view at {width}×{height}"),
                    &format!(
                        "(() => {{
                          const board = document.querySelector('svg.board');
                          const r = board.getBoundingClientRect();
                          return board.dataset.landscape === '{landscape}' && (r.width > r.height) === {landscape}
                            && window.scrollY === 0 && r.top >= 0 && r.left >= 0
                            && r.bottom <= window.innerHeight && r.right <= window.innerWidth
                            && document.documentElement.scrollWidth <= window.innerWidth
                            && Math.max(r.width / window.innerWidth, r.height / window.innerHeight) >= 0.6;
                        }})()"
                    ),
                )
                .await;
                page.screenshot(&format!("{game}-{name}")).await;
            }
            page.set_viewport(sizes[0].1, sizes[0].2).await;
        }
    });
}

/// Every piece letter either rules core writes has its Chinese character in the page's
/// table (Banqi's guard `G` and minister `M` were once drawn as blank discs).
#[test]
fn the_page_draws_every_piece_of_both_games() {
    use xiangqi_zero::game::banqi::Piece;
    let table = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/pieces.js")).expect("web/pieces.js");
    let xiangqi = "KABNRCPkabnrcp".chars();
    let banqi = (0..14).map(|i| Piece::from_index(i).letter());
    for letter in xiangqi.chain(banqi) {
        assert!(table.contains(&format!("{letter}: \"")), "web/pieces.js has no character for `{letter}`");
    }
}

/// Red mates in one (the chariot i0 to i9) or in two; Black's general cannot step aside.
const ANALYSIS_FEN: &str = "4k4/R8/9/9/9/9/p8/9/9/3K4R w - - 0 1";

/// Issue 20: the analysis board for a FEN typed on the start screen, with a trained net
/// offered: the bar full for Red (a mate), the alpha-beta engine's three best lines with
/// the mate in one first, the net's value and its policy drawn as arrows; a move on the
/// board explores (here the mate: the game's end, no lines), "Back a move" returns.
#[test]
fn the_analysis_board_shows_the_engine_lines_and_the_net() {
    use burn::tensor::Device;
    use xiangqi_zero::game::xiangqi::Xiangqi;
    use xiangqi_zero::nn::{Net, NetConfig};
    let net = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("analysis-net-{}.safetensors", std::process::id()));
    Net::new(NetConfig::new::<Xiangqi>(1, 8), &Device::flex()).save(&net).expect("a net file");
    let engines = ["easy=alphabeta:depth=1".to_string(), format!("tiny=net:{}", net.display())];
    let engines: Vec<&str> = engines.iter().map(String::as_str).collect();
    let Some(session) = Session::start_with("web_browser_analysis", 1366, 768, &engines) else { return };
    let page = session.page();
    session.run(async {
        open_start_screen(&page, &session.base).await;
        let record = page.client.find(fantoccini::Locator::Id("start-record")).await.expect("the FEN field");
        record.send_keys(ANALYSIS_FEN).await.expect("the FEN typed");
        page.click("#analyse-position").await;
        page.wait_for("three engine lines", "document.querySelectorAll('.analysis-lines li').length === 3").await;
        assert_eq!(page.eval("document.querySelector('.analysis-lines li').dataset.move").await, "i0i9");
        assert_eq!(page.text(".analysis-lines li .line-score").await, "M1");
        assert_eq!(page.text(".analysis-lines li .line-moves").await, "R1+9", "the mate in WXF");
        assert_eq!(page.eval("document.querySelector('.eval-bar').dataset.share").await, "1.000");
        assert_eq!(page.eval("document.querySelectorAll('.arrow.best').length").await, 1);
        let policy = page.eval("document.querySelectorAll('.net-policy li').length").await.as_u64().unwrap();
        assert!(policy >= 1, "the net's likeliest moves listed");
        assert_eq!(page.eval("document.querySelectorAll('.arrow.policy').length").await, policy, "an arrow for each");
        assert!(page.text(".net-view h3").await.contains("tiny"), "the net named");
        page.screenshot("analysis-desktop").await;
        page.set_viewport(360, 640).await;
        page.screenshot("analysis-phone").await;
        page.set_viewport(1366, 768).await;
        page.click(".hit[data-square=\"i0\"]").await;
        page.click(".hit[data-square=\"i9\"]").await;
        page.wait_for("the mate explored", "document.getElementById('status').textContent === 'Red wins by checkmate'")
            .await;
        assert_eq!(
            page.eval("document.querySelectorAll('.analysis-lines li').length").await,
            0,
            "no line after the end"
        );
        page.click("button.back").await;
        page.wait_for("back to the lines", "document.querySelectorAll('.analysis-lines li').length === 3").await;
        // Issue 50: the variation tree keeps the line explored; forward goes along it.
        assert_eq!(page.eval("document.querySelector('.variations .tree-move').dataset.path").await, "i0i9");
        page.click("button.forward").await;
        page.wait_for(
            "forward to the mate",
            "document.getElementById('status').textContent === 'Red wins by checkmate'",
        )
        .await;
        // A record pasted on the start screen is analysed move by move.
        open_start_screen(&page, &session.base).await;
        let record = page.client.find(fantoccini::Locator::Id("start-record")).await.expect("the record field");
        record.send_keys("1. C2.5 H8+7").await.expect("the record typed");
        page.click("#analyse-position").await;
        page.wait_for(
            "the record's moves in the tree",
            "document.querySelectorAll('.variations .tree-move').length === 2",
        )
        .await;
        assert!(page.eval("location.hash").await.as_str().unwrap().contains("moves=h2e2%2Ch9g7"));
        page.wait_for("the tree in WXF", "document.querySelector('.variations').textContent === '1. C2.5H8+7'").await;
        page.screenshot("analysis-tree-desktop").await;
        // Issue 50: the analysis goes on thinking, deeper each time, until stopped (from the
        // start, where no forced result ends the deepening).
        page.client.goto(&format!("{}/#/analysis", session.base)).await.expect("the start analysed");
        page.wait_for(
            "the start's lines",
            "document.querySelectorAll('svg.board .piece').length === 32 \
             && document.querySelectorAll('.analysis-lines li').length === 3",
        )
        .await;
        let depth = "+(document.getElementById('status').textContent.match(/depth (\\d+)/) || [0, 0])[1]";
        let first = page.eval(depth).await.as_u64().expect("a depth");
        page.click("button.keep-thinking").await;
        page.wait_for("a deeper search", &format!("{depth} > {first}")).await;
        assert_eq!(page.text("button.keep-thinking").await, "Stop thinking");
        page.click("button.keep-thinking").await;
        assert_eq!(page.text("button.keep-thinking").await, "Keep thinking");
    });
    let _ = std::fs::remove_file(net);
}

/// Whether the status line starts with `text` (false while the page has none yet).
fn status_starts(text: &str) -> String {
    format!("(document.getElementById('status') || {{textContent: ''}}).textContent.startsWith('{text}')")
}

/// The value of the link field `class` (`opponent-link`, `watch-link`) of a game page.
fn link_field(class: &str) -> String {
    format!("(document.querySelector('.{class} input') || {{value: ''}}).value")
}

/// From the start screen, an online Xiangqi game as Red, ticking "Open to anyone" when
/// `open`: its id and the opponent's invite link.
async fn create_online(page: &Page<'_>, base: &str, open: bool) -> (String, String) {
    open_start_screen(page, base).await;
    page.click("label[for=\"mode-online\"]").await;
    if open {
        page.click("#open-game").await;
    }
    page.click("#start-game").await;
    page.wait_for("the opponent's link", &format!("{}.includes('token=')", link_field("opponent-link"))).await;
    let invite = page.eval(&link_field("opponent-link")).await.as_str().expect("a link").to_owned();
    let id = page.eval("location.hash.split('/')[2].split('?')[0]").await.as_str().expect("an id").to_owned();
    (id, invite)
}

/// The seat flaw a new player found (a stranger's lobby Join took the invited friend's
/// seat, both played Black), driven with three browsers: the creator, a stranger at the
/// lobby and the invited friend. An invitation-only game is not in the lobby and its seat
/// goes to the link; a game open to anyone goes to the stranger who joins from the
/// lobby, and then the friend's link only watches; the creator is told.
#[test]
fn a_seat_is_taken_only_as_its_creator_allowed() {
    let Some(session) = Session::start("seats", 1366, 768) else { return };
    let creator = session.page();
    let base = &session.base;
    session.run(async {
        let stranger_browser = session.another_browser(360, 640).await;
        let friend_browser = session.another_browser(1366, 768).await;
        let (stranger, friend) = (Page { client: &stranger_browser.client }, Page { client: &friend_browser.client });
        let lobby_lists = |id: &str| format!("!!document.querySelector('.lobby li[data-game=\"{id}\"]')");
        let lobby_loaded = "!document.querySelector('.lobby-list').textContent.includes('Loading')";

        // By invitation: unlisted, and the seat is the link's.
        let (private, invite) = create_online(&creator, base, false).await;
        open_start_screen(&stranger, base).await;
        stranger.wait_for("the lobby", lobby_loaded).await;
        assert_eq!(stranger.eval(&lobby_lists(&private)).await, false, "an invitation-only game in the lobby");
        let refused = stranger
            .eval(&format!("fetch('/api/games/{private}/join', {{method: 'POST'}}).then(r => r.status)"))
            .await;
        assert_eq!(refused, 409, "a join without the link");
        friend.client.goto(&invite).await.expect("the invite opens");
        friend.wait_for("the friend at Black", &status_starts("Red to move")).await;
        assert!(friend.text(".seat.bottom .seat-name").await.contains("(you)"));

        // Open to anyone: the stranger joins from the lobby, the invite is void.
        let (open, invite) = create_online(&creator, base, true).await;
        open_start_screen(&stranger, base).await;
        stranger.wait_for("the open game in the lobby", &lobby_lists(&open)).await;
        stranger.screenshot("seats-lobby-phone").await;
        stranger.click(&format!(".lobby li[data-game=\"{open}\"] button.primary")).await;
        stranger.wait_for("the stranger at Black", &status_starts("Red to move")).await;
        friend.client.goto(&invite).await.expect("the void invite opens");
        friend
            .wait_for(
                "the friend only watching",
                "(document.querySelector('.suggestions') || {textContent: ''}).textContent.includes('You are watching')",
            )
            .await;
        assert!(!friend.text(".seat.bottom .seat-name").await.contains("(you)"), "the friend holds a seat");
        friend.screenshot("seats-void-invite-desktop").await;
        creator.wait_for("the creator told", &status_starts("A player from the lobby took")).await;
        creator.screenshot("seats-creator-told-desktop").await;
        let icon = "fetch(document.querySelector('link[rel=icon]').href).then(r => r.status + ' ' + r.headers.get('content-type'))";
        assert_eq!(creator.eval(icon).await, "200 image/svg+xml", "the page's favicon");
        // The stranger plays Black, typing the move in WXF (issue 50's move box).
        click_move(&creator, "h2", "e2", 1).await;
        stranger.wait_for("Red's move", "document.querySelectorAll('.moves .move').length === 1").await;
        type_move(&stranger, "h8+7").await;
        stranger.wait_for("the typed move played", &format!("{} === 'h2e2 h9g7'", moves_listed())).await;
        friend.wait_for("both moves", "document.querySelectorAll('.moves .move').length === 2").await;
        stranger_browser.client.clone().close().await.expect("the stranger's browser closes");
        friend_browser.client.clone().close().await.expect("the friend's browser closes");
    });
}

/// Issue 50: a game against a trained net survives restarts of the server, seen in the
/// browser. The first server runs in another folder and offers the net by a relative path
/// under a generation's name; restarted elsewhere without that name, the same net file
/// plays on; once the file holds another net, the page says so and goes on against the
/// engine the player chooses — never a silent freeze.
#[test]
fn an_engine_game_survives_restarts_of_the_server() {
    use burn::tensor::Device;
    use xiangqi_zero::game::xiangqi::Xiangqi;
    use xiangqi_zero::nn::{Net, NetConfig};
    let Some(session) = Session::start("restart", 1366, 768) else { return };
    let first = session.dir().join("first");
    std::fs::create_dir_all(first.join("nets")).expect("the first server's folder");
    let net = first.join("nets/tiny.safetensors");
    let new_net = || Net::new(NetConfig::new::<Xiangqi>(1, 8), &Device::flex()).save(&net).expect("a net file");
    new_net();
    session.restart_server(&["tiny-gen0001=net(sims=8):nets/tiny.safetensors", "easy=alphabeta:depth=1"], &first);
    let page = session.page();
    let base = &session.base;
    let moves_are = |n: usize| format!("document.querySelectorAll('.moves .move').length === {n}");
    session.run(async {
        open_start_screen(&page, base).await;
        page.click("label[for=\"mode-engine\"]").await;
        page.wait_for("the net offered", "!!document.querySelector('#engine option[value=\"tiny-gen0001\"]')").await;
        let select = page.client.find(fantoccini::Locator::Id("engine")).await.expect("the engine select");
        select.select_by_value("tiny-gen0001").await.expect("the net chosen");
        page.click("#start-game").await;
        page.wait_for("our turn", &status_starts("Your move")).await;
        click_move(&page, "h2", "e2", 1).await;
        page.wait_for("the net's reply", &moves_are(2)).await;

        session.restart_server(&["easy=alphabeta:depth=1"], session.dir());
        // A move made at once, whether or not the page has noticed the restart yet: sent on
        // the old server's socket as it drops, or while reconnecting, it is sent again. The
        // net is random, so the move is one that no reply of black's can take away (its
        // cannon may well have taken the horse on b0).
        click_move(&page, "a0", "a1", 3).await;
        page.wait_for("the same net's reply", &moves_are(4)).await;

        new_net();
        session.restart_server(&["easy=alphabeta:depth=1"], session.dir());
        page.client.refresh().await.expect("the page reloads");
        page.wait_for("the page says the engine is missing", &status_starts("The engine `tiny-gen0001` cannot be had"))
            .await;
        page.wait_for("the engine choice", "!!document.querySelector('.actions .change-engine')").await;
        assert!(page.text("#status").await.contains("has changed"), "the reason named");
        page.screenshot("engine-missing-desktop").await;
        page.click(".actions .change-engine").await;
        page.wait_for("our turn against easy", &status_starts("Your move")).await;
        click_move(&page, "i0", "i1", 5).await;
        page.wait_for("easy's reply", &moves_are(6)).await;
        assert!(page.text(".seat.top .seat-name").await.contains("engine: easy"));
    });
}

/// A phone's screen, as issue 75 measured the page on.
const SMALL_PHONE: (u32, u32) = (360, 640);

/// Whether the element matching `selector` lies wholly inside the viewport as scrolled now.
fn in_view(selector: &str) -> String {
    format!(
        "(r => r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight)(document.querySelector('{selector}').getBoundingClientRect())"
    )
}

/// Whether a tap in the middle of the element matching `selector` reaches it (nothing lies over it).
fn tappable(selector: &str) -> String {
    format!(
        "(e => {{ const r = e.getBoundingClientRect(); return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }})(document.querySelector('{selector}'))"
    )
}

/// Types `text` and Enter into the move box.
async fn type_move(page: &Page<'_>, text: &str) {
    page.wait_for("the move box", "!!document.querySelector('.typed-move:not([hidden]) #typed-move')").await;
    let typed = page.client.find(fantoccini::Locator::Id("typed-move")).await.expect("the move box");
    typed.send_keys(&format!("{text}\n")).await.expect("a move typed");
}

/// Issue 75, item 1: the creator of an online game gets its invite link back in another
/// tab of the same browser (the creating one closed before copying it), from "Your games",
/// at the top of a phone's screen; its watch link, opened there, shows none.
#[test]
fn the_creator_finds_the_invite_link_in_another_tab() {
    let Some(session) = Session::start("invite-tab", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        let (id, invite) = create_online(&page, base, false).await;
        let tab = page.client.new_window(true).await.expect("a new tab");
        page.client.close_window().await.expect("the creating tab closes");
        page.client.switch_to_window(tab.handle).await.expect("the new tab");
        page.set_viewport(SMALL_PHONE.0, SMALL_PHONE.1).await;
        open_start_screen(&page, base).await;
        page.click(&format!(".your-games li[data-game=\"{id}\"] a")).await;
        page.wait_for("the invite link again", &format!("{} === '{invite}'", link_field("opponent-link"))).await;
        assert_eq!(page.eval("window.scrollY").await, 0, "the game's screen opens at its top");
        assert_eq!(page.eval(&in_view(".opponent-link input")).await, true, "the invite link above the fold");
        assert_eq!(page.eval(&in_view(".opponent-link button")).await, true, "its copy button above the fold");
        let first = "document.querySelector('.invite').getBoundingClientRect().bottom \
                     <= document.querySelector('svg.board').getBoundingClientRect().top";
        assert_eq!(page.eval(first).await, true, "the invite link before the board");
        page.screenshot("invite-link-phone").await;
        page.client.goto(&format!("{base}/#/g/{id}")).await.expect("the watch link opens");
        page.wait_for(
            "the spectator's view",
            "(document.querySelector('.suggestions') || {textContent: ''}).textContent.includes('watching')",
        )
        .await;
        assert_eq!(
            page.eval("!!document.querySelector('.opponent-link')").await,
            false,
            "an invite shown to a spectator"
        );
    });
}

/// From the start screen, an engine game of Xiangqi, at our turn.
async fn engine_game(page: &Page<'_>, base: &str) {
    open_start_screen(page, base).await;
    start_game(page, "engine", "xiangqi").await;
    page.wait_for("our turn", &status_starts("Your move")).await;
}

/// Issue 75, items 3 and 4: WXF's `=` for sideways (`C2=5`) typed in the game's move box
/// plays, and no draw is offered to the engine, which never takes one.
#[test]
fn a_wxf_move_with_an_equals_sign_plays_and_the_engine_is_offered_no_draw() {
    let Some(session) = Session::start("typed-wxf", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        engine_game(&page, base).await;
        type_move(&page, "C2=5").await;
        page.wait_for("the typed move and the reply", &format!("{}.startsWith('h2e2 ')", moves_listed())).await;
        page.wait_for("our turn again", &status_starts("Your move")).await;
        page.wait_for("resigning offered", "!!document.querySelector('.actions .resign')").await;
        assert_eq!(page.eval("!!document.querySelector('.actions .offer-draw')").await, false, "a draw offered");
    });
}

/// Issue 75, item 5: on a phone a message (here: a move that is not legal) leaves Hint and
/// Resign, at the foot of the screen, to tap.
#[test]
fn a_message_leaves_the_controls_to_tap_on_a_phone() {
    let Some(session) = Session::start("phone-toast", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        engine_game(&page, base).await;
        click_move(&page, "h2", "e2", 1).await;
        page.wait_for("the resign button", "!!document.querySelector('.actions .resign')").await;
        page.set_viewport(SMALL_PHONE.0, SMALL_PHONE.1).await;
        type_move(&page, "C9=9").await;
        page.wait_for("the message", "!!document.querySelector('#toasts .toast')").await;
        page.eval("document.querySelector('.actions .hint').scrollIntoView({block: 'end'})").await;
        for control in [".actions .hint", ".actions .resign"] {
            assert_eq!(page.eval(&in_view(control)).await, true, "{control} on the screen");
            assert_eq!(page.eval(&tappable(control)).await, true, "{control} covered by the message");
        }
        page.screenshot("phone-toast").await;
        assert_eq!(page.eval("!!document.querySelector('#toasts .toast')").await, true, "the message still shown");
        page.click(".actions .hint").await;
        page.wait_for("the hint's arrow", "!!document.querySelector('.arrow.hint')").await;
    });
}

/// Issue 75, item 3: Banqi's move box shows Banqi's moves, and a typed flip plays.
#[test]
fn the_banqi_move_box_shows_and_plays_banqi_moves() {
    let Some(session) = Session::start("banqi-box", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        new_local_game(&page, base, "banqi").await;
        let placeholder = page.eval("document.getElementById('typed-move').placeholder").await;
        let placeholder = placeholder.as_str().expect("a placeholder");
        assert!(placeholder.contains("flip b3") && !placeholder.contains("C2.5"), "{placeholder}");
        type_move(&page, "flip b3").await;
        page.wait_for(
            "b3 flipped",
            "(document.querySelector('.moves .move') || {dataset: {}}).dataset.move?.startsWith('b3b3:')",
        )
        .await;
    });
}

/// Issue 75, item 5: on a phone, Banqi's status line is on the screen with the whole board.
#[test]
fn the_banqi_status_line_is_on_a_phone_screen() {
    let Some(session) = Session::start("banqi-status", SMALL_PHONE.0, SMALL_PHONE.1) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        page.set_viewport(SMALL_PHONE.0, SMALL_PHONE.1).await;
        new_local_game(&page, base, "banqi").await;
        page.wait_for("the status", "document.getElementById('status').textContent.includes('to move')").await;
        page.eval("window.scrollTo(0, 0)").await;
        assert_eq!(page.eval(&in_view("svg.board")).await, true, "the board on the screen");
        assert_eq!(page.eval(&in_view("#status")).await, true, "the status line on the screen");
        page.screenshot("banqi-status-phone").await;
    });
}

/// Issue 75, item 3: the analysis board has a move box; a move typed in WXF explores it.
#[test]
fn the_analysis_board_explores_a_typed_move() {
    let Some(session) = Session::start("analysis-box", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        page.client.goto(&format!("{base}/#/analysis")).await.expect("the analysis board opens");
        page.wait_for("the start's lines", "document.querySelectorAll('.analysis-lines li').length === 3").await;
        type_move(&page, "C2=5").await;
        page.wait_for(
            "the move explored",
            "location.hash.includes('moves=h2e2') && !!document.querySelector('.tree-move.here')",
        )
        .await;
    });
}

/// Issue 75, item 5: the variation tree's current move stays readable under the mouse.
#[test]
fn the_current_move_of_the_tree_is_readable_when_hovered() {
    let Some(session) = Session::start("tree-hover", 1366, 768) else { return };
    let (page, base) = (session.page(), &session.base);
    session.run(async {
        page.client.goto(&format!("{base}/#/analysis?moves=h2e2")).await.expect("the analysis board opens");
        page.wait_for("the tree", "!!document.querySelector('.variations .tree-move.here')").await;
        page.hover(".variations .tree-move.here").await;
        let contrast = r"(() => {
          const element = document.querySelector('.variations .tree-move.here');
          const style = getComputedStyle(element);
          const luminance = (color) => {
            const [r, g, b] = color.match(/[\d.]+/g).slice(0, 3).map((v) => {
              const c = v / 255;
              return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
          return [element.matches(':hover'), (light + 0.05) / (dark + 0.05) >= 4.5];
        })()";
        assert_eq!(page.eval(contrast).await, serde_json::json!([true, true]), "hovered, and readable (WCAG AA)");
    });
}
