//! One game's search: the tree over the game's current position, gathering leaves into
//! a batch under virtual loss, backing up the evaluations, and moving the root when a
//! move is played (tree reuse).
//!
//! A simulation descends from the root by PUCT (or Gumbel's rules) through decision
//! nodes and by the low-variance rule through chance nodes, to a node never reached. The
//! game is replayed along the path only then; the rules core says whether the game is
//! over there (checkmate, stalemate, repetition rulings, move limits), whether a chance
//! point was reached (its outcomes become children with their probabilities, and the
//! descent goes on), or else the position joins the batch. Values are backed up from
//! `Player::First`'s view; a chance node keeps its value equal to `Σ p·Q` of its visited
//! outcomes (renormalized over them), and passes the change of its sum upwards, so every
//! node above sees the exact expectation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::config::{RootSelection, SearchConfig};
use super::evaluator::{Batch, Evaluator, Wdl};
use super::gumbel;
use super::node::{Edge, NodeKind, Proof};
use super::root::RootState;
use super::search_result::SearchResult;
use super::select;
use super::tree::{Tree, ROOT};
use crate::game::{Game, Player, Status};

/// When one search stops: after `simulations`, at `deadline`, or once `stop` is set,
/// whichever comes first (and always when the tree is full).
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    /// New simulations to run.
    pub simulations: u32,
    /// The time to stop by.
    pub deadline: Option<Instant>,
    /// Stops the search when set (checked between evaluator calls).
    pub stop: Option<&'a AtomicBool>,
}

impl Budget<'_> {
    /// A budget of `simulations` simulations only.
    pub fn simulations(simulations: u32) -> Budget<'static> {
        Budget { simulations, deadline: None, stop: None }
    }
}

/// A leaf waiting for the evaluator.
#[derive(Clone, Copy, Debug)]
struct Pending {
    node: u32,
    /// Its index in the batch.
    entry: u32,
    /// Its path (root first, the leaf last) in `Search::paths`.
    path: (u32, u32),
    /// The index among its moves of one that wins at once by the rules (a checkmate), if
    /// the game names one: the position is then won for its mover, whatever the
    /// evaluator says, and that move takes the whole prior.
    winning_move: Option<u32>,
}

/// How a descent ended.
enum Descent {
    /// A new position joined the batch.
    Leaf,
    /// The game is over at the leaf: the simulation is already backed up.
    Terminal,
    /// The descent ran into a leaf already waiting for the evaluator, and was undone.
    Collision,
    /// The root's choice needs results still in flight: the descent was undone.
    Wait,
}

/// The search tree of one game and everything needed to grow it.
pub struct Search<G: Game> {
    pub(crate) config: SearchConfig,
    pub(crate) tree: Tree<G::Move, G::Outcome>,
    game: G,
    /// Whether the game is over at the root (asked of the rules once per root).
    over: bool,
    pub(crate) rng: StdRng,
    pub(crate) root: RootState,
    /// Simulations wanted in the current search, and finished so far.
    target: u32,
    done: u32,
    /// Whether the current search is a full one (noise, forced playouts, recorded).
    pub(crate) full: bool,
    pending: Vec<Pending>,
    paths: Vec<u32>,
    /// Scratch space.
    path: Vec<u32>,
    moves: Vec<G::Move>,
    outcomes: Vec<(G::Outcome, f32)>,
    pub(crate) scratch: [Vec<f32>; 2],
    batch: Batch<G>,
    /// The deepest descent of the current search (in edges).
    max_depth: u32,
}

impl<G: Game> Search<G> {
    /// A search of `game` (which may be at a chance point) under `config`; `seed` fixes
    /// the root noise and the temperature draws.
    pub fn new(game: G, config: SearchConfig, seed: u64) -> Search<G> {
        Search {
            config,
            tree: Tree::new(),
            over: game.status().is_over(),
            game,
            rng: StdRng::seed_from_u64(seed),
            root: RootState::default(),
            target: 0,
            done: 0,
            full: true,
            pending: Vec::new(),
            paths: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            scratch: [Vec::new(), Vec::new()],
            batch: Batch::new(),
            max_depth: 0,
        }
    }

    /// The position at the root.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Whether the game is over at the root.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Changes the settings (the tree stays).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Visits of the root so far (this search and the reused tree).
    pub fn root_visits(&self) -> u32 {
        self.tree[ROOT].visits
    }

    /// Simulations finished in the current search.
    pub fn simulations(&self) -> u32 {
        self.done
    }

    /// The deepest descent of the current search, in plies and chance draws.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Whether the current search has run all its simulations (or can grow no more).
    pub fn finished(&self) -> bool {
        self.pending.is_empty() && (self.done >= self.target || self.tree.len() >= self.config.max_nodes || self.over)
    }

    /// Leaves waiting for the evaluator.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Starts a new search of `simulations` simulations from the current root; a `full`
    /// search gets the root noise and forced playouts the config asks for.
    pub fn start(&mut self, simulations: u32, full: bool) {
        assert!(self.pending.is_empty(), "a search starts with no leaf in flight");
        self.target = simulations;
        self.done = 0;
        self.full = full;
        self.root.ready = false;
        self.max_depth = 0;
    }

    /// Plays `mv` at the root, keeping the subtree under it.
    pub fn play(&mut self, mv: G::Move) {
        let child = self.find_child(|edge| edge == Edge::Move(mv));
        self.game.play(mv);
        self.reroot(child);
    }

    /// Resolves the chance point at the root with `outcome`, keeping the subtree under it.
    pub fn apply_outcome(&mut self, outcome: G::Outcome) {
        let child = self.find_child(|edge| edge == Edge::Outcome(outcome));
        self.game.apply_outcome(outcome);
        self.reroot(child);
    }

    /// Moves the root to `game`, keeping the subtree of the current root's descendant
    /// that is `game` (found within four plies or draws) if there is one, else starting
    /// a fresh tree.
    pub fn set_position(&mut self, game: &G) {
        assert!(self.pending.is_empty(), "the root moves with no leaf in flight");
        let found = self.find_descendant(game, ROOT, self.game.clone(), 4);
        self.game = game.clone();
        self.reroot(found);
    }

    /// Starts afresh from `game` with an empty tree, keeping the memory of the old one.
    pub fn reset(&mut self, game: G) {
        assert!(self.pending.is_empty(), "the root moves with no leaf in flight");
        self.game = game;
        self.reroot(None);
    }

    fn find_child(&self, matches: impl Fn(Edge<G::Move, G::Outcome>) -> bool) -> Option<usize> {
        let node = &self.tree[ROOT];
        (node.is_expanded()).then(|| node.child_range().find(|&i| matches(self.tree[i].edge))).flatten()
    }

    /// The node under `node` (whose position is `at`) whose position is `game`.
    fn find_descendant(&self, game: &G, node: usize, at: G, depth: u32) -> Option<usize> {
        if at.plies_played() == game.plies_played() && at.is_chance() == game.is_chance() && at.hash() == game.hash() {
            return Some(node);
        }
        if depth == 0 || at.plies_played() > game.plies_played() || !self.tree[node].is_expanded() {
            return None;
        }
        // An unvisited child has no subtree worth keeping.
        self.tree[node].child_range().filter(|&child| self.tree[child].visits > 0).find_map(|child| {
            let mut next = at.clone();
            match self.tree[child].edge {
                Edge::Move(mv) => next.play(mv),
                Edge::Outcome(outcome) => next.apply_outcome(outcome),
                Edge::Root => return None,
            }
            self.find_descendant(game, child, next, depth - 1)
        })
    }

    fn reroot(&mut self, child: Option<usize>) {
        self.over = self.game.status().is_over();
        match child {
            Some(child) if child != ROOT => self.tree.retain(child),
            Some(_) => return,
            None => self.tree.clear(),
        }
        // A proven node's visits after its proof went to none of its children; as the
        // root, whose visits PUCT shares among them, it keeps its children's (and its mean).
        let root = self.tree[ROOT];
        if root.kind == NodeKind::Decision && root.proof.outcome().is_some() {
            let visits = 1 + self.tree.children(ROOT).iter().map(|c| c.visits).sum::<u32>();
            let scale = f64::from(visits) / f64::from(root.visits.max(1));
            let root = &mut self.tree[ROOT];
            (root.visits, root.w, root.d) = (visits, root.w * scale, root.d * scale);
        }
        self.root.reset();
    }

    /// Runs one search on this tree alone, batch by batch, and returns its result.
    pub fn run<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &mut E, budget: &Budget) -> SearchResult<G::Move> {
        self.run_with(evaluator, budget, &mut |_| {})
    }

    /// [`Search::run`], calling `progress` after every evaluator call.
    pub fn run_with<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        budget: &Budget,
        progress: &mut dyn FnMut(&mut Search<G>),
    ) -> SearchResult<G::Move> {
        self.start(budget.simulations, true);
        let mut batch = std::mem::take(&mut self.batch);
        loop {
            // Time and the stop flag end the search once the root has its moves and one
            // batch of simulations below it (so there is always a move to play, and one
            // the search has looked at, not the prior's first choice unsearched).
            let searched = self.tree[ROOT].kind != NodeKind::New && self.tree[ROOT].visits > 1;
            let stopped = searched && budget.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            let late = searched && budget.deadline.is_some_and(|d| Instant::now() >= d);
            if self.finished() || stopped || late {
                break;
            }
            batch.clear();
            self.gather(&mut batch, self.config.batch_size);
            if !batch.is_empty() {
                evaluator.evaluate(&mut batch);
            }
            self.apply(&batch);
            progress(self);
        }
        self.batch = batch;
        self.result()
    }

    /// Adds up to `max_leaves` new positions of this search to `batch`, descending under
    /// virtual loss; simulations that end the game are backed up at once, and count
    /// against `max_leaves` too (in a lost position every descent may end in a mate: the
    /// call still returns, and the caller's clock is read). Returns how many positions it
    /// added. Call [`Search::apply`] once `batch` is evaluated.
    pub fn gather(&mut self, batch: &mut Batch<G>, max_leaves: usize) -> usize {
        if self.over {
            return 0;
        }
        let mut added = 0;
        let mut ended = 0;
        let mut collisions = 0;
        while added + ended < max_leaves
            && collisions <= max_leaves / 4
            && self.done + (self.pending.len() as u32) < self.target
            && self.tree.len() < self.config.max_nodes
        {
            if !self.root.ready && self.tree[ROOT].kind == NodeKind::Decision {
                // Sequential Halving plans for the simulations asked for; a search
                // bounded only by time plans for the config's number.
                let planned = if self.target == u32::MAX { self.config.simulations } else { self.target.min(1 << 22) };
                self.root.prepare(&mut self.tree, &self.config, &mut self.rng, self.full, planned);
            }
            match self.descend(batch) {
                Descent::Leaf => added += 1,
                Descent::Terminal => ended += 1,
                Descent::Wait => break,
                Descent::Collision => {
                    collisions += 1;
                    if self.tree[ROOT].kind == NodeKind::Pending {
                        break;
                    }
                }
            }
        }
        added
    }

    /// One descent from the root.
    fn descend(&mut self, batch: &mut Batch<G>) -> Descent {
        self.path.clear();
        let mut node = ROOT;
        loop {
            self.path.push(node as u32);
            self.tree[node].in_flight += 1;
            let proven = if node == ROOT { None } else { self.tree[node].proof.outcome() };
            if let Some((value, draw)) = proven {
                // A proven position (the game's end among them) is not searched again: the
                // simulation backs up its result. Revisiting it while leaves wait for the
                // evaluator would be chosen only because virtual loss hides the waiting
                // moves: a move that loses at once would soak up the whole budget (and the
                // policy target). It counts as a collision instead, and is visited again
                // after the batch.
                if !self.pending.is_empty() {
                    self.undo_descent();
                    return Descent::Collision;
                }
                self.finish_simulation(value, draw);
                return Descent::Terminal;
            }
            let child = match self.tree[node].kind {
                NodeKind::Decision => match self.select_move(node) {
                    Some(child) => child,
                    None => {
                        self.undo_descent();
                        return Descent::Wait;
                    }
                },
                NodeKind::Chance => select::chance(&self.tree, node),
                NodeKind::Terminal => unreachable!("the game's end is proven, and the root's is never descended"),
                NodeKind::Pending => {
                    self.undo_descent();
                    return Descent::Collision;
                }
                NodeKind::New => break,
            };
            node = self.tree[node].first_child as usize + child;
        }
        // A node never reached: replay the game along the path.
        let game = batch.next_slot(&self.game);
        for &i in &self.path[1..] {
            match self.tree[i as usize].edge {
                Edge::Move(mv) => game.play(mv),
                Edge::Outcome(outcome) => game.apply_outcome(outcome),
                Edge::Root => unreachable!("only the root has no edge"),
            }
        }
        loop {
            if let Status::Over { winner, .. } = game.status() {
                let raw = winner.map_or(0.0, |w| if w == Player::First { 1.0 } else { -1.0 });
                let leaf = &mut self.tree[node];
                leaf.kind = NodeKind::Terminal;
                leaf.raw = raw;
                leaf.proof = Proof::of_result(winner);
                self.finish_simulation(raw, if winner.is_none() { 1.0 } else { 0.0 });
                return Descent::Terminal;
            }
            if !game.is_chance() {
                break;
            }
            // A chance point: its outcomes become children, and the descent goes on.
            game.chance_outcomes(&mut self.outcomes);
            self.tree.add_children(node, self.outcomes.iter().map(|&(o, p)| (Edge::Outcome(o), p)));
            self.tree[node].kind = NodeKind::Chance;
            let child = self.tree[node].first_child as usize + select::chance(&self.tree, node);
            let Edge::Outcome(outcome) = self.tree[child].edge else {
                unreachable!("a chance node's children are outcomes")
            };
            game.apply_outcome(outcome);
            node = child;
            self.path.push(node as u32);
            self.tree[node].in_flight += 1;
        }
        game.legal_moves(&mut self.moves);
        let winning_move = game.winning_move(&self.moves).map(|i| i as u32);
        let mover = game.to_move();
        let leaf = &mut self.tree[node];
        leaf.kind = NodeKind::Pending;
        leaf.mover = mover;
        let entry = batch.commit(&self.moves) as u32;
        let start = self.paths.len() as u32;
        self.paths.extend_from_slice(&self.path);
        let path = (start, self.paths.len() as u32);
        self.pending.push(Pending { node: node as u32, entry, path, winning_move });
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        Descent::Leaf
    }

    /// Takes back the visits in flight of the descent along `self.path`.
    fn undo_descent(&mut self) {
        for &i in &self.path {
            self.tree[i as usize].in_flight -= 1;
        }
    }

    /// The child to follow at decision node `node` (`None`: wait for the evaluator).
    #[inline]
    fn select_move(&mut self, node: usize) -> Option<usize> {
        let gumbel = self.config.root == RootSelection::Gumbel;
        if node == ROOT {
            if gumbel {
                return self.root.select_gumbel(&self.tree, &self.config, &mut self.scratch);
            }
            let forced = self.root.forced.then_some(self.config.forced_playouts_k);
            return Some(select::puct(&self.tree, node, &self.config, self.config.fpu_reduction_root, forced));
        }
        Some(if gumbel {
            gumbel::select_inner(&self.tree, node, &self.config, &mut self.scratch)
        } else {
            select::puct(&self.tree, node, &self.config, self.config.fpu_reduction, None)
        })
    }

    /// Backs up a terminal simulation along `self.path`.
    fn finish_simulation(&mut self, value: f32, draw: f32) {
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        let path = std::mem::take(&mut self.path);
        self.backup(&path, value, draw);
        self.path = path;
        self.done += 1;
    }

    /// Expands the leaves of this search in `batch` with their evaluations and backs
    /// them up.
    pub fn apply(&mut self, batch: &Batch<G>) {
        let pending = std::mem::take(&mut self.pending);
        let paths = std::mem::take(&mut self.paths);
        for leaf in &pending {
            let (node, entry) = (leaf.node as usize, leaf.entry as usize);
            let wdl = batch.value(entry);
            // An evaluator's nonsense (NaN, infinities) counts as a draw rather than
            // poisoning every sum above it.
            let wdl = if [wdl.win, wdl.draw, wdl.loss].iter().all(|x| x.is_finite()) { wdl } else { Wdl::DRAW };
            let wdl = if leaf.winning_move.is_some() { Wdl::WIN } else { wdl };
            let wdl = wdl.for_first(self.tree[node].mover);
            let one_hot: Vec<f32>;
            let priors = match leaf.winning_move {
                Some(win) => {
                    one_hot =
                        (0..batch.moves(entry).len()).map(|i| if i == win as usize { 1.0 } else { 0.0 }).collect();
                    &one_hot[..]
                }
                None => batch.priors(entry),
            };
            let total: f32 = priors.iter().filter(|p| p.is_finite() && **p > 0.0).sum();
            let uniform = 1.0 / priors.len().max(1) as f32;
            let normalized = priors.iter().map(|&p| {
                if total > 0.0 {
                    if p.is_finite() && p > 0.0 {
                        p / total
                    } else {
                        0.0
                    }
                } else {
                    uniform
                }
            });
            self.tree.add_children(node, batch.moves(entry).iter().map(|&mv| Edge::Move(mv)).zip(normalized));
            let n = &mut self.tree[node];
            n.kind = NodeKind::Decision;
            n.raw = wdl.value();
            if leaf.winning_move.is_some() {
                n.proof = Proof::Win { winner: n.mover, plies: 1 };
            }
            self.backup(&paths[leaf.path.0 as usize..leaf.path.1 as usize], wdl.value(), wdl.draw);
            // The root's own evaluation is not one of the search's simulations (as in
            // `mctx`): Sequential Halving shares them among the root's children.
            if node != ROOT {
                self.done += 1;
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.paths = paths;
        self.paths.clear();
    }

    /// Adds a simulation's value (from `First`'s view) and draw probability to the nodes
    /// of `path`, ending each one's visit in flight (a proven node adds its result in
    /// their place, and so do the nodes above it); then proves what the simulation's end
    /// settles above it.
    fn backup(&mut self, path: &[u32], value: f32, draw: f32) {
        self.add_along(path, value as f64, draw as f64, true);
        self.prove_up(path);
    }

    /// Adds `dw` and `dd` to the sums of the nodes of `path`, from its end up, as one
    /// more visit of each (`visit`) or as a correction of the visits they have (stopping
    /// at a proven node, whose sums are exact). A chance node passes on the change of
    /// its expectation.
    fn add_along(&mut self, path: &[u32], mut dw: f64, mut dd: f64, visit: bool) {
        for &i in path.iter().rev() {
            let i = i as usize;
            let node = &mut self.tree[i];
            if let Some((value, draw)) = node.proof.outcome() {
                if !visit {
                    return;
                }
                (dw, dd) = (value as f64, draw as f64);
            }
            if visit {
                node.in_flight -= 1;
                node.visits += 1;
            }
            if node.kind != NodeKind::Chance {
                node.w += dw;
                node.d += dd;
                continue;
            }
            // Σ p·Q over the visited outcomes, renormalized over them.
            let (mut p, mut q, mut d) = (0.0f64, 0.0f64, 0.0f64);
            for child in self.tree.children(i) {
                if child.visits > 0 {
                    let prior = child.prior as f64;
                    p += prior;
                    q += prior * child.w / child.visits as f64;
                    d += prior * child.d / child.visits as f64;
                }
            }
            let node = &mut self.tree[i];
            let visits = node.visits as f64;
            let (w, dsum) = (visits * q / p, visits * d / p);
            dw = w - node.w;
            dd = dsum - node.d;
            node.w = w;
            node.d = dsum;
        }
    }

    /// The MCTS-solver's step up `path` once its end is proven: a decision node is won for
    /// its mover as soon as one child is, and settled at its best child's result (the
    /// longest loss among losses) once every child is proven. A newly proven node's sums
    /// are made exact (as if every visit had backed up its result), and the change is
    /// carried to the nodes above.
    fn prove_up(&mut self, path: &[u32]) {
        let Some(&end) = path.last() else { return };
        if self.tree[end as usize].proof == Proof::Open {
            return;
        }
        for k in (0..path.len() - 1).rev() {
            let i = path[k] as usize;
            if self.tree[i].proof != Proof::Open {
                return;
            }
            let Some(proof) = self.settled(i) else { return };
            let (value, draw) = proof.outcome().expect("settled");
            let node = &mut self.tree[i];
            let visits = node.visits as f64;
            let dw = visits * value as f64 - node.w;
            let dd = visits * draw as f64 - node.d;
            node.w += dw;
            node.d += dd;
            node.proof = proof;
            self.add_along(&path[..k], dw, dd, false);
        }
    }

    /// What the children of decision node `i` prove of it, if anything.
    fn settled(&self, i: usize) -> Option<Proof> {
        let node = &self.tree[i];
        if node.kind != NodeKind::Decision {
            return None;
        }
        let mover = node.mover;
        let children = self.tree.children(i);
        let best = children.iter().map(|c| c.proof).max_by_key(|proof| proof.preference(mover))?;
        let settled = best.is_win_for(mover) || children.iter().all(|c| c.proof != Proof::Open);
        settled.then(|| best.one_ply_before())
    }
}
