//! One node of the search tree: the edge that leads to it, its statistics, and where its
//! children lie in the arena.
//!
//! Values are summed from `Player::First`'s view whoever moves, so that a Banqi turn
//! that keeps the mover (a chain capture) needs no special sign: a parent whose mover is
//! `Second` simply reads its children's sums negated.

use crate::game::Player;

/// What leads from the parent to a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Edge<M, O> {
    /// The root has no parent.
    Root,
    /// A move chosen at a decision node.
    Move(M),
    /// An outcome drawn at a chance node.
    Outcome(O),
}

/// What a node is, as far as the search knows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NodeKind {
    /// Never reached: it may turn out a decision, a chance point or the end.
    New,
    /// Waiting for the evaluator (in a batch being gathered).
    Pending,
    /// A decision point whose children are its legal moves.
    Decision,
    /// A chance point whose children are its outcomes.
    Chance,
    /// The game is over here; `raw` holds the result, and `proof` says it.
    Terminal,
}

/// What the search has proven of a node's position under best play (the MCTS-solver of
/// Winands et al., 2008): its end by the rules, a mate in one, or every line below it
/// settled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    /// Not proven.
    Open,
    /// `winner` wins, the game ending within `plies` plies (0: it is over here).
    Win { winner: Player, plies: u16 },
    /// A draw.
    Draw,
}

impl Proof {
    /// The game's end here, won by `winner` (`None`: a draw).
    pub fn of_result(winner: Option<Player>) -> Proof {
        winner.map_or(Proof::Draw, |winner| Proof::Win { winner, plies: 0 })
    }

    /// The same result one ply further from the end (the parent's, reached through it).
    pub fn one_ply_before(self) -> Proof {
        match self {
            Proof::Win { winner, plies } => Proof::Win { winner, plies: plies.saturating_add(1) },
            other => other,
        }
    }

    /// The proven value from `First`'s view and the draw's share of it (1 for a draw, 0
    /// for a win), as a simulation backs them up; `None` when open.
    pub fn outcome(self) -> Option<(f32, f32)> {
        match self {
            Proof::Open => None,
            Proof::Win { winner, .. } => Some((sign(winner), 0.0)),
            Proof::Draw => Some((0.0, 1.0)),
        }
    }

    /// Whether it is proven lost for `player`.
    pub fn is_loss_for(self, player: Player) -> bool {
        matches!(self, Proof::Win { winner, .. } if winner != player)
    }

    /// Whether it is proven won for `player`.
    pub fn is_win_for(self, player: Player) -> bool {
        matches!(self, Proof::Win { winner, .. } if winner == player)
    }

    /// How much `player` wants it: the shortest win most, the longest loss before the
    /// other losses, an open or drawn position between.
    pub fn preference(self, player: Player) -> i32 {
        match self {
            Proof::Win { winner, plies } if winner == player => i32::from(u16::MAX) + 1 - i32::from(plies),
            Proof::Win { plies, .. } => -i32::from(u16::MAX) - 1 + i32::from(plies),
            _ => 0,
        }
    }
}

/// A node of the arena: 48 bytes or so, no heap memory of its own.
#[derive(Clone, Copy, Debug)]
pub struct Node<M, O> {
    /// Sum of the values backed up through this node, from `Player::First`'s view. At a
    /// chance node it is kept equal to `visits · Σ p·Q` over its visited outcomes.
    pub w: f64,
    /// Sum of the draw probabilities backed up, in the same way.
    pub d: f64,
    /// The move's prior (normalized, root noise included) or the outcome's probability.
    pub prior: f32,
    /// The evaluator's value of this position, from `Player::First`'s view (a terminal
    /// node: the result).
    pub raw: f32,
    /// Finished visits.
    pub visits: u32,
    /// Index of the first child; children lie in `first_child .. first_child + children`.
    pub first_child: u32,
    /// Visits on their way down or waiting for the evaluator (virtual loss).
    pub in_flight: u16,
    /// Number of children.
    pub children: u16,
    /// What the node is.
    pub kind: NodeKind,
    /// The result the search has proven for this position, if any.
    pub proof: Proof,
    /// The player to move at a decision node.
    pub mover: Player,
    /// How the parent reached it.
    pub edge: Edge<M, O>,
}

impl<M, O> Node<M, O> {
    /// A node never visited, reached by `edge` with prior (or probability) `prior`.
    pub fn new(edge: Edge<M, O>, prior: f32) -> Node<M, O> {
        Node {
            w: 0.0,
            d: 0.0,
            prior,
            raw: 0.0,
            visits: 0,
            first_child: 0,
            in_flight: 0,
            children: 0,
            kind: NodeKind::New,
            proof: Proof::Open,
            mover: Player::First,
            edge,
        }
    }

    /// The arena indices of the children.
    #[inline]
    pub fn child_range(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.children as usize
    }

    /// Whether the node has children.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        matches!(self.kind, NodeKind::Decision | NodeKind::Chance)
    }

    /// Mean value from `player`'s view over finished visits (`None` when never visited).
    #[inline]
    pub fn q(&self, player: Player) -> Option<f32> {
        (self.visits > 0).then(|| sign(player) * (self.w / self.visits as f64) as f32)
    }

    /// Visits finished or on their way.
    #[inline]
    pub fn visits_in_flight(&self) -> u32 {
        self.visits + self.in_flight as u32
    }
}

/// +1 for `First`, −1 for `Second`: turns a value from `First`'s view into `player`'s.
#[inline]
pub fn sign(player: Player) -> f32 {
    match player {
        Player::First => 1.0,
        Player::Second => -1.0,
    }
}
