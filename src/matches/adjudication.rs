//! Adjudication of a match's games by the players' own scores, as cutechess-cli and
//! fishtest do it: a game both players agree is lost ends as a loss (`--resign`), one both
//! agree is level for long enough ends as a draw (`--draw`). It spares a timed match the
//! hopeless tails of its games; the rules judge everything else. Both sides must agree,
//! so a player that reports no scores (a random mover) is never adjudicated against.

use crate::game::Player as Seat;
use crate::search::Score;

/// A game is given up when, for `moves` moves in a row of each side, one side's score is
/// at most −`cp` and the other's at least +`cp` (cutechess-cli's `-resign … twosided=true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Moves of each side the scores must agree for.
    pub moves: usize,
    /// The margin in centipawns (mates count as beyond any margin).
    pub cp: i32,
}

/// A game is called drawn when, from move `from_move` on, both sides' scores stay within
/// ±`cp` for `moves` moves in a row of each (cutechess-cli's `-draw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move (counted from 1) at which a draw may be called.
    pub from_move: usize,
    /// Moves of each side the scores must stay level for.
    pub moves: usize,
    /// The margin in centipawns.
    pub cp: i32,
}

/// The rules a match adjudicates its games by; none by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// When a lost game is given up.
    pub resign: Option<ResignRule>,
    /// When a level game is called drawn.
    pub draw: Option<DrawRule>,
}

/// How an adjudicated game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This player gives up: the other wins.
    Resigns(Seat),
    /// Both scores stayed level.
    Draw,
}

impl ResignRule {
    /// Reads `MOVES,CP` (as `--resign` takes it), e.g. `3,600`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let [moves, cp] = numbers(text, "--resign", "MOVES,CP, e.g. `3,600`")?;
        Ok(ResignRule { moves, cp: cp as i32 })
    }
}

impl DrawRule {
    /// Reads `FROM_MOVE,MOVES,CP` (as `--draw` takes it), e.g. `40,8,20`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let [from_move, moves, cp] = numbers(text, "--draw", "FROM_MOVE,MOVES,CP, e.g. `40,8,20`")?;
        Ok(DrawRule { from_move, moves, cp: cp as i32 })
    }
}

/// `N` positive whole numbers separated by commas (a score margin below 100 000).
fn numbers<const N: usize>(text: &str, flag: &str, expected: &str) -> Result<[usize; N], String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != N {
        return Err(format!("{flag} `{text}`: expected {expected}"));
    }
    let mut out = [0; N];
    for (slot, field) in out.iter_mut().zip(&fields) {
        *slot = field
            .parse::<usize>()
            .ok()
            .filter(|&n| (1..100_000).contains(&n))
            .ok_or_else(|| format!("{flag} `{text}`: `{field}` is not a whole number from 1 to 99999"))?;
    }
    Ok(out)
}

/// Follows one game's scores and says when the rules end it.
#[derive(Clone, Debug)]
pub struct Referee {
    rules: Adjudication,
    /// Each side's scores so far (indexed by [`Seat::index`]), in centipawns, mates as ±∞.
    scores: [Vec<i32>; 2],
}

impl Referee {
    /// A referee of a new game under `rules`.
    pub fn new(rules: Adjudication) -> Referee {
        Referee { rules, scores: [Vec::new(), Vec::new()] }
    }

    /// Takes the score `mover` reported (from its own side) for the move it just played,
    /// the game's `plies`-th; the verdict if the game ends here.
    pub fn after_move(&mut self, mover: Seat, score: Score, plies: usize) -> Option<Verdict> {
        let cp = match score {
            Score::Cp(cp) => cp,
            Score::Mate(moves) if moves > 0 => i32::MAX,
            Score::Mate(_) => i32::MIN,
        };
        self.scores[mover.index()].push(cp);
        if let Some(rule) = self.rules.resign {
            for loser in [mover, mover.opponent()] {
                let (lost, won) = (self.last(loser, rule.moves), self.last(loser.opponent(), rule.moves));
                if let (Some(lost), Some(won)) = (lost, won) {
                    if lost.iter().all(|&s| s <= -rule.cp) && won.iter().all(|&s| s >= rule.cp) {
                        return Some(Verdict::Resigns(loser));
                    }
                }
            }
        }
        if let Some(rule) = self.rules.draw {
            let level = |scores: Option<&[i32]>| scores.is_some_and(|s| s.iter().all(|&s| s.abs() <= rule.cp));
            if plies >= 2 * rule.from_move
                && level(self.last(mover, rule.moves))
                && level(self.last(mover.opponent(), rule.moves))
            {
                return Some(Verdict::Draw);
            }
        }
        None
    }

    /// `seat`'s last `count` scores, if it has reported that many.
    fn last(&self, seat: Seat, count: usize) -> Option<&[i32]> {
        let scores = &self.scores[seat.index()];
        scores.len().checked_sub(count).map(|from| &scores[from..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `scores` (each the mover's, Red first) through a referee; the ply it ends at.
    fn ends(rules: Adjudication, scores: &[Score]) -> Option<(usize, Verdict)> {
        let mut referee = Referee::new(rules);
        let mut mover = Seat::First;
        for (i, &score) in scores.iter().enumerate() {
            if let Some(verdict) = referee.after_move(mover, score, i + 1) {
                return Some((i + 1, verdict));
            }
            mover = mover.opponent();
        }
        None
    }

    const RESIGN: Adjudication = Adjudication { resign: Some(ResignRule { moves: 2, cp: 500 }), draw: None };

    #[test]
    fn a_game_is_given_up_once_both_sides_agree_for_long_enough() {
        use Score::*;
        // Red sinks from ply 3, Black agrees from ply 4: two moves each by ply 6.
        let scores = [Cp(0), Cp(0), Cp(-600), Cp(550), Cp(-700), Cp(800)];
        assert_eq!(ends(RESIGN, &scores), Some((6, Verdict::Resigns(Seat::First))));
        // Black's second score falls short of the margin: no verdict yet.
        let scores = [Cp(0), Cp(0), Cp(-600), Cp(550), Cp(-700), Cp(499)];
        assert_eq!(ends(RESIGN, &scores), None);
        // A mate counts beyond any margin, on either side; here Black is the one lost.
        let scores = [Cp(900), Cp(-900), Mate(3), Mate(-2)];
        assert_eq!(ends(RESIGN, &scores), Some((4, Verdict::Resigns(Seat::Second))));
    }

    #[test]
    fn one_side_alone_never_ends_a_game() {
        // A random mover reports 0 every move: its opponent's certainty decides nothing.
        let scores: Vec<Score> = (0..40).map(|i| if i % 2 == 0 { Score::Cp(5000) } else { Score::Cp(0) }).collect();
        assert_eq!(ends(RESIGN, &scores), None);
    }

    #[test]
    fn a_level_game_is_drawn_only_from_its_move() {
        let rules = Adjudication { resign: None, draw: Some(DrawRule { from_move: 4, moves: 2, cp: 20 }) };
        let level = vec![Score::Cp(10); 12];
        // Level from the start: called at ply 8, the fourth move's end.
        assert_eq!(ends(rules, &level), Some((8, Verdict::Draw)));
        // Black's score of −25 at ply 8 puts the call off until it has two level ones again.
        let mut scores = level.clone();
        scores[7] = Score::Cp(-25);
        assert_eq!(ends(rules, &scores), Some((12, Verdict::Draw)));
    }

    #[test]
    fn the_rules_read_as_the_flags_give_them() {
        assert_eq!(ResignRule::parse("3,600"), Ok(ResignRule { moves: 3, cp: 600 }));
        assert_eq!(DrawRule::parse("40, 8, 20"), Ok(DrawRule { from_move: 40, moves: 8, cp: 20 }));
        for bad in ["3", "3,600,1", "0,600", "3,-600", "x,600", "3,100000"] {
            assert!(ResignRule::parse(bad).is_err(), "{bad}");
        }
        assert!(DrawRule::parse("40,8").is_err());
    }
}
