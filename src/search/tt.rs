//! The transposition table: a fixed-size array of 16-byte entries indexed by the
//! position's Zobrist hash, shared by both searches. Each entry keeps the full key, so a
//! probe that returns an entry returns one stored for this very position (short of a
//! 64-bit collision); moves from it are still checked against the legal moves before use.

use crate::game::square::Square;

/// A move from `from` to `to` as an entry keeps it (a board of at most 128 squares):
/// never 0, which stands for no move.
#[inline]
pub(crate) fn encode_move<const F: u8, const R: u8, const B: u8>(from: Square<F, R, B>, to: Square<F, R, B>) -> u16 {
    0x8000 | (from.index() as u16) << 7 | to.index() as u16
}

/// The squares (from, to) of a move kept by [`encode_move`], if it keeps one of this board.
#[inline]
pub(crate) fn decode_move<const F: u8, const R: u8, const B: u8>(
    code: u16,
) -> Option<(Square<F, R, B>, Square<F, R, B>)> {
    if code & 0x8000 == 0 {
        return None;
    }
    Some((Square::from_index((code >> 7 & 0x7F) as usize)?, Square::from_index((code & 0x7F) as usize)?))
}

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Bound {
    /// The search failed low: the true value is at most this.
    Upper = 1,
    /// The search failed high: the true value is at least this.
    Lower = 2,
    /// The true value (at this depth).
    Exact = 3,
}

impl Bound {
    /// What `best`, the value of a node searched with the window (`alpha`, `beta`), says
    /// of its true value.
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Default, Debug)]
#[repr(C)]
pub(crate) struct Entry {
    key: u64,
    /// The best move found, encoded by the game; 0 for none.
    pub mv: u16,
    value: i16,
    /// The depth searched below this node.
    pub depth: i8,
    bound: u8,
    generation: u8,
}

impl Entry {
    /// The stored value, as from the node (see `value_from_tt` for wins).
    #[inline]
    pub fn value(&self) -> i32 {
        self.value as i32
    }

    /// What the value bounds.
    #[inline]
    pub fn bound(&self) -> Bound {
        match self.bound {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }

    /// Whether the stored value decides a node searched to `depth` with window
    /// (`alpha`, `beta`): deep enough, and exact or a bound outside the window.
    #[inline]
    pub fn cuts(&self, value: i32, depth: i32, alpha: i32, beta: i32) -> bool {
        self.depth as i32 >= depth
            && match self.bound() {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            }
    }
}

/// The fewest entries a table has.
const MIN_ENTRIES: usize = 1024;

/// The entry count for a table of `wanted` entries: at least [`MIN_ENTRIES`], halved
/// while `grant` refuses it (below [`MIN_ENTRIES`] it is taken whatever `grant` says).
fn granted(wanted: usize, mut grant: impl FnMut(usize) -> bool) -> usize {
    let mut count = wanted.max(MIN_ENTRIES);
    while count > MIN_ENTRIES && !grant(count) {
        count = (count / 2).max(MIN_ENTRIES);
    }
    count
}

/// Asks Linux to back the memory reserved for `entries` with 2 MiB pages (before it is
/// touched): a probe anywhere in a table of many MiB then finds its page in the TLB instead
/// of walking the page tables, as Stockfish's table does.
fn advise_huge_pages(entries: &mut Vec<Entry>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = entries.as_mut_ptr() as usize;
        let end = start + entries.capacity() * std::mem::size_of::<Entry>();
        let first = start.next_multiple_of(HUGE_PAGE);
        if end >= first + HUGE_PAGE {
            // SAFETY: the range lies within the vector's own allocation, and the advice
            // changes how its pages are backed, never what they hold.
            unsafe {
                libc::madvise(first as *mut libc::c_void, (end - first) / HUGE_PAGE * HUGE_PAGE, libc::MADV_HUGEPAGE)
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}

/// A fixed-size table of entries.
pub(crate) struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` MiB (at least a thousand entries). A size the
    /// allocator refuses is halved until it is granted, instead of aborting the process.
    pub fn new(megabytes: usize) -> Table {
        let wanted = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Entry>();
        let mut entries = Vec::new();
        let count = granted(wanted, |count| entries.try_reserve_exact(count).is_ok());
        advise_huge_pages(&mut entries);
        entries.resize(count, Entry::default());
        Table { entries, generation: 0 }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to bring `key`'s entry into its cache, so that a probe a little later
    /// (after a move is made and its evaluation updated) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing the program sees; the index is in bounds.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(self.index(key)).cast());
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.index(key)];
        (entry.key == key && entry.bound != 0).then_some(entry)
    }

    /// Stores a result, replacing the entry in the slot unless it holds a deeper search
    /// of another position from this search, or a much deeper one of this position that
    /// the new result (a bound, not exact) would only make vaguer.
    #[inline]
    pub fn store(&mut self, key: u64, mv: u16, value: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let index = self.index(key);
        let slot = &mut self.entries[index];
        let depth = depth.clamp(-1, i8::MAX as i32) as i8;
        if slot.key == key {
            if bound != Bound::Exact && slot.depth as i32 > depth as i32 + 2 {
                // Keep the deeper result, still of use in this search.
                slot.generation = generation;
                return;
            }
        } else if slot.generation == generation && depth < slot.depth {
            return;
        }
        // Keep the old move when the new result found none.
        let mv = if mv == 0 && slot.key == key { slot.mv } else { mv };
        let value = value.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        *slot = Entry { key, mv, value, depth, bound: bound as u8, generation };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut table = Table::new(1);
        assert!(table.probe(42).is_none());
        table.store(42, 7, -150, 5, Bound::Lower);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.mv, entry.value(), entry.depth, entry.bound()), (7, -150, 5, Bound::Lower));
        assert!(entry.cuts(-150, 5, -200, -150));
        assert!(!entry.cuts(-150, 6, -200, -150));
        table.clear();
        assert!(table.probe(42).is_none());
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        let square = |index| crate::game::xiangqi::Square::from_index(index).unwrap();
        assert_eq!(decode_move(encode_move(square(89), square(0))), Some((square(89), square(0))));
        assert_eq!(decode_move(encode_move(square(0), square(0))), Some((square(0), square(0))));
        assert_eq!(decode_move::<9, 10, 0>(0), None);
        // A Banqi square's code is no Xiangqi move past Banqi's board.
        assert_eq!(decode_move::<4, 8, 1>(encode_move(square(89), square(0))), None);
    }

    /// A shallow bound does not overwrite a much deeper result for the same position; an
    /// exact result, or one not much shallower, does.
    #[test]
    fn shallow_bounds_keep_deep_results() {
        let mut table = Table::new(1);
        table.store(42, 7, 30, 9, Bound::Exact);
        table.store(42, 8, 10, 6, Bound::Upper);
        table.store(42, 8, 50, 3, Bound::Lower);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.mv, entry.value(), entry.depth, entry.bound()), (7, 30, 9, Bound::Exact));
        table.store(42, 0, 20, 7, Bound::Upper);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.mv, entry.value(), entry.depth, entry.bound()), (7, 20, 7, Bound::Upper));
        table.store(42, 9, 25, 1, Bound::Exact);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.mv, entry.value(), entry.depth, entry.bound()), (9, 25, 1, Bound::Exact));
    }

    /// A size the allocator refuses gives a smaller table, not an abort.
    #[test]
    fn refused_sizes_are_halved() {
        assert!(Vec::<Entry>::new().try_reserve_exact(usize::MAX / std::mem::size_of::<Entry>()).is_err());
        assert_eq!(granted(usize::MAX, |count| count <= 5000), usize::MAX >> 52);
        assert_eq!(granted(1 << 20, |_| true), 1 << 20);
        assert_eq!(granted(1 << 20, |_| false), MIN_ENTRIES);
        assert_eq!(granted(0, |_| false), MIN_ENTRIES);
        assert_eq!(Table::new(0).entries.len(), MIN_ENTRIES);
    }
}
