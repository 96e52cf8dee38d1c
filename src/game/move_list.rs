//! A fixed-capacity list of moves on the stack, filled by the move generators.

use std::ops::{Deref, DerefMut};

/// Up to `N` moves of type `M`, without touching the heap.
#[derive(Clone)]
pub struct MoveList<M, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        MoveList { moves: [M::default(); N], len: 0 }
    }

    /// Empties the list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `mv`; the generator guarantees there is room.
    #[inline]
    pub(crate) fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<M, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];

    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M, const N: usize> DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}
