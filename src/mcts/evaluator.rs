//! The evaluator: what turns positions into priors and values. A network, or one of the
//! built-in heuristics ([`super::UniformEvaluator`], [`super::MaterialEvaluator`]).
//!
//! The search hands over a whole [`Batch`] at once — the leaves one search gathered
//! under virtual loss, or those of many games of a [`super::Driver`] — so that a network
//! runs one forward pass per call.

use crate::game::{Game, Player};

/// A win/draw/loss estimate from one player's view; the three add up to 1.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Wdl {
    /// Probability of a win.
    pub win: f32,
    /// Probability of a draw.
    pub draw: f32,
    /// Probability of a loss.
    pub loss: f32,
}

impl Wdl {
    /// A certain draw.
    pub const DRAW: Wdl = Wdl { win: 0.0, draw: 1.0, loss: 0.0 };
    /// A certain win.
    pub const WIN: Wdl = Wdl { win: 1.0, draw: 0.0, loss: 0.0 };

    /// The estimate of a scalar value `v` ∈ [−1, 1] with no draw mass.
    pub fn from_value(v: f32) -> Wdl {
        let v = v.clamp(-1.0, 1.0);
        Wdl { win: (1.0 + v) / 2.0, draw: 0.0, loss: (1.0 - v) / 2.0 }
    }

    /// The expected score in [−1, 1]: win − loss.
    pub fn value(self) -> f32 {
        self.win - self.loss
    }

    /// `(1 − w)·self + w·other`, each probability mixed.
    pub fn mixed(self, other: Wdl, w: f32) -> Wdl {
        let mix = |a: f32, b: f32| (1.0 - w) * a + w * b;
        Wdl { win: mix(self.win, other.win), draw: mix(self.draw, other.draw), loss: mix(self.loss, other.loss) }
    }

    /// The same estimate from the other player's view.
    pub fn flipped(self) -> Wdl {
        Wdl { win: self.loss, draw: self.draw, loss: self.win }
    }

    /// The estimate from `Player::First`'s view, given that it is from `player`'s.
    pub fn for_first(self, player: Player) -> Wdl {
        match player {
            Player::First => self,
            Player::Second => self.flipped(),
        }
    }
}

/// Positions to evaluate, each with its legal moves, and room for the answers.
///
/// An evaluator reads [`Batch::game`] and [`Batch::moves`] and writes, for each position
/// `i`, a prior for each legal move into [`Batch::priors_mut`] (aligned with `moves(i)`;
/// non-negative, any scale: the search normalizes them, and all zeros count as uniform)
/// and a value with [`Batch::set_value`], from the side to move's view.
#[derive(Clone, Debug)]
pub struct Batch<G: Game> {
    /// Game states; the first `len` are in use, the rest are kept for reuse.
    games: Vec<G>,
    len: usize,
    /// The legal moves of all positions, one after the other.
    moves: Vec<G::Move>,
    /// `moves[starts[i]..starts[i + 1]]` are position `i`'s moves.
    starts: Vec<u32>,
    /// Priors aligned with `moves`.
    priors: Vec<f32>,
    /// One value per position.
    values: Vec<Wdl>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch::new()
    }
}

impl<G: Game> Batch<G> {
    /// An empty batch.
    pub fn new() -> Batch<G> {
        Batch { games: Vec::new(), len: 0, moves: Vec::new(), starts: vec![0], priors: Vec::new(), values: Vec::new() }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every position (keeping the memory for the next batch).
    pub fn clear(&mut self) {
        self.len = 0;
        self.moves.clear();
        self.starts.truncate(1);
        self.priors.clear();
        self.values.clear();
    }

    /// Position `i`.
    pub fn game(&self, i: usize) -> &G {
        assert!(i < self.len, "position {i} of a batch of {}", self.len);
        &self.games[i]
    }

    /// The legal moves of position `i`, in the order of [`Game::legal_moves`].
    pub fn moves(&self, i: usize) -> &[G::Move] {
        &self.moves[self.range(i)]
    }

    /// Where the evaluator writes position `i`'s priors, one per legal move.
    pub fn priors_mut(&mut self, i: usize) -> &mut [f32] {
        let range = self.range(i);
        &mut self.priors[range]
    }

    /// Position `i`'s priors as written by the evaluator.
    pub fn priors(&self, i: usize) -> &[f32] {
        &self.priors[self.range(i)]
    }

    /// Position `i`, its moves and its priors to fill, all at once.
    pub fn entry_mut(&mut self, i: usize) -> (&G, &[G::Move], &mut [f32]) {
        let range = self.range(i);
        (&self.games[i], &self.moves[range.clone()], &mut self.priors[range])
    }

    /// Sets position `i`'s value, from the view of the side to move there.
    pub fn set_value(&mut self, i: usize, wdl: Wdl) {
        self.values[i] = wdl;
    }

    /// Position `i`'s value as set by the evaluator.
    pub fn value(&self, i: usize) -> Wdl {
        self.values[i]
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        assert!(i < self.len, "position {i} of a batch of {}", self.len);
        self.starts[i] as usize..self.starts[i + 1] as usize
    }

    /// Adds `game` with its legal moves and returns its index: for evaluating positions
    /// outside a search.
    pub fn push(&mut self, game: &G) -> usize {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        self.next_slot(game);
        self.commit(&moves)
    }

    /// A game slot for the next position, set to `source` (reusing the slot's memory
    /// where the game's `clone_from` can). It becomes part of the batch only once
    /// [`Batch::commit`] is called.
    pub(crate) fn next_slot(&mut self, source: &G) -> &mut G {
        if self.games.len() == self.len {
            self.games.push(source.clone());
        } else {
            self.games[self.len].clone_from(source);
        }
        &mut self.games[self.len]
    }

    /// Adds the slot last handed out as a position, with its legal moves, and returns its
    /// index.
    pub(crate) fn commit(&mut self, moves: &[G::Move]) -> usize {
        self.moves.extend_from_slice(moves);
        self.priors.resize(self.moves.len(), 0.0);
        self.starts.push(self.moves.len() as u32);
        self.values.push(Wdl::DRAW);
        self.len += 1;
        self.len - 1
    }
}

/// Evaluates positions for the search: for each position of a batch, a prior over its
/// legal moves and a win/draw/loss value from the side to move's view.
///
/// A network evaluator encodes all positions, runs one forward pass and reads the policy
/// head at each legal move's label; the built-in ones need no network.
pub trait Evaluator<G: Game> {
    /// Fills the priors and values of every position of `batch`.
    fn evaluate(&mut self, batch: &mut Batch<G>);
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn evaluate(&mut self, batch: &mut Batch<G>) {
        (**self).evaluate(batch)
    }
}
