//! Training samples, column by column as a shard stores them: each position's planes
//! packed to bits, its search policy sparse over the legal moves' labels, and its targets.
//!
//! The encoders write two kinds of planes: binary ones (pieces) and constant ones (rule
//! counters, the all-ones plane). A plane is stored as one bit per cell plus one float:
//! a cell's value is 1 where its bit is set, else the plane's float — so a binary plane
//! has float 0 and a constant plane has no bit set and its value as the float.

use crate::nn::Encoding;

/// Floats per sample in [`Samples::targets`]: see [`Targets`].
pub const TARGET_COLUMNS: usize = 9;

/// The sizes samples of one game have.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SampleShape {
    /// Input planes.
    pub planes: usize,
    /// Cells of a plane.
    pub cells: usize,
    /// Policy labels.
    pub policy_size: usize,
}

impl SampleShape {
    /// The shape of game `G`'s samples.
    pub fn of<G: Encoding>() -> SampleShape {
        SampleShape { planes: G::PLANES, cells: G::HEIGHT * G::WIDTH, policy_size: G::POLICY_SIZE }
    }

    /// Bytes of one plane's packed bits.
    pub fn plane_bytes(&self) -> usize {
        self.cells.div_ceil(8)
    }
}

/// What a sample teaches besides the policy, from the view of the player to move.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Targets {
    /// The game's final outcome: win, draw, loss (one of them 1); all 0 for a game cut
    /// off at the ply limit, whose result is unknown (the value loss ignores it).
    pub outcome: [f32; 3],
    /// The search's value at the root: win, draw, loss probabilities.
    pub root: [f32; 3],
    /// Whether the move was fully searched (playout-cap randomization); only those are
    /// policy targets.
    pub full: bool,
    /// Plies played before the position.
    pub ply: u32,
    /// The label of the opponent's reply (the next move played), seen from this side
    /// ([`Encoding::move_label`]): the auxiliary policy target (KataGo's). None after the
    /// game's last move.
    pub reply: Option<u16>,
}

impl Targets {
    /// The columns stored in a shard's `globalTargetsNC`: outcome (3), root value (3),
    /// full search (0 or 1), ply, the reply's label + 1 (0: none).
    pub fn to_columns(self) -> [f32; TARGET_COLUMNS] {
        let [w, d, l] = self.outcome;
        let [rw, rd, rl] = self.root;
        let reply = self.reply.map_or(0.0, |label| f32::from(label) + 1.0);
        [w, d, l, rw, rd, rl, f32::from(u8::from(self.full)), self.ply as f32, reply]
    }

    /// The targets of a shard's row of `globalTargetsNC`.
    pub fn from_columns(columns: &[f32]) -> Targets {
        Targets {
            outcome: [columns[0], columns[1], columns[2]],
            root: [columns[3], columns[4], columns[5]],
            full: columns[6] > 0.5,
            ply: columns[7] as u32,
            reply: (columns[8] >= 1.0).then(|| (columns[8] - 1.0) as u16),
        }
    }
}

/// Samples, stored column by column, and the number of games they were taken from.
#[derive(Clone, PartialEq, Debug)]
pub struct Samples {
    shape: SampleShape,
    /// The games these samples were taken from, each counted once, also a game none of
    /// whose moves became a sample (every one cheaply searched, without `record_cheap`).
    pub(super) games: u64,
    /// `[sample, plane, plane_bytes]` bits, cell `c` at bit `c % 8` of byte `c / 8`.
    pub(super) packed: Vec<u8>,
    /// `[sample, plane]`: each plane's value where its bit is clear.
    pub(super) globals: Vec<f32>,
    /// `[sample, TARGET_COLUMNS]`, see [`Targets::to_columns`].
    pub(super) targets: Vec<f32>,
    /// Policy entries per sample.
    pub(super) counts: Vec<u16>,
    /// The policy's labels, sample after sample.
    pub(super) labels: Vec<u16>,
    /// The policy's probabilities, aligned with `labels`.
    pub(super) probs: Vec<f32>,
    /// Where each sample's policy entries start in `labels` (one more than samples).
    pub(super) starts: Vec<usize>,
}

impl Samples {
    /// No samples of `shape`.
    pub fn new(shape: SampleShape) -> Samples {
        Samples {
            shape,
            games: 0,
            packed: Vec::new(),
            globals: Vec::new(),
            targets: Vec::new(),
            counts: Vec::new(),
            labels: Vec::new(),
            probs: Vec::new(),
            starts: vec![0],
        }
    }

    /// The sizes of these samples.
    pub fn shape(&self) -> SampleShape {
        self.shape
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// The number of games the samples were taken from.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Adds a sample: the encoder's `planes` (`planes × cells` floats, each plane binary
    /// or constant), the search `policy` as (label, probability) pairs, and `targets`.
    pub fn push(&mut self, planes: &[f32], policy: &[(usize, f32)], targets: Targets) {
        let SampleShape { planes: count, cells, policy_size } = self.shape;
        assert_eq!(planes.len(), count * cells, "a sample of {count} planes of {cells} cells");
        let bytes = self.shape.plane_bytes();
        for plane in planes.chunks_exact(cells) {
            let start = self.packed.len();
            self.packed.resize(start + bytes, 0);
            let constant = plane.iter().all(|&v| v == plane[0]);
            if constant && plane[0] != 1.0 {
                self.globals.push(plane[0]);
                continue;
            }
            assert!(plane.iter().all(|&v| v == 0.0 || v == 1.0), "an encoder plane neither binary nor constant");
            for (cell, &v) in plane.iter().enumerate() {
                if v == 1.0 {
                    self.packed[start + cell / 8] |= 1 << (cell % 8);
                }
            }
            self.globals.push(0.0);
        }
        self.targets.extend(targets.to_columns());
        for &(label, p) in policy {
            assert!(label < policy_size, "policy label {label} of {policy_size}");
            self.labels.push(label as u16);
            self.probs.push(p);
        }
        self.counts.push(policy.len() as u16);
        self.starts.push(self.labels.len());
    }

    /// Appends all of `other` (of the same shape).
    pub fn append(&mut self, other: &Samples) {
        assert_eq!(self.shape, other.shape, "samples of another shape");
        self.games += other.games;
        self.packed.extend_from_slice(&other.packed);
        self.globals.extend_from_slice(&other.globals);
        self.targets.extend_from_slice(&other.targets);
        self.counts.extend_from_slice(&other.counts);
        self.labels.extend_from_slice(&other.labels);
        self.probs.extend_from_slice(&other.probs);
        let offset = self.starts.pop().expect("starts holds a final end");
        self.starts.extend(other.starts.iter().map(|start| start + offset));
    }

    /// Writes sample `i`'s planes into `out` (`planes × cells` floats), as the encoder did.
    pub fn planes_into(&self, i: usize, out: &mut [f32]) {
        let SampleShape { planes, cells, .. } = self.shape;
        let bytes = self.shape.plane_bytes();
        let packed = &self.packed[i * planes * bytes..(i + 1) * planes * bytes];
        let globals = &self.globals[i * planes..(i + 1) * planes];
        for ((plane, bits), &global) in
            out[..planes * cells].chunks_exact_mut(cells).zip(packed.chunks_exact(bytes)).zip(globals)
        {
            for (cell, v) in plane.iter_mut().enumerate() {
                *v = if bits[cell / 8] >> (cell % 8) & 1 == 1 { 1.0 } else { global };
            }
        }
    }

    /// Sample `i`'s policy: its labels and their probabilities.
    pub fn policy(&self, i: usize) -> (&[u16], &[f32]) {
        let range = self.starts[i]..self.starts[i + 1];
        (&self.labels[range.clone()], &self.probs[range])
    }

    /// Sample `i`'s targets.
    pub fn targets(&self, i: usize) -> Targets {
        Targets::from_columns(&self.targets[i * TARGET_COLUMNS..(i + 1) * TARGET_COLUMNS])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_policy_and_targets_come_back_as_pushed() {
        let shape = SampleShape { planes: 3, cells: 10, policy_size: 20 };
        let mut samples = Samples::new(shape);
        let mut planes = vec![0.0; 30];
        planes[3] = 1.0;
        planes[9] = 1.0;
        planes[10..20].fill(0.25);
        planes[20..30].fill(1.0);
        let targets =
            Targets { outcome: [0.0, 1.0, 0.0], root: [0.2, 0.5, 0.3], full: true, ply: 17, reply: Some(2085) };
        samples.push(&planes, &[(4, 0.75), (19, 0.25)], targets);
        let mut other = Samples::new(shape);
        other.push(&[0.0; 30], &[(0, 1.0)], Targets::default());
        samples.append(&other);
        assert_eq!(samples.len(), 2);
        let mut out = vec![9.0; 30];
        samples.planes_into(0, &mut out);
        assert_eq!(out, planes);
        assert_eq!(samples.policy(0), (&[4u16, 19][..], &[0.75f32, 0.25][..]));
        assert_eq!(samples.targets(0), targets);
        samples.planes_into(1, &mut out);
        assert_eq!(out, vec![0.0; 30]);
        assert_eq!(samples.policy(1), (&[0u16][..], &[1.0f32][..]));
        assert_eq!(samples.targets(1), Targets::default());
    }
}
