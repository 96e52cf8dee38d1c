//! From the network's raw outputs to probabilities: the policy's softmax restricted to
//! the legal moves' labels, and the value head's win/draw/loss.

/// Writes into `out` the softmax of `logits` over the `legal` labels only: `out[i]` is
/// the probability of `legal[i]`, and illegal labels get nothing. Empty `legal` gives an
/// empty `out`.
pub fn masked_softmax(logits: &[f32], legal: &[usize], out: &mut Vec<f32>) {
    out.clear();
    out.extend(legal.iter().map(|&label| logits[label]));
    softmax_in_place(out);
}

/// Replaces `values` by their softmax (stable for large logits).
pub fn softmax_in_place(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    if sum > 0.0 {
        values.iter_mut().for_each(|v| *v /= sum);
    }
}

/// The value head's three logits (win, draw, loss for the side to move) as
/// probabilities, and the expected score `win − loss` in [−1, 1].
pub fn wdl(logits: [f32; 3]) -> ([f32; 3], f32) {
    let mut probabilities = logits;
    softmax_in_place(&mut probabilities);
    (probabilities, probabilities[0] - probabilities[2])
}
