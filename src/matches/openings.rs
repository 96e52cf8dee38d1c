//! Openings a match starts from: a built-in list of common Xiangqi openings
//! ([`builtin`]) and a reader for openings files ([`parse_file`]).
//!
//! Moves are written in ICCS as the rest of the crate reads them: from and to squares,
//! files `a`–`i` from Red's left, ranks `0`–`9` from Red's back rank (`h2e2` is the
//! central cannon). Nothing here knows the rules; the arena plays an opening through the
//! rules core, which rejects an illegal move with its own message.
//!
//! Names give the English name and the Chinese one, e.g. "Central Cannon vs Screen
//! Horses (中炮对屏风马)". Chinese files count from each player's right: Red's file 一 is
//! `i`, 二 is `h`, …, 九 is `a`; Black's file 1 is `a`, …, 9 is `i`. So 炮二平五 is `h2e2`
//! and 马8进7 is `h9g7`.

use std::fmt;

/// A built-in opening: a name and the moves from the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// English and Chinese name, e.g. "Central Cannon vs Screen Horses (中炮对屏风马)".
    pub name: &'static str,
    /// The moves from the start position, in ICCS (`h2e2`), Red first.
    pub moves: &'static [&'static str],
}

/// An opening read from a file (or copied from a built-in one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedOpening {
    /// The name: the line's trailing `# comment`, else `line N`.
    pub name: String,
    /// The position the moves start from, as a FEN; `None` for the start position.
    pub fen: Option<String>,
    /// The moves, in lower-case ICCS (`h2e2`).
    pub moves: Vec<String>,
}

impl OwnedOpening {
    /// The start position's text as `Game::from_text` reads it: the FEN, or `startpos`.
    pub fn start_text(&self) -> &str {
        self.fen.as_deref().unwrap_or("startpos")
    }
}

impl From<&Opening> for OwnedOpening {
    fn from(opening: &Opening) -> OwnedOpening {
        OwnedOpening {
            name: opening.name.to_string(),
            fen: None,
            moves: opening.moves.iter().map(|m| m.to_string()).collect(),
        }
    }
}

impl fmt::Display for OwnedOpening {
    /// The opening as one line of an openings file: `[FEN; ]moves  # name`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(fen) = &self.fen {
            write!(f, "{fen}; ")?;
        }
        write!(f, "{}  # {}", self.moves.join(" "), self.name)
    }
}

macro_rules! openings {
    ($($name:literal: $($mv:literal)+;)+) => {
        &[$(Opening { name: $name, moves: &[$($mv),+] }),+]
    };
}

/// The built-in openings, 2 to 8 plies each from the start position.
///
/// They cover the families a Xiangqi opening book starts with: the central cannon
/// against screen horses and its chariot and cannon systems, same-direction and
/// opposite-direction cannons, the central cannon against the other black defences, the
/// pawn openings (仙人指路), elephant, horse, cannon and other flank openings. Every
/// opening is played with both colours, so its side bias cancels out in a match.
pub fn builtin() -> &'static [Opening] {
    BUILTIN
}

static BUILTIN: &[Opening] = openings! {
    // Central cannon vs screen horses (中炮对屏风马) and its systems.
    "Central Cannon vs Screen Horses (中炮对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7";
    "Central Cannon River-Crossing Chariot vs Screen Horses (中炮过河车对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "g6g5" "h0h6" "b9c7";
    "Central Cannon River-Patrol Chariot vs Screen Horses (中炮巡河车对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "h0h4" "g6g5";
    "Central Cannon Right Horizontal Chariot vs Screen Horses (中炮右横车对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0i1" "b9c7";
    "Central Cannon Straight and Horizontal Chariots vs Screen Horses (中炮直横车对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "a0a1" "g6g5";
    "Central Cannon Central Pawn Rush vs Screen Horses (中炮急进中兵对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "e3e4" "g6g5";
    "Five-Seven Cannons vs Screen Horses (五七炮对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "b2c2" "g6g5";
    "Five-Six Cannons vs Screen Horses (五六炮对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "b2d2" "g6g5";
    "Five-Nine Cannons vs Screen Horses (五九炮对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "b2a2" "g6g5";
    "Central Cannon Two-Headed Snake vs Screen Horses (中炮两头蛇对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "g3g4" "b9c7" "c3c4" "a9b9";
    "Central Cannon Seventh-File Horse vs Screen Horses (中炮七路马对屏风马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9c7" "b0c2" "g6g5";
    "Central Cannon vs Screen Horses Left Horse to River (中炮对屏风马左马盘河)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "g6g5" "b0c2" "g7f5";
    // Central cannon vs the other black defences.
    "Central Cannon vs Left Horse (中炮对进左马)":
        "h2e2" "h9g7";
    "Central Cannon vs Left Cannon Blocking Chariot (中炮对左炮封车)":
        "h2e2" "h9g7" "h0g2" "b9c7" "i0h0" "h7h3";
    "Central Cannon vs Reverse Palcorner Horse (中炮对反宫马)":
        "h2e2" "b9c7" "h0g2" "h7f7" "i0h0" "h9g7";
    "Central Cannon vs Single Lifted Horse (中炮对单提马)":
        "h2e2" "h9g7" "h0g2" "i9h9" "i0h0" "b9a7";
    "Central Cannon vs Left Three-Step Tiger (中炮对左三步虎)":
        "h2e2" "h9g7" "h0g2" "h7i7" "i0h0" "i9h9";
    "Central Cannon vs Halfway Opposite Cannon (中炮对半途列炮)":
        "h2e2" "h9g7" "h0g2" "b7e7";
    // Same-direction cannons (顺炮).
    "Same-Direction Cannons (顺炮)":
        "h2e2" "h7e7";
    "Same-Direction Cannons Straight Chariot vs Horizontal Chariot (顺炮直车对横车)":
        "h2e2" "h7e7" "h0g2" "h9g7" "i0h0" "i9i8";
    "Same-Direction Cannons Straight Chariot vs Slow Chariot (顺炮直车对缓开车)":
        "h2e2" "h7e7" "h0g2" "h9g7" "i0h0" "b9c7";
    "Same-Direction Cannons Horizontal Chariot vs Straight Chariot (顺炮横车对直车)":
        "h2e2" "h7e7" "h0g2" "h9g7" "i0i1" "i9h9";
    "Same-Direction Cannons Straight Chariots (顺炮直车对直车)":
        "h2e2" "h7e7" "h0g2" "h9g7" "i0h0" "i9h9";
    // Opposite-direction cannons (列炮).
    "Opposite-Direction Cannons (列炮)":
        "h2e2" "b7e7";
    "Opposite-Direction Cannons Straight Chariot (列炮直车)":
        "h2e2" "b7e7" "h0g2" "b9c7" "i0h0" "a9b9";
    "Opposite-Direction Cannons Horizontal Chariot (列炮横车)":
        "h2e2" "b7e7" "h0g2" "b9c7" "i0i1" "a9b9";
    // Pawn openings (仙人指路, 兵七进一).
    "Pawn Opening vs Cannon Below Pawn (仙人指路对卒底炮)":
        "c3c4" "b7c7";
    "Pawn Opening to Left Central Cannon vs Cannon Below Pawn (仙人指路转左中炮对卒底炮)":
        "c3c4" "b7c7" "b2e2" "c9e7";
    "Pawn Opening vs Elephant (仙人指路对飞象)":
        "c3c4" "g9e7";
    "Pawn Opening vs Central Cannon (仙人指路对中炮)":
        "c3c4" "h7e7";
    "Pawn Opening vs Left Horse (仙人指路对进左马)":
        "c3c4" "h9g7";
    "Pawn Opening vs Palcorner Cannon (仙人指路对士角炮)":
        "c3c4" "b7d7";
    "Pawn Exchange Opening (对兵局)":
        "c3c4" "g6g5";
    "Right Pawn Opening vs Central Cannon (兵三进一对中炮)":
        "g3g4" "h7e7";
    // Elephant openings (飞相局).
    "Elephant Opening vs Central Cannon (飞相对中炮)":
        "c0e2" "h7e7";
    "Elephant Opening vs Left Horse (飞相对进左马)":
        "c0e2" "h9g7";
    "Elephant Opening vs Palcorner Cannon (飞相对士角炮)":
        "c0e2" "h7f7";
    "Elephant Opening vs Cross-Palace Cannon (飞相对过宫炮)":
        "c0e2" "h7d7";
    "Elephant Opening vs Seventh Pawn (飞相对进7卒)":
        "c0e2" "g6g5";
    "Right Elephant Opening vs Central Cannon (相三进五对中炮)":
        "g0e2" "b7e7";
    // Horse openings (起马局, 边马局).
    "Horse Opening vs Pawn (起马对挺卒)":
        "b0c2" "g6g5";
    "Horse Opening vs Central Cannon (起马对中炮)":
        "b0c2" "h7e7";
    "Right Horse Opening (马二进三)":
        "h0g2" "h9g7";
    "Edge Horse Opening (边马局)":
        "b0a2" "h7e7";
    // Cannon openings.
    "Palcorner Cannon Opening (士角炮局)":
        "h2f2" "h9g7";
    "Left Palcorner Cannon vs Central Cannon (左士角炮对中炮)":
        "b2d2" "h7e7";
    "Cross-Palace Cannon vs Central Cannon (过宫炮对中炮)":
        "h2d2" "h7e7";
    "Cannon Below Pawn Opening (兵底炮局)":
        "h2g2" "h9g7";
    "Edge Cannon Opening (边炮局)":
        "h2i2" "h9g7";
    "River-Bank Cannon Opening (巡河炮局)":
        "h2h4" "h9g7";
    "River-Crossing Cannon Opening (过河炮局)":
        "h2h6" "h9g7";
    // Other flank openings.
    "Central Pawn Opening (中兵局)":
        "e3e4" "h9g7";
    "Edge Pawn Opening (边兵局)":
        "a3a4" "h7e7";
    "Advisor Opening (上仕局)":
        "f0e1" "h7e7";
};

/// Reads an openings file: one opening a line.
///
/// ```text
/// # Blank lines and lines starting with `#` are ignored.
/// h2e2 h9g7 h0g2 i9h9              # Central cannon vs screen horses
/// h2e2 h9g7
/// rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1; h2e2 h9g7
/// startpos; c3c4 b7c7              # `startpos` in place of a FEN
/// 2bak4/9/4b4/9/9/9/9/9/4A4/3AK4 w  # a FEN alone (no `;` needed), no moves
/// ```
///
/// - A line is `[FEN;] [moves] [# name]`. The part before a `;` is a FEN (or
///   `startpos`); without a `;`, a line containing `/` is a FEN alone, any other line is
///   moves from the start position.
/// - Moves are ICCS separated by spaces: `h2e2`, also `H2-E2` as in PGN; they are stored
///   in lower case without the hyphen.
/// - The text after a `#` on an opening's line is its name; without one, the opening is
///   named `line N` (the third line above is `line 3`).
/// - The FEN's shape is checked here (10 rows of 9 squares, the side `w`, `r` or `b`); its
///   legality, and that of the moves, is for the rules core that plays them.
///
/// The error is one line naming the line number: `line 4: `h2e` is not a move …`. A file
/// with no opening at all is an error too.
pub fn parse_file(text: &str) -> Result<Vec<OwnedOpening>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let (body, comment) = match line.split_once('#') {
            Some((body, comment)) => (body.trim(), Some(comment.trim())),
            None => (line.trim(), None),
        };
        if body.is_empty() {
            continue;
        }
        let (fen, moves) = match body.split_once(';') {
            Some((fen, moves)) => (Some(fen.trim()), moves.trim()),
            None if body.contains('/') => (Some(body), ""),
            None => (None, body),
        };
        let fen = match fen {
            Some("startpos") | None => None,
            Some(fen) => {
                check_fen_shape(fen).map_err(|why| format!("line {number}: {why}"))?;
                Some(fen.split_whitespace().collect::<Vec<_>>().join(" "))
            }
        };
        if moves.contains(';') {
            return Err(format!("line {number}: more than one `;` (expected `FEN; moves`)"));
        }
        let moves = moves
            .split_whitespace()
            .map(|mv| {
                normalize_move(mv).ok_or_else(|| {
                    format!("line {number}: `{mv}` is not a move in ICCS notation (files a-i, ranks 0-9, e.g. `h2e2`)")
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let name = match comment {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("line {number}"),
        };
        openings.push(OwnedOpening { name, fen, moves });
    }
    if openings.is_empty() {
        return Err("no openings in the file (every line is blank or a comment)".to_string());
    }
    Ok(openings)
}

/// `h2e2` or `H2-E2` → `h2e2`; `None` unless it names two different squares.
fn normalize_move(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let compact: Vec<u8> = match bytes {
        [a, b, b'-', c, d] => vec![*a, *b, *c, *d],
        [_, _, _, _] => bytes.to_vec(),
        _ => return None,
    };
    let square_ok = |file: u8, rank: u8| (b'a'..=b'i').contains(&file) && rank.is_ascii_digit();
    if !square_ok(compact[0], compact[1]) || !square_ok(compact[2], compact[3]) {
        return None;
    }
    if compact[..2] == compact[2..] {
        return None;
    }
    String::from_utf8(compact).ok()
}

/// Checks that `fen` looks like a Xiangqi FEN: 10 rows of 9 squares and a side to move.
fn check_fen_shape(fen: &str) -> Result<(), String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let bad = |why: String| Err(format!("`{fen}` is not a FEN: {why}"));
    if fields.len() < 2 || fields.len() > 6 {
        return bad(format!("expected 2 to 6 fields, found {}", fields.len()));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 10 {
        return bad(format!("expected 10 rows separated by `/`, found {}", rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let mut squares = 0;
        for c in row.chars() {
            match c {
                '1'..='9' => squares += c as u32 - '0' as u32,
                _ if "KABNRCPHEkabnrcphe".contains(c) => squares += 1,
                _ => return bad(format!("`{c}` in row {} is not a piece or a count", i + 1)),
            }
        }
        if squares != 9 {
            return bad(format!("row {} has {squares} squares, not 9", i + 1));
        }
    }
    if !matches!(fields[1], "w" | "r" | "b") {
        return bad(format!("the side to move must be `w`, `r` or `b`, not `{}`", fields[1]));
    }
    Ok(())
}
