//! A move's text in the notation players choose — ICCS squares (`h2e2`), WXF (`C2.5`)
//! or Chinese (`炮二平五`) — and the legal move a text in any of them names.

use std::fmt;
use std::str::FromStr;

use super::{chinese, wxf, Board, Move};

/// A way of writing moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// From-square then to-square, files `a`–`i`, ranks 0–9 from Red's side: `h2e2`.
    Iccs,
    /// The World Xiangqi Federation's: piece, file, direction, figure: `C2.5`.
    Wxf,
    /// The Chinese characters players read: `炮二平五`.
    Chinese,
}

impl Notation {
    /// The three notations, in the order a text in an unknown one is tried.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The name on the command line: `iccs`, `wxf`, `chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = String;

    fn from_str(text: &str) -> Result<Notation, String> {
        Notation::ALL
            .into_iter()
            .find(|notation| notation.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown notation `{}`: expected iccs, wxf or chinese", text.trim()))
    }
}

impl Board {
    /// The text of `mv`, a move of the side to move, in `notation`. A move whose
    /// from-square holds no piece of the side to move has only its ICCS text.
    pub fn move_text(&self, mv: Move, notation: Notation) -> String {
        match (notation, self.describe(mv)) {
            (Notation::Wxf, Some(description)) => wxf::write(&description),
            (Notation::Chinese, Some(description)) => chinese::write(&description, self.side_to_move()),
            _ => mv.to_string(),
        }
    }

    /// The legal move that `text` names in `notation`, or in any of the three when
    /// `notation` is `None`. The error is one line saying why there is none: the text
    /// is no move in that notation, no such piece stands there, the move is illegal, or
    /// the text fits more than one move.
    pub fn read_move(&self, text: &str, notation: Option<Notation>) -> Result<Move, String> {
        let text = text.trim();
        let tried: Vec<Notation> = notation.map_or(Notation::ALL.to_vec(), |notation| vec![notation]);
        for notation in &tried {
            match notation {
                Notation::Iccs => {
                    if let Some(mv) = Move::parse(text, false) {
                        return self.check_iccs(mv);
                    }
                }
                Notation::Wxf => {
                    if let Some(named) = wxf::read(text) {
                        return self.resolve(&named);
                    }
                }
                Notation::Chinese => {
                    if let Some(named) = chinese::read(text) {
                        return self.resolve(&named);
                    }
                }
            }
        }
        let names: Vec<&str> = tried.iter().map(|notation| notation.name()).collect();
        Err(format!("not a move in {} notation", names.join(" or ")))
    }

    /// `mv` if it is legal here, else why not.
    fn check_iccs(&self, mv: Move) -> Result<Move, String> {
        match self.piece_at(mv.from) {
            _ if self.is_legal(mv) => Ok(mv),
            Some(piece) if piece.color() == self.side_to_move() => {
                Err(format!("the {} on {} cannot move to {}", piece.name(), mv.from, mv.to))
            }
            _ => Err(format!("no {} piece on {}", self.side_to_move().name(), mv.from)),
        }
    }
}
