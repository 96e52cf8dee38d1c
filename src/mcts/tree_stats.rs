//! Inspecting a search tree from outside, and checking that its statistics add up.

use super::node::{Edge, Node, NodeKind};
use super::search::Search;
use super::tree::ROOT;
use crate::game::Game;

impl<G: Game> Search<G> {
    /// The node reached from the root along `path` (`None` if the tree has no such node).
    pub fn node(&self, path: &[Edge<G::Move, G::Outcome>]) -> Option<&Node<G::Move, G::Outcome>> {
        let mut node = ROOT;
        for &edge in path {
            node = self.tree[node].child_range().find(|&i| self.tree[i].edge == edge)?;
        }
        Some(&self.tree[node])
    }

    /// The children of the node reached along `path` (empty if there is none).
    pub fn children(&self, path: &[Edge<G::Move, G::Outcome>]) -> &[Node<G::Move, G::Outcome>] {
        match self.node(path) {
            Some(node) => self.tree.children_of(node),
            None => &[],
        }
    }

    /// Checks every node: no visit left in flight; a decision node's visits are its
    /// evaluation plus its children's, and its value sum its evaluation plus theirs (a
    /// proven one's: more visits, and its result at every visit); a
    /// chance node's visits are its outcomes', and its value `visits · Σ p·Q` over the
    /// visited outcomes (renormalized). Returns the first discrepancy found.
    pub fn validate(&self) -> Result<(), String> {
        let tolerance = |x: f64| 1e-6 * x.abs().max(1.0);
        for i in 0..self.tree.len() {
            let node = &self.tree[i];
            if node.in_flight != 0 {
                return Err(format!("node {i}: {} visits still in flight", node.in_flight));
            }
            let children = self.tree.children(i);
            let visits: u32 = children.iter().map(|c| c.visits).sum();
            match node.kind {
                NodeKind::Decision => {
                    // A proven node takes visits of its own, not passed to its children.
                    let (w, visits_add_up) = match node.proof.outcome() {
                        Some((value, _)) => (value as f64 * node.visits as f64, node.visits > visits),
                        None => {
                            (node.raw as f64 + children.iter().map(|c| c.w).sum::<f64>(), node.visits == visits + 1)
                        }
                    };
                    if !visits_add_up {
                        return Err(format!("decision node {i}: {} visits, children {visits} + 1", node.visits));
                    }
                    if (node.w - w).abs() > tolerance(w) * node.visits as f64 {
                        return Err(format!("decision node {i}: value sum {} but evaluation + children {w}", node.w));
                    }
                }
                NodeKind::Chance => {
                    let (mut p, mut q) = (0.0, 0.0);
                    for c in children.iter().filter(|c| c.visits > 0) {
                        p += c.prior as f64;
                        q += c.prior as f64 * c.w / c.visits as f64;
                    }
                    if node.visits != visits {
                        return Err(format!("chance node {i}: {} visits, outcomes {visits}", node.visits));
                    }
                    let expected = node.visits as f64 * q / p;
                    if node.visits > 0 && (node.w - expected).abs() > tolerance(expected) {
                        return Err(format!("chance node {i}: value sum {} but visits · Σp·Q = {expected}", node.w));
                    }
                }
                NodeKind::Pending => return Err(format!("node {i} still waits for the evaluator")),
                NodeKind::New | NodeKind::Terminal => {
                    if node.visits > 0 && node.kind == NodeKind::New {
                        return Err(format!("node {i}: visited but never expanded"));
                    }
                }
            }
        }
        Ok(())
    }
}
