//! The NNUE's training games: an alpha-beta player against itself, from a few random
//! first moves (for variety), each quiet position kept with the score the search gave it
//! and, once the game ends, its result — labels from our own search and our own games
//! only, as Stockfish's first nets were trained.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::positions::LabelledPosition;
use crate::game::xiangqi::{fen, Color, Rules, Xiangqi};
use crate::game::{Game, Status};
use crate::search::evaluation::Evaluation;
use crate::search::xiangqi::AlphaBeta;
use crate::search::{Limits, Score};

/// The transposition table of each game's searcher (MiB).
const HASH_MB: usize = 16;
/// Scores beyond this (centipawns) are not kept as labels: the game is decided.
const MAX_LABEL: i32 = 3000;
/// A game whose score stays beyond this for [`DECIDED_PLIES`] plies is adjudicated.
const DECIDED_SCORE: i32 = 2000;
/// See [`DECIDED_SCORE`].
const DECIDED_PLIES: usize = 6;

/// How the training games are played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Each move's search.
    pub limits: Limits,
    /// The first plies, played at random.
    pub random_plies: usize,
    /// Plies after which the game is a draw.
    pub max_plies: usize,
    /// The rules (repetition and the plies without a capture that draw).
    pub rules: Rules,
}

/// Plays `games` games with `evaluation` (in parallel on rayon's pool; game `i` from the
/// random moves of seed `seed + i`), calling `on_game` after each; returns their labelled
/// positions, game by game.
pub fn play_games<E: Evaluation + Sync>(
    evaluation: &E,
    settings: &GameSettings,
    games: usize,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Vec<LabelledPosition> {
    (0..games)
        .into_par_iter()
        .flat_map_iter(|i| {
            let positions = play_game(evaluation, settings, seed.wrapping_add(i as u64));
            on_game();
            positions
        })
        .collect()
}

/// One game, its first moves drawn from `seed`.
pub fn play_game<E: Evaluation>(evaluation: &E, settings: &GameSettings, seed: u64) -> Vec<LabelledPosition> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut searcher = AlphaBeta::with_evaluation(evaluation.clone(), HASH_MB);
    let mut game = Xiangqi::from_fen(fen::START, settings.rules).expect("the start is a position");
    let mut moves = Vec::new();
    for _ in 0..settings.random_plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() || game.status().is_over() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
    // The positions kept, each with the side to move; the result comes at the end.
    let mut kept: Vec<(LabelledPosition, Color)> = Vec::new();
    let mut decided_for = 0;
    let winner = loop {
        if let Status::Over { winner, .. } = game.status() {
            break winner.map(Color::of_player);
        }
        if game.plies_played() >= settings.max_plies {
            break None;
        }
        let report = searcher.search(&game, &settings.limits, &mut |_| {});
        let (Some(best), board) = (report.best, *game.board()) else { break None };
        let side = board.side_to_move();
        match report.score {
            Score::Mate(moves) => break Some(if moves > 0 { side } else { side.opponent() }),
            Score::Cp(cp) => {
                decided_for = if cp.abs() >= DECIDED_SCORE { decided_for + 1 } else { 0 };
                if decided_for >= DECIDED_PLIES {
                    break Some(if cp > 0 { side } else { side.opponent() });
                }
                let quiet = !game.in_check() && board.piece_at(best.to).is_none();
                if quiet && cp.abs() <= MAX_LABEL {
                    kept.push((LabelledPosition { board, score: cp as i16, result: 0 }, side));
                }
            }
        }
        game.play(best);
    };
    kept.into_iter()
        .map(|(position, side)| LabelledPosition {
            result: match winner {
                None => 0,
                Some(color) if color == side => 1,
                Some(_) => -1,
            },
            ..position
        })
        .collect()
}
