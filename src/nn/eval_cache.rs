//! The net's answers kept by position (lc0's NN cache): a position met again — a
//! transposition in the tree, the quiet end of an exchange that other leaves settle into
//! too, the opening plies of a worker's other games — is answered without a forward pass.
//!
//! A position is known by a 64-bit fingerprint of exactly what the net is given and asked:
//! its encoded planes and its legal moves' labels in order. The net's outputs are a
//! function of its input alone (every precision quantizes each position on its own), so
//! an answer from the cache is the one the forward pass would give.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use foldhash::quality::FixedState;

use crate::mcts::Wdl;

/// Positions kept; the cache starts afresh when it holds this many (about 13 MB with
/// Xiangqi's 40 or so legal moves a position): the last few hundred moves of a worker's
/// games, each searched to 400 simulations at most.
const CAPACITY: usize = 1 << 16;

/// One position's answer: its value and its legal moves' priors, in the batch's order.
#[derive(Clone, Debug)]
pub(super) struct Answer {
    pub wdl: Wdl,
    pub priors: Box<[f32]>,
}

/// The net's recent answers by fingerprint.
#[derive(Clone, Debug, Default)]
pub(super) struct EvalCache {
    answers: HashMap<u64, Answer, FixedState>,
}

impl EvalCache {
    /// The fingerprint of a position given to the net as `planes`, asked about the moves of
    /// `labels`.
    pub fn key(planes: &[f32], labels: &[usize]) -> u64 {
        let mut hasher = FixedState::with_seed(0).build_hasher();
        // SAFETY: an f32 has no padding and a byte no alignment: the planes' bytes as they lie.
        let bytes = unsafe { std::slice::from_raw_parts(planes.as_ptr().cast::<u8>(), size_of_val(planes)) };
        hasher.write(bytes);
        hasher.write_usize(labels.len());
        for &label in labels {
            hasher.write_usize(label);
        }
        hasher.finish()
    }

    /// The answer kept for `key`, if any.
    pub fn get(&self, key: u64) -> Option<&Answer> {
        self.answers.get(&key)
    }

    /// Keeps `key`'s answer (forgetting every other one first when the cache is full).
    pub fn insert(&mut self, key: u64, wdl: Wdl, priors: &[f32]) {
        if self.answers.len() >= CAPACITY {
            self.answers.clear();
        }
        self.answers.insert(key, Answer { wdl, priors: priors.into() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_known_by_every_plane_value_and_its_moves_in_order() {
        let planes = vec![0.0f32; 17 * 90];
        let key = EvalCache::key(&planes, &[3, 7]);
        assert_eq!(key, EvalCache::key(&planes.clone(), &[3, 7]));
        let mut one_more_ply = planes.clone();
        one_more_ply[15 * 90 + 4] = 1.0 / 120.0;
        assert_ne!(key, EvalCache::key(&one_more_ply, &[3, 7]));
        assert_ne!(key, EvalCache::key(&planes, &[7, 3]));
        assert_ne!(key, EvalCache::key(&planes, &[3, 7, 8]));
    }

    #[test]
    fn a_full_cache_starts_afresh() {
        let mut cache = EvalCache::default();
        for key in 0..CAPACITY as u64 {
            cache.insert(key, Wdl::DRAW, &[1.0]);
        }
        assert!(cache.get(0).is_some() && cache.answers.len() == CAPACITY);
        cache.insert(u64::MAX, Wdl::WIN, &[0.25, 0.75]);
        assert!(cache.get(0).is_none());
        let answer = cache.get(u64::MAX).expect("the newest answer is kept");
        assert_eq!((answer.wdl, &answer.priors[..]), (Wdl::WIN, &[0.25, 0.75][..]));
    }
}
