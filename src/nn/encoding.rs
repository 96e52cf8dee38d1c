//! What the network needs to know about a game: the input planes of a position, the
//! fixed set of policy labels its moves map to, and the board symmetries that carry
//! both along (for data augmentation).

use crate::game::Game;

/// A game as the network sees it. The input is `PLANES × HEIGHT × WIDTH` floats
/// (plane-major, then rows, then columns), the policy is `POLICY_SIZE` logits, one per
/// label, and symmetry `0` is the identity among `SYMMETRIES`.
pub trait Encoding: Game {
    /// Input planes per position.
    const PLANES: usize;
    /// Rows of a plane.
    const HEIGHT: usize;
    /// Columns of a plane.
    const WIDTH: usize;
    /// Policy labels: every move of every position maps to one of them.
    const POLICY_SIZE: usize;
    /// Board symmetries, the identity included.
    const SYMMETRIES: usize;
    /// Floats of one encoded position.
    const INPUT_SIZE: usize = Self::PLANES * Self::HEIGHT * Self::WIDTH;

    /// Writes the position's planes into `out` (`INPUT_SIZE` floats, all overwritten).
    fn encode(&self, out: &mut [f32]);

    /// The label of `mv`, a move of this position — or the opponent's reply to one, seen
    /// from this position's side (the reply policy's target): every label set here holds
    /// both sides' moves.
    fn move_label(&self, mv: Self::Move) -> usize;

    /// The move of this position that `label` stands for (its inverse on legal moves).
    fn label_move(&self, label: usize) -> Self::Move;

    /// The (from, to) plane cells (`row * WIDTH + column`) of every policy label, in
    /// label order: where each label's move starts and ends in the input's view.
    fn label_cells() -> &'static [(u8, u8)];

    /// Where symmetry `sym` sends the plane cell `cell` (`row * WIDTH + column`).
    fn symmetry_cell(sym: usize, cell: usize) -> usize;

    /// Where symmetry `sym` sends policy label `label`.
    fn symmetry_label(sym: usize, label: usize) -> usize;
}

/// Applies symmetry `sym` to encoded planes: `out` is the encoding of the transformed
/// position. Both slices hold `G::INPUT_SIZE` floats.
pub fn transform_planes<G: Encoding>(sym: usize, planes: &[f32], out: &mut [f32]) {
    let cells = G::HEIGHT * G::WIDTH;
    for (plane, target) in planes.chunks_exact(cells).zip(out.chunks_exact_mut(cells)) {
        for (cell, &value) in plane.iter().enumerate() {
            target[G::symmetry_cell(sym, cell)] = value;
        }
    }
}

/// Applies symmetry `sym` to a policy over labels (`G::POLICY_SIZE` floats each).
pub fn transform_policy<G: Encoding>(sym: usize, policy: &[f32], out: &mut [f32]) {
    for (label, &p) in policy.iter().enumerate() {
        out[G::symmetry_label(sym, label)] = p;
    }
}
