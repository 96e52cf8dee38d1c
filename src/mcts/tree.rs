//! The arena: every node of a search tree in one `Vec`, children of a node side by side,
//! the root at index 0. Tree reuse copies the subtree that stays into a second arena
//! (kept for the next time), so the arena never fragments.

use std::ops::{Index, IndexMut};

use super::node::{Edge, Node};

/// The nodes of one search tree.
#[derive(Clone, Debug)]
pub struct Tree<M, O> {
    nodes: Vec<Node<M, O>>,
    /// The arena the next [`Tree::retain`] copies into.
    spare: Vec<Node<M, O>>,
}

/// The index of the root.
pub const ROOT: usize = 0;

impl<M: Copy, O: Copy> Tree<M, O> {
    /// A tree of one unvisited root.
    pub fn new() -> Tree<M, O> {
        Tree { nodes: vec![Node::new(Edge::Root, 1.0)], spare: Vec::new() }
    }

    /// Forgets every node but a fresh root.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(Edge::Root, 1.0));
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Gives `parent` the children `edges` (edge, prior), side by side at the end.
    pub fn add_children(&mut self, parent: usize, edges: impl Iterator<Item = (Edge<M, O>, f32)>) {
        let first = self.nodes.len();
        self.nodes.extend(edges.map(|(edge, prior)| Node::new(edge, prior)));
        let count = self.nodes.len() - first;
        assert!(count <= u16::MAX as usize, "too many children");
        let node = &mut self.nodes[parent];
        node.first_child = first as u32;
        node.children = count as u16;
    }

    /// The children of `parent` as a slice.
    #[inline]
    pub fn children(&self, parent: usize) -> &[Node<M, O>] {
        &self.nodes[self.nodes[parent].child_range()]
    }

    /// The children of `node` as a slice.
    #[inline]
    pub fn children_of(&self, node: &Node<M, O>) -> &[Node<M, O>] {
        &self.nodes[node.child_range()]
    }

    /// Keeps only the subtree under `new_root`, which becomes the root (index 0); the
    /// nodes keep their order level by level, so siblings stay side by side.
    pub fn retain(&mut self, new_root: usize) {
        if new_root == ROOT {
            return;
        }
        let mut copy = std::mem::take(&mut self.spare);
        copy.clear();
        let mut root = self.nodes[new_root];
        root.edge = Edge::Root;
        copy.push(root);
        // Breadth first: `copy[next]` is a node whose children (still old indices) are
        // yet to be copied.
        let mut next = 0;
        while next < copy.len() {
            let range = copy[next].child_range();
            if !range.is_empty() {
                copy[next].first_child = copy.len() as u32;
                copy.extend_from_slice(&self.nodes[range]);
            }
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, copy);
    }
}

impl<M: Copy, O: Copy> Default for Tree<M, O> {
    fn default() -> Self {
        Tree::new()
    }
}

impl<M, O> Index<usize> for Tree<M, O> {
    type Output = Node<M, O>;

    #[inline]
    fn index(&self, i: usize) -> &Node<M, O> {
        &self.nodes[i]
    }
}

impl<M, O> IndexMut<usize> for Tree<M, O> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Node<M, O> {
        &mut self.nodes[i]
    }
}
