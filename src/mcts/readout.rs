//! Reading a search's [`SearchResult`] out of its tree — the policy target for training
//! (visits pruned of forced playouts, or Gumbel's improved policy), the root's value, the
//! principal variation, the MultiPV lines — and the move to play under the temperature
//! schedule.

use rand::Rng;

use super::config::RootSelection;
use super::evaluator::Wdl;
use super::gumbel;
use super::node::{Edge, Node, NodeKind, Proof};
use super::search::Search;
use super::search_result::{MoveStats, SearchResult};
use super::select;
use super::tree::ROOT;
use crate::game::{Game, Player};

/// A node's W/D/L estimate from `player`'s view.
fn wdl<M, O>(node: &Node<M, O>, player: Player) -> Wdl {
    let first = if node.visits == 0 {
        Wdl::from_value(node.raw)
    } else {
        let n = node.visits as f64;
        let (q, draw) = ((node.w / n) as f32, ((node.d / n) as f32).clamp(0.0, 1.0));
        Wdl { win: ((1.0 - draw + q) / 2.0).max(0.0), draw, loss: ((1.0 - draw - q) / 2.0).max(0.0) }
    };
    first.for_first(player)
}

fn result<G: Game>(search: &mut Search<G>) -> SearchResult<G::Move> {
    let mover = search.game().to_move();
    let expanded = search.tree[ROOT].kind == NodeKind::Decision;
    let policy = if expanded { policy_target(search) } else { Vec::new() };
    let tree = &search.tree;
    let root = &tree[ROOT];
    let moves: Vec<MoveStats<G::Move>> = if expanded {
        tree.children(ROOT)
            .iter()
            .enumerate()
            .map(|(i, child)| MoveStats {
                mv: match child.edge {
                    Edge::Move(mv) => mv,
                    _ => unreachable!("a decision node's children are moves"),
                },
                prior: search.root.clean.get(i).copied().unwrap_or(child.prior),
                visits: child.visits,
                q: child.q(mover),
                policy: policy[i],
            })
            .collect()
    } else {
        Vec::new()
    };
    let wdl = wdl(root, mover);
    SearchResult {
        best: most_visited(tree, ROOT).map(|i| moves[i].mv),
        moves,
        value: wdl.value(),
        wdl,
        simulations: search.simulations(),
        visits: root.visits,
        full: search.full,
        pv: principal_variation(search),
        depth: search.max_depth(),
        proven_end: match root.proof {
            Proof::Win { winner, plies } => Some(if winner == mover { plies as i32 } else { -(plies as i32) }),
            _ => None,
        },
    }
}

/// The best child of decision node `node`: the shortest proven win, else the most
/// visited (ties: the better Q for the mover, then the larger prior), proven losses last.
fn most_visited<M: Copy, O: Copy>(tree: &super::tree::Tree<M, O>, node: usize) -> Option<usize> {
    if tree[node].kind != NodeKind::Decision {
        return None;
    }
    let mover = tree[node].mover;
    tree.children(node).iter().enumerate().max_by(|(_, a), (_, b)| by_visits(a, b, mover)).map(|(i, _)| i)
}

/// How two children of a node rank for `mover`: proven wins first (the shortest first)
/// and proven losses last (the longest first), then by visits, Q and prior.
fn by_visits<M, O>(a: &Node<M, O>, b: &Node<M, O>, mover: Player) -> std::cmp::Ordering {
    let key = |c: &Node<M, O>| (c.proof.preference(mover), c.visits, c.q(mover).unwrap_or(-2.0), c.prior);
    key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal)
}

fn principal_variation<G: Game>(search: &Search<G>) -> Vec<G::Move> {
    line_below(search, ROOT)
}

/// The lines of the `count` most visited root moves (ordered as the principal variation
/// chooses), each with its mean value from the mover's view: the search's MultiPV.
fn root_lines<G: Game>(search: &Search<G>, count: usize) -> Vec<(f32, Vec<G::Move>)> {
    let tree = &search.tree;
    if tree[ROOT].kind != NodeKind::Decision {
        return Vec::new();
    }
    let mover = tree[ROOT].mover;
    let first = tree[ROOT].first_child as usize;
    let mut order: Vec<usize> = (0..tree.children(ROOT).len()).filter(|&i| tree[first + i].visits > 0).collect();
    order.sort_by(|&a, &b| by_visits(&tree[first + b], &tree[first + a], mover));
    order
        .into_iter()
        .take(count)
        .filter_map(|i| {
            let child = &tree[first + i];
            let Edge::Move(mv) = child.edge else { return None };
            let mut line = vec![mv];
            line.extend(line_below(search, first + i));
            Some((child.q(mover).unwrap_or(0.0), line))
        })
        .collect()
}

/// The most visited line below `node`.
fn line_below<G: Game>(search: &Search<G>, node: usize) -> Vec<G::Move> {
    let tree = &search.tree;
    let mut pv = Vec::new();
    let mut node = node;
    while let Some(i) = most_visited(tree, node) {
        let child = tree[node].first_child as usize + i;
        if tree[child].visits == 0 {
            break;
        }
        if let Edge::Move(mv) = tree[child].edge {
            pv.push(mv);
        }
        node = child;
    }
    pv
}

/// The training target over the root's children: Gumbel's improved policy, or the visit
/// distribution, pruned of forced playouts when they were on.
fn policy_target<G: Game>(search: &mut Search<G>) -> Vec<f32> {
    let tree = &search.tree;
    let children = tree.children(ROOT);
    let mut target: Vec<f32> = match search.config.root {
        RootSelection::Gumbel => {
            let [sigma, policy] = &mut search.scratch;
            gumbel::sigma_completed_q(tree, ROOT, &search.config, None, sigma);
            gumbel::improved_policy(children, sigma, policy);
            return policy.clone();
        }
        RootSelection::Puct => children.iter().map(|c| c.visits as f32).collect(),
    };
    if search.root.forced {
        prune_forced_playouts(tree, &search.config, &mut target);
    }
    let total: f32 = target.iter().sum();
    if total > 0.0 {
        target.iter_mut().for_each(|t| *t /= total);
    } else {
        let uniform = 1.0 / target.len().max(1) as f32;
        target.iter_mut().for_each(|t| *t = uniform);
    }
    target
}

/// KataGo's policy target pruning: from every child but the most visited, takes away up
/// to its forced playouts `√(k·P·N)` as long as its PUCT value stays below the best
/// child's; a child left with a single visit is dropped.
fn prune_forced_playouts<M: Copy, O: Copy>(
    tree: &super::tree::Tree<M, O>,
    config: &super::SearchConfig,
    visits: &mut [f32],
) {
    let Some(best) = most_visited(tree, ROOT) else { return };
    let mover = tree[ROOT].mover;
    let children = tree.children(ROOT);
    let total: f32 = visits.iter().sum();
    let explore = select::c_puct(config, total) * total.max(1.0).sqrt();
    let puct = |c: &Node<M, O>, n: f32| c.q(mover).unwrap_or(0.0) + explore * c.prior / (1.0 + n);
    let best_puct = puct(&children[best], visits[best]);
    for (i, child) in children.iter().enumerate() {
        if i == best || visits[i] == 0.0 {
            continue;
        }
        let forced = (config.forced_playouts_k * child.prior * total).sqrt().floor();
        let q = child.q(mover).unwrap_or(0.0);
        let gap = best_puct - q;
        // The fewest visits keeping PUCT(child) < PUCT(best).
        let fewest = if gap > 0.0 { (explore * child.prior / gap - 1.0).ceil().max(0.0) } else { visits[i] };
        let kept = (visits[i] - forced).max(fewest).min(visits[i]);
        visits[i] = if kept <= 1.0 { 0.0 } else { kept };
    }
}

impl<G: Game> Search<G> {
    /// The result of the search so far: per-move statistics, the training target and
    /// the root's value. (Does not choose a move: see [`Search::choose_move`].)
    pub fn result(&mut self) -> SearchResult<G::Move> {
        result(self)
    }

    /// The lines of the `count` most visited root moves, the best first, each with its
    /// mean value from the mover's view (MultiPV).
    pub fn root_lines(&self, count: usize) -> Vec<(f32, Vec<G::Move>)> {
        root_lines(self, count)
    }

    /// The move to play after the search at `ply` plies into the game: the proof's where
    /// the root is proven, else Gumbel's Sequential Halving winner, or (PUCT) a draw in
    /// proportion to the policy target raised to `1/T` for the temperature `T` of the
    /// schedule — the most visited move at `T` = 0. `None` when the root has no move.
    pub fn choose_move(&mut self, ply: usize) -> Option<G::Move> {
        if self.tree[ROOT].kind != NodeKind::Decision {
            return None;
        }
        // A proven result is played out as the proof says (the shortest win, the longest
        // loss), whatever the root's rule and temperature.
        let index = if self.tree[ROOT].proof != Proof::Open {
            most_visited(&self.tree, ROOT)?
        } else {
            self.chosen_index(ply)?
        };
        match self.tree.children(ROOT)[index].edge {
            Edge::Move(mv) => Some(mv),
            _ => None,
        }
    }

    /// The root child [`Self::choose_move`] plays where the root is not proven, by the
    /// root's rule. `None` when the root has no move.
    fn chosen_index(&mut self, ply: usize) -> Option<usize> {
        Some(match self.config.root {
            RootSelection::Gumbel => {
                if !self.root.ready {
                    // No simulation ran on this root (a full tree): no Gumbel draws yet.
                    self.root.prepare(&mut self.tree, &self.config, &mut self.rng, false, 0);
                }
                let [sigma, _] = &mut self.scratch;
                self.root.gumbel_choice(&self.tree, &self.config, sigma)?
            }
            RootSelection::Puct => {
                let temperature = self.config.temperature_at(ply);
                if temperature < 1e-3 {
                    most_visited(&self.tree, ROOT)?
                } else {
                    let target = policy_target(self);
                    let top = target.iter().copied().fold(0.0, f32::max);
                    let mut weights: Vec<f64> = target
                        .iter()
                        .map(|&t| if t > 0.0 { ((t / top) as f64).powf(1.0 / temperature as f64) } else { 0.0 })
                        .collect();
                    // Never draw a move the search has proven lost (a repetition under
                    // `repeater-loses`, say) while another move is there.
                    let mover = self.tree[ROOT].mover;
                    let lost: Vec<bool> = self.tree.children(ROOT).iter().map(|c| c.proof.is_loss_for(mover)).collect();
                    if weights.iter().zip(&lost).any(|(&w, &lost)| w > 0.0 && !lost) {
                        weights.iter_mut().zip(&lost).filter(|(_, &lost)| lost).for_each(|(w, _)| *w = 0.0);
                    }
                    let total: f64 = weights.iter().sum();
                    let mut pick = self.rng.random::<f64>() * total;
                    let mut chosen = weights.iter().rposition(|&w| w > 0.0)?;
                    for (i, w) in weights.iter().enumerate() {
                        if pick < *w {
                            chosen = i;
                            break;
                        }
                        pick -= w;
                    }
                    chosen
                }
            }
        })
    }
}
