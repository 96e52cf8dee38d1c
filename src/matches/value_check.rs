//! How well a player's judgement of positions foretells how games end: positions of
//! recorded games, each scored by the player at a small fixed budget, against the
//! result of its game from the mover's view. On games no net trained on (a ladder's
//! round robin between classical players, say) it says whether a net's value knows more
//! than a material count, without playing a match.

use crate::game::xiangqi::Xiangqi;
use crate::game::{Game, Player as Side, Status};
use crate::mcts::Material;
use crate::players::{Player, PlayerError};
use crate::records::GameRecord;
use crate::search::{Limits, Score};

/// A position of a recorded game and that game's result from its mover's view.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The position.
    pub position: Xiangqi,
    /// 1 if the side to move went on to win, 0 for a draw, −1 for a loss.
    pub result: i8,
    /// The material balance once the captures on the board settle, in soldiers from the
    /// mover's view ([`Material::settled_material`]).
    pub balance: f32,
}

/// Every `every`-th position (from the first) of each Xiangqi record that is not over,
/// with its game's result. Records that fail to replay are an error naming the round.
pub fn judged_positions(records: &[GameRecord], every: usize) -> Result<Vec<Judged>, String> {
    let every = every.max(1);
    let mut positions = Vec::new();
    for record in records {
        let winner = match record.result.as_str() {
            "1-0" => Some(Side::First),
            "0-1" => Some(Side::Second),
            "1/2-1/2" => None,
            other => return Err(format!("game {}: unknown result `{other}`", record.round)),
        };
        let mut game = Xiangqi::from_text(&record.start).map_err(|e| format!("game {}: {e}", record.round))?;
        for (ply, text) in record.moves.iter().enumerate() {
            if ply % every == 0 && !matches!(game.status(), Status::Over { .. }) {
                let result = match winner {
                    None => 0,
                    Some(side) if side == game.to_move() => 1,
                    Some(_) => -1,
                };
                positions.push(Judged { position: game.clone(), result, balance: game.settled_material() });
            }
            let mv = game.parse_move(text).map_err(|e| format!("game {}, move {}: {e}", record.round, ply + 1))?;
            game.play(mv);
        }
    }
    Ok(positions)
}

/// How well one player's scores order positions by their games' results.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueCheck {
    /// Positions scored.
    pub positions: usize,
    /// Of two positions whose games ended differently for their movers, the share the
    /// player scores in the order of the results (ties count half): 0.5 knows nothing,
    /// 1 never errs.
    pub concordance: f64,
    /// The same over the pairs of positions whose settled material balances are equal:
    /// what the player knows beyond counting material (a material count scores 0.5).
    pub beyond_material: f64,
    /// The mean result (mover's view: win 1, draw 0, loss −1) of the positions the player
    /// scores lowest, in the middle and highest, a third of them each.
    pub by_third: [f64; 3],
}

/// Scores every position with `player` under `limits`, each as the first of a new game
/// (no search tree or table carried from the one before), and measures the scores
/// against the results.
pub fn value_check(
    player: &mut dyn Player<Xiangqi>,
    positions: &[Judged],
    limits: &Limits,
) -> Result<ValueCheck, PlayerError> {
    let mut scored = Vec::with_capacity(positions.len());
    for judged in positions {
        player.new_game()?;
        let report = player.think(&judged.position, limits, &mut |_| {})?;
        let score = rank_key(report.score);
        scored.push(Scored { index: scored.len(), balance: judged.balance, score, result: judged.result });
    }
    Ok(measure(&mut scored))
}

/// One position's settled balance, the player's score and the game's result.
#[derive(Clone, Copy, Debug)]
struct Scored {
    /// The position's place in the games, which orders tied scores.
    index: usize,
    balance: f32,
    score: f64,
    result: i8,
}

/// A number that orders scores as they rank: nearer mates beyond every centipawn score.
fn rank_key(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => cp as f64,
        Score::Mate(moves) if moves > 0 => 1e9 - moves as f64,
        Score::Mate(moves) => -1e9 - moves as f64,
    }
}

/// The concordances and the thirds of the scored positions (reordered here).
fn measure(scored: &mut [Scored]) -> ValueCheck {
    let share = |(concordant, pairs): (f64, f64)| if pairs > 0.0 { concordant / pairs } else { 0.5 };
    // Within each balance, in score order.
    scored.sort_by(|a, b| a.balance.total_cmp(&b.balance).then(a.score.total_cmp(&b.score)));
    let mut within = (0.0, 0.0);
    for group in scored.chunk_by(|a, b| a.balance == b.balance) {
        let (concordant, pairs) = ordered_pairs(group);
        within = (within.0 + concordant, within.1 + pairs);
    }
    // Tied scores in game order, not in the balance order just used.
    scored.sort_by(|a, b| a.score.total_cmp(&b.score).then(a.index.cmp(&b.index)));
    let n = scored.len();
    let third = |k: usize| {
        let part = &scored[k * n / 3..(k + 1) * n / 3];
        part.iter().map(|s| s.result as f64).sum::<f64>() / part.len().max(1) as f64
    };
    ValueCheck {
        positions: n,
        concordance: share(ordered_pairs(scored)),
        beyond_material: share(within),
        by_third: [third(0), third(1), third(2)],
    }
}

/// Of the pairs of positions (in score order) whose games ended differently for their
/// movers, how many the scores put in the order of the results (ties count half), and
/// how many there are: Mann–Whitney's count, a group of tied scores at a time, each
/// position ahead of every earlier one whose game ended worse and level with the tied.
fn ordered_pairs(in_score_order: &[Scored]) -> (f64, f64) {
    let mut concordant = 0.0;
    let mut below = [0.0f64; 3];
    for group in in_score_order.chunk_by(|a, b| a.score == b.score) {
        let mut tied = [0.0f64; 3];
        for s in group {
            tied[(s.result + 1) as usize] += 1.0;
        }
        for better in 0..3 {
            for worse in 0..better {
                concordant += tied[better] * (below[worse] + 0.5 * tied[worse]);
            }
        }
        for (b, t) in below.iter_mut().zip(tied) {
            *b += t;
        }
    }
    (concordant, below[2] * (below[1] + below[0]) + below[1] * below[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measures of positions given as `(balance, score, result)`, in game order.
    fn measured(positions: &[(f32, f64, i8)]) -> ValueCheck {
        let mut scored: Vec<Scored> = positions
            .iter()
            .enumerate()
            .map(|(index, &(balance, score, result))| Scored { index, balance, score, result })
            .collect();
        measure(&mut scored)
    }

    /// Positions of one balance, each `(score, result)`.
    fn check(pairs: &[(f64, i8)]) -> ValueCheck {
        measured(&pairs.iter().map(|&(score, result)| (0.0, score, result)).collect::<Vec<_>>())
    }

    #[test]
    fn concordance_counts_ordered_pairs_and_ties_half() {
        // Every win scored above every draw above every loss.
        assert_eq!(check(&[(-2.0, -1), (0.0, 0), (3.0, 1)]).concordance, 1.0);
        // The reverse.
        assert_eq!(check(&[(2.0, -1), (0.0, 0), (-3.0, 1)]).concordance, 0.0);
        // All level: half.
        assert_eq!(check(&[(1.0, -1), (1.0, 0), (1.0, 1)]).concordance, 0.5);
        // A win and a loss in order, a draw level with the loss: pairs (W,L) 1,
        // (W,D) 1, (D,L) ½ of 3.
        assert_eq!(check(&[(0.0, -1), (0.0, 0), (5.0, 1)]).concordance, 2.5 / 3.0);
        // Positions with the same result make no pairs.
        assert_eq!(check(&[(9.0, 1), (-9.0, 1)]).concordance, 0.5);
    }

    #[test]
    fn beyond_material_compares_positions_of_equal_balance_only() {
        // A chariot up wins and scores high; a chariot down loses and scores low: the
        // overall order is right, but among equal balances the scores are backwards.
        let check = measured(&[(9.0, 10.0, 1), (9.0, 11.0, 0), (-9.0, -10.0, 0), (-9.0, -9.5, -1)]);
        assert_eq!(check.beyond_material, 0.0);
        // Of the five pairs with different results, three are in order.
        assert_eq!(check.concordance, 3.0 / 5.0);
    }

    #[test]
    fn thirds_are_the_mean_results_in_score_order() {
        let result = check(&[(5.0, 1), (-5.0, -1), (0.0, 0), (6.0, 1), (-6.0, -1), (1.0, 1)]);
        assert_eq!(result.by_third, [-1.0, 0.5, 1.0]);
        assert_eq!(result.positions, 6);
    }

    #[test]
    fn mates_rank_beyond_centipawns_and_nearer_first() {
        assert!(rank_key(Score::Mate(1)) > rank_key(Score::Mate(3)));
        assert!(rank_key(Score::Mate(3)) > rank_key(Score::Cp(100_000)));
        assert!(rank_key(Score::Mate(-1)) < rank_key(Score::Mate(-3)));
        assert!(rank_key(Score::Mate(-3)) < rank_key(Score::Cp(-100_000)));
    }
}
