//! What a search keeps about its root: the priors before noise, the Dirichlet or Gumbel
//! noise, the visits the root's children had when the search began (a reused tree comes
//! with some), and the Sequential Halving schedule.

use rand::Rng;

use super::config::{RootSelection, SearchConfig};
use super::gumbel;
use super::noise;
use super::tree::{Tree, ROOT};

/// Per-search state of the root.
#[derive(Clone, Debug, Default)]
pub struct RootState {
    /// The children's priors before any noise.
    pub clean: Vec<f32>,
    /// The children's visits when this search began.
    pub base: Vec<u32>,
    /// Gumbel: the noise `g` of each child (0 without noise).
    pub gumbel: Vec<f32>,
    /// Gumbel: the children's prior logits.
    pub logits: Vec<f32>,
    /// Gumbel: the visit count (this search) a move needs to be chosen, by simulation.
    pub schedule: Vec<u32>,
    /// Scratch: visits of each child in this search, in flight included.
    counts: Vec<u32>,
    /// Prepared for the current search.
    pub ready: bool,
    /// The root priors carry Dirichlet noise already (never noise twice).
    pub noised: bool,
    /// Forced playouts are on in this search.
    pub forced: bool,
}

impl RootState {
    /// Forgets everything: a new root.
    pub fn reset(&mut self) {
        self.ready = false;
        self.noised = false;
        self.clean.clear();
    }

    /// Prepares the expanded root for a search of `simulations` simulations; `full`
    /// searches get the noise and forced playouts the config asks for.
    pub fn prepare<M: Copy, O: Copy, R: Rng>(
        &mut self,
        tree: &mut Tree<M, O>,
        config: &SearchConfig,
        rng: &mut R,
        full: bool,
        simulations: u32,
    ) {
        let range = tree[ROOT].child_range();
        if !self.noised {
            self.clean.clear();
            self.clean.extend(tree.children(ROOT).iter().map(|c| c.prior));
        }
        self.base.clear();
        self.base.extend(tree.children(ROOT).iter().map(|c| c.visits));
        let noisy = full && config.noise;
        match config.root {
            RootSelection::Puct => {
                if noisy && !self.noised && range.len() > 1 {
                    let alpha = if config.dirichlet_alpha_total > 0.0 {
                        config.dirichlet_alpha_total / range.len() as f32
                    } else {
                        config.dirichlet_alpha
                    };
                    let mut eta = vec![0.0; range.len()];
                    noise::dirichlet(rng, alpha, &mut eta);
                    let eps = config.dirichlet_epsilon;
                    for (i, e) in range.clone().zip(eta) {
                        tree[i].prior = (1.0 - eps) * tree[i].prior + eps * e;
                    }
                    self.noised = true;
                }
                self.forced = full && config.forced_playouts;
            }
            RootSelection::Gumbel => {
                self.logits.clear();
                self.logits.extend(self.clean.iter().map(|&p| gumbel::logit(p)));
                self.gumbel.clear();
                self.gumbel.extend((0..range.len()).map(|_| if noisy { noise::gumbel(rng) } else { 0.0 }));
                let considered = config.gumbel_considered.min(range.len() as u32);
                self.schedule = gumbel::considered_visits(considered, simulations);
                self.forced = false;
            }
        }
        self.ready = true;
    }

    /// The visits of each root child in this search so far, in flight included.
    pub fn counts<M: Copy, O: Copy>(&mut self, tree: &Tree<M, O>) -> &[u32] {
        self.counts.clear();
        self.counts.extend(tree.children(ROOT).iter().zip(&self.base).map(|(c, &b)| c.visits_in_flight() - b));
        &self.counts
    }

    /// Gumbel's choice at the root: Sequential Halving among the considered moves
    /// (which the schedule and the Gumbel-perturbed logits single out); past the
    /// schedule's end, the inner nodes' rule. `None` when the choice must wait for
    /// results still in flight: it ranks the moves whose count equals the schedule's
    /// target by their Q, so none of them may have a visit on its way (the ranking would
    /// otherwise differ from the sequential algorithm's).
    pub fn select_gumbel<M: Copy, O: Copy>(
        &mut self,
        tree: &Tree<M, O>,
        config: &SearchConfig,
        scratch: &mut [Vec<f32>; 2],
    ) -> Option<usize> {
        self.counts(tree);
        let index: u32 = self.counts.iter().sum();
        let Some(&target) = self.schedule.get(index as usize) else {
            return Some(gumbel::select_inner(tree, ROOT, config, scratch));
        };
        let children = tree.children(ROOT);
        if self.counts.iter().zip(children).any(|(&count, child)| count == target && child.in_flight > 0) {
            return None;
        }
        gumbel::sigma_completed_q(tree, ROOT, config, None, &mut scratch[0]);
        match gumbel::select_considered(&self.counts, target, &self.gumbel, &self.logits, &scratch[0]) {
            Some(i) => Some(i),
            None => Some(gumbel::select_inner(tree, ROOT, config, scratch)),
        }
    }

    /// Gumbel's move at the end of the search: among the most visited moves (this
    /// search), the one maximizing `g + logit + σ(q̂)`.
    pub fn gumbel_choice<M: Copy, O: Copy>(
        &mut self,
        tree: &Tree<M, O>,
        config: &SearchConfig,
        sigma: &mut Vec<f32>,
    ) -> Option<usize> {
        self.counts(tree);
        let most = *self.counts.iter().max()?;
        gumbel::sigma_completed_q(tree, ROOT, config, None, sigma);
        gumbel::select_considered(&self.counts, most, &self.gumbel, &self.logits, sigma)
    }
}
