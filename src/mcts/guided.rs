//! What the rules add to a learned evaluator: the value read at quiet positions, mixed
//! with the settled material count, and priors that know captures and checks.
//!
//! - **Quiet leaves.** A leaf of the search is often a position in the middle of an
//!   exchange — a piece just taken and not yet taken back, or left where it can be taken.
//!   A classical engine never trusts its evaluation there: it plays the captures out
//!   (quiescence) and evaluates the quiet position at the end. With `quiet_leaves` the
//!   value is the evaluator's at the end of the settling captures
//!   ([`Material::settled_line`]), seen from the leaf's side to move; the priors stay
//!   the leaf's own. A net that has seen mostly quiet positions in its games is then asked
//!   mostly about them.
//! - **Rules priors.** With `rules_prior` = w > 0 each leaf's priors are
//!   `(1 − w)·net + w·rules`, the rules' share being [`Material::move_weights`] normalized
//!   (captures by the victim's worth, checks): a young net's policy, trained on a few
//!   thousand games, puts next to nothing on taking a piece left hanging. With
//!   `rules_threats` = t > 0 a quiet move's weight also grows by t per soldier it newly
//!   threatens to win ([`Material::threats`]): a fork, an attack on a loose piece — the
//!   short tactics a young net's policy misses on both sides of the board.
//! - **Rules value.** With `rules_value` = w > 0 each leaf's value is
//!   `(1 − w)·net + w·material`, the material share being the settled material count's
//!   value ([`super::MaterialEvaluator::settled`]): exact where the young net's estimate
//!   of material is noisy, so that the net's share adds what material does not say.

use super::evaluator::{Batch, Evaluator, Wdl};
use super::material::{Material, MaterialEvaluator};
use crate::game::Game;

/// An evaluator with the rules' help, as [`super::SearchConfig`]'s `quiet_leaves`,
/// `rules_prior` and `rules_value` say (with none of them, exactly `inner`).
#[derive(Clone, Debug)]
pub struct Guided<G: Game, E> {
    inner: E,
    quiet_leaves: bool,
    rules_prior: f32,
    rules_value: f32,
    rules_threats: f32,
    /// The quiet positions of the leaves that have captures to settle.
    quiet: Batch<G>,
    /// For each of them: its leaf's index in the batch, and whether its side to move is
    /// the leaf's opponent.
    leaves: Vec<(usize, bool)>,
    /// Each leaf's settled material balance, and one leaf's settling captures.
    balances: Vec<f32>,
    line: Vec<G::Move>,
    /// One leaf's rules weights, and its moves' threats.
    weights: Vec<f32>,
    threats: Vec<f32>,
}

impl<G: Game, E> Guided<G, E> {
    /// `inner`, helped as `config` says.
    pub fn new(inner: E, config: &super::SearchConfig) -> Self {
        Guided {
            inner,
            quiet_leaves: config.quiet_leaves,
            rules_prior: config.rules_prior,
            rules_value: config.rules_value,
            rules_threats: config.rules_threats,
            quiet: Batch::new(),
            leaves: Vec::new(),
            balances: Vec::new(),
            line: Vec::new(),
            weights: Vec::new(),
            threats: Vec::new(),
        }
    }
}

impl<G: Material, E: Evaluator<G>> Guided<G, E> {
    /// The rules' help to every leaf's priors: the `rules_prior` share of the leaf's
    /// normalized weights (with `rules_threats` per soldier threatened) mixed into its
    /// normalized priors.
    fn help_priors(&mut self, batch: &mut Batch<G>) {
        let share = self.rules_prior;
        for i in 0..batch.len() {
            let (game, moves, priors) = batch.entry_mut(i);
            if moves.is_empty() {
                continue;
            }
            self.weights.resize(moves.len(), 0.0);
            game.move_weights(moves, &mut self.weights);
            if self.rules_threats > 0.0 {
                self.threats.resize(moves.len(), 0.0);
                game.threats(moves, &mut self.threats);
                for (weight, threat) in self.weights.iter_mut().zip(&self.threats) {
                    *weight += self.rules_threats * threat;
                }
            }
            // All-zero priors count as uniform (see `Batch`).
            if priors.iter().all(|&p| p <= 0.0) {
                priors.fill(1.0);
            }
            normalize(priors);
            normalize(&mut self.weights);
            for (prior, weight) in priors.iter_mut().zip(&self.weights) {
                *prior = (1.0 - share) * *prior + share * weight;
            }
        }
    }

    /// Mixes the settled material count's value (of `balances`) into every leaf's value.
    fn mix_rules_values(&mut self, batch: &mut Batch<G>) {
        let material = MaterialEvaluator::settled();
        for (i, &balance) in self.balances.iter().enumerate() {
            let counted = Wdl::from_value(material.value_of(balance));
            batch.set_value(i, batch.value(i).mixed(counted, self.rules_value));
        }
    }

    /// Settles every leaf's captures once (its balance into `balances`) and, with quiet
    /// leaves, replaces the value of every leaf with captures to settle by the value at
    /// the end of them. With `leaves_read` false the inner evaluator has not been asked
    /// about the leaves: each leaf with nothing to settle is then asked about itself, in
    /// the same call as the quiet positions.
    fn settle_leaves(&mut self, batch: &mut Batch<G>, leaves_read: bool) {
        self.quiet.clear();
        self.leaves.clear();
        self.balances.clear();
        for i in 0..batch.len() {
            self.balances.push(batch.game(i).settled_line(&mut self.line));
            if !self.quiet_leaves {
                continue;
            }
            if self.line.is_empty() {
                if !leaves_read {
                    // The leaf itself, with the moves the search already generated.
                    self.quiet.next_slot(batch.game(i));
                    self.quiet.commit(batch.moves(i));
                    self.leaves.push((i, false));
                }
                continue;
            }
            let leaf = batch.game(i);
            let mut game = leaf.clone();
            for &mv in &self.line {
                game.play(mv);
            }
            match game.status().value_for(leaf.to_move()) {
                Some(value) => batch.set_value(i, Wdl::from_value(value)),
                None => {
                    let flipped = game.to_move() != leaf.to_move();
                    self.quiet.push(&game);
                    self.leaves.push((i, flipped));
                }
            }
        }
        if self.quiet.is_empty() {
            return;
        }
        self.inner.evaluate(&mut self.quiet);
        for (j, &(i, flipped)) in self.leaves.iter().enumerate() {
            let value = self.quiet.value(j);
            batch.set_value(i, if flipped { value.flipped() } else { value });
        }
    }
}

/// Scales `values` to sum to 1 (left as they are when they sum to 0).
fn normalize(values: &mut [f32]) {
    let total: f32 = values.iter().sum();
    if total > 0.0 {
        values.iter_mut().for_each(|value| *value /= total);
    }
}

impl<G: Material, E: Evaluator<G>> Evaluator<G> for Guided<G, E> {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        // With the rules' priors alone and quiet leaves, nothing of the inner evaluator's
        // answer at a leaf with captures to settle is used: it is asked about each leaf's
        // quiet position only, one position a leaf.
        let leaves_read = !self.quiet_leaves || self.rules_prior < 1.0;
        if leaves_read {
            self.inner.evaluate(batch);
        }
        if self.rules_prior > 0.0 {
            self.help_priors(batch);
        }
        if self.quiet_leaves || self.rules_value > 0.0 {
            self.settle_leaves(batch, leaves_read);
        }
        if self.rules_value > 0.0 {
            self.mix_rules_values(batch);
        }
    }
}
