//! The attention head's logits: each move label's from-square query against its
//! to-square key. Every query meets every key in one register-blocked product and the
//! labels' pairs are read from it — four times the multiplies of the 2 086 pairs alone on a
//! Xiangqi board, but no horizontal sum per pair, whose chain of adds had held the pairs
//! alone to a fifth of int8 self-play's time.

use super::kernels::{blocked_product, sized, Product, LANES};

/// One thread's scratch: a position's queries row by row, its keys dimension by
/// dimension, and every query's product with every key.
#[derive(Debug, Default)]
pub(super) struct AttentionScratch {
    queries: Vec<f32>,
    keys: Vec<f32>,
    products: Vec<f32>,
}

/// The logits of every position of `planes` (`[position, cell, 2·dim]`, `cells` cells a
/// position, each cell's query then its key) into `policy` (`[position, label]`): each
/// label's (from-cell, to-cell) in `label_cells`, its query·key over √dim.
pub(super) fn attention_logits(
    planes: &[f32],
    [cells, dim]: [usize; 2],
    label_cells: &[(u8, u8)],
    scratch: &mut AttentionScratch,
    policy: &mut [f32],
) {
    let scale = 1.0 / (dim as f32).sqrt();
    // Keys padded to whole registers, for `blocked_product`'s kernel.
    let width = cells.next_multiple_of(LANES);
    let queries = sized(&mut scratch.queries, cells * dim);
    let keys = sized(&mut scratch.keys, dim * width);
    keys.fill(0.0);
    let products = sized(&mut scratch.products, cells * width);
    let shape = Product { m: cells, k: dim, n: width, a_transposed: false, accumulate: false };
    for (planes, logits) in planes.chunks_exact(cells * 2 * dim).zip(policy.chunks_exact_mut(label_cells.len())) {
        for (cell, (values, query)) in planes.chunks_exact(2 * dim).zip(queries.chunks_exact_mut(dim)).enumerate() {
            query.copy_from_slice(&values[..dim]);
            for (d, &key) in values[dim..].iter().enumerate() {
                keys[d * width + cell] = key;
            }
        }
        blocked_product(shape, queries, keys, products);
        for (logit, &(from, to)) in logits.iter_mut().zip(label_cells) {
            *logit = scale * products[from as usize * width + to as usize];
        }
    }
}
