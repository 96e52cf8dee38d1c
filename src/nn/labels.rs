//! A fixed set of policy labels over (from, to) square pairs: enumerated once, in
//! (from, to) order, from a rule saying which pairs any piece can ever make.

/// The labels of a board of `squares` squares: each included (from, to) pair gets the
/// next number in (from, to) order.
#[derive(Debug)]
pub(crate) struct PairLabels {
    squares: usize,
    /// The (from, to) pair of each label.
    pairs: Vec<(u8, u8)>,
    /// The label of pair `from * squares + to`, or `NONE`.
    index: Vec<u16>,
}

/// Marks a pair without a label in `PairLabels::index`.
const NONE: u16 = u16::MAX;

impl PairLabels {
    /// Labels every pair `(from, to)` of `squares` squares for which `include` holds.
    pub(crate) fn new(squares: usize, include: impl Fn(usize, usize) -> bool) -> PairLabels {
        let mut pairs = Vec::new();
        let mut index = vec![NONE; squares * squares];
        for from in 0..squares {
            for to in 0..squares {
                if include(from, to) {
                    index[from * squares + to] = pairs.len() as u16;
                    pairs.push((from as u8, to as u8));
                }
            }
        }
        PairLabels { squares, pairs, index }
    }

    /// How many labels there are.
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The label of (from, to), if that pair has one.
    #[inline]
    pub(crate) fn label(&self, from: usize, to: usize) -> Option<usize> {
        match self.index[from * self.squares + to] {
            NONE => None,
            label => Some(label as usize),
        }
    }

    /// The (from, to) pair of `label`.
    #[inline]
    pub(crate) fn pair(&self, label: usize) -> (usize, usize) {
        let (from, to) = self.pairs[label];
        (from as usize, to as usize)
    }

    /// The (from, to) pair of every label, in label order.
    pub(crate) fn pairs(&self) -> &[(u8, u8)] {
        &self.pairs
    }

    /// Where each label goes when every square is moved by `map` (a symmetry of the
    /// board that keeps the label set whole).
    pub(crate) fn permuted(&self, map: impl Fn(usize) -> usize) -> Vec<u16> {
        self.pairs
            .iter()
            .map(|&(from, to)| {
                let label = self.label(map(from as usize), map(to as usize));
                label.expect("the label set is closed under the board's symmetries") as u16
            })
            .collect()
    }
}
