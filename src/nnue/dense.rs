//! The small integer layers after the accumulator: 32 outputs, each the sum of uint8
//! inputs (0–127) times int8 weights in int32 — with AVX-512 VNNI (`vpdpbusd`), with
//! AVX2 (`vpmaddubsw` + `vpmaddwd`), or in plain Rust, all to the same integers. Groups
//! of four inputs that are all zero (common after the clipped ReLU) are skipped.

/// Outputs of each dense layer.
pub const OUTPUTS: usize = 32;
/// The most inputs a dense layer may have.
pub const MAX_INPUTS: usize = 512;

/// A dense layer's int8 weights, kept as the kernels read them: for each group of four
/// inputs, each output's four weights (`[inputs / 4][OUTPUTS][4]`).
#[derive(Clone, Debug, PartialEq)]
pub struct DenseWeights {
    packed: Vec<i8>,
    inputs: usize,
}

impl DenseWeights {
    /// Packs row-major weights `[OUTPUTS][inputs]` (`inputs` a multiple of 4, at most
    /// [`MAX_INPUTS`]).
    pub fn from_rows(rows: &[i8], inputs: usize) -> DenseWeights {
        assert!(inputs.is_multiple_of(4) && inputs <= MAX_INPUTS && rows.len() == OUTPUTS * inputs);
        let mut packed = vec![0i8; rows.len()];
        for o in 0..OUTPUTS {
            for i in 0..inputs {
                packed[((i / 4) * OUTPUTS + o) * 4 + i % 4] = rows[o * inputs + i];
            }
        }
        DenseWeights { packed, inputs }
    }

    /// The weights row-major again, `[OUTPUTS][inputs]`.
    pub fn rows(&self) -> Vec<i8> {
        let mut rows = vec![0i8; self.packed.len()];
        for o in 0..OUTPUTS {
            for i in 0..self.inputs {
                rows[o * self.inputs + i] = self.packed[((i / 4) * OUTPUTS + o) * 4 + i % 4];
            }
        }
        rows
    }

    /// `bias` plus the weights times `input` (`input.len()` the layer's inputs, each ≤ 127).
    #[inline]
    pub fn apply(&self, input: &[u8], bias: &[i32; OUTPUTS]) -> [i32; OUTPUTS] {
        assert_eq!(input.len(), self.inputs);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512vnni") && std::arch::is_x86_feature_detected!("avx512bw") {
                // SAFETY: the CPU has the features the function is compiled for; `from_rows`
                // checked `packed` for at most `MAX_INPUTS` inputs, and the input's length
                // is checked above.
                return unsafe { x86::apply_vnni(&self.packed, input, bias) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                return unsafe { x86::apply_avx2(&self.packed, input, bias) };
            }
        }
        self.apply_scalar(input, bias)
    }

    /// [`Self::apply`] in plain Rust (the fallback, and the tests' reference).
    pub fn apply_scalar(&self, input: &[u8], bias: &[i32; OUTPUTS]) -> [i32; OUTPUTS] {
        let mut out = *bias;
        for (group, x) in input.chunks_exact(4).enumerate() {
            if x == [0, 0, 0, 0] {
                continue;
            }
            let weights = &self.packed[group * OUTPUTS * 4..][..OUTPUTS * 4];
            for (o, w) in out.iter_mut().zip(weights.chunks_exact(4)) {
                *o += (0..4).map(|k| x[k] as i32 * w[k] as i32).sum::<i32>();
            }
        }
        out
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{MAX_INPUTS, OUTPUTS};

    /// The four inputs of `group` as one little-endian u32.
    #[inline(always)]
    fn group_of(input: &[u8], group: usize) -> i32 {
        i32::from_le_bytes(input[4 * group..4 * group + 4].try_into().expect("four bytes"))
    }

    /// The groups of four inputs that are not all zero are found sixteen at a time (a
    /// mask of the non-zero lanes, compressed to their numbers), and only those are
    /// multiplied, into four sets of sums in turn: each product then waits only on the one
    /// four groups before it, not on the last (a chain of one set is bound by the
    /// product's latency, several by its throughput).
    ///
    /// # Safety
    /// The CPU has AVX-512 F, BW and VNNI; `input` has at most [`MAX_INPUTS`] bytes, a
    /// multiple of 4, and `packed` is [`super::DenseWeights`]' packing of that many.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn apply_vnni(packed: &[i8], input: &[u8], bias: &[i32; OUTPUTS]) -> [i32; OUTPUTS] {
        let mut groups = [0u32; MAX_INPUTS / 4 + 16];
        let mut count = 0;
        let whole = input.len() / 64;
        let numbers = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        for chunk in 0..whole {
            let lanes = _mm512_loadu_si512(input.as_ptr().add(64 * chunk).cast());
            let nonzero = _mm512_test_epi32_mask(lanes, lanes);
            let chunk_numbers = _mm512_add_epi32(numbers, _mm512_set1_epi32(16 * chunk as i32));
            // Sixteen numbers are stored whatever the count: the array has room past the end.
            _mm512_storeu_si512(
                groups.as_mut_ptr().add(count).cast(),
                _mm512_maskz_compress_epi32(nonzero, chunk_numbers),
            );
            count += nonzero.count_ones() as usize;
        }
        for group in 16 * whole..input.len() / 4 {
            if group_of(input, group) != 0 {
                groups[count] = group as u32;
                count += 1;
            }
        }
        let zero = _mm512_setzero_si512();
        let mut sums = [[zero; 2]; 4];
        sums[0] = [_mm512_loadu_si512(bias.as_ptr().cast()), _mm512_loadu_si512(bias.as_ptr().add(16).cast())];
        let multiply = |sum: &mut [__m512i; 2], group: u32| {
            let group = group as usize;
            let x = _mm512_set1_epi32(group_of(input, group));
            let w = packed.as_ptr().add(group * OUTPUTS * 4);
            sum[0] = _mm512_dpbusd_epi32(sum[0], x, _mm512_loadu_si512(w.cast()));
            sum[1] = _mm512_dpbusd_epi32(sum[1], x, _mm512_loadu_si512(w.add(64).cast()));
        };
        let mut fours = groups[..count].chunks_exact(4);
        for four in &mut fours {
            for (sum, &group) in sums.iter_mut().zip(four) {
                multiply(sum, group);
            }
        }
        for (sum, &group) in sums.iter_mut().zip(fours.remainder()) {
            multiply(sum, group);
        }
        let mut out = [0i32; OUTPUTS];
        for (half, outputs) in out.chunks_exact_mut(16).enumerate() {
            let total = _mm512_add_epi32(
                _mm512_add_epi32(sums[0][half], sums[1][half]),
                _mm512_add_epi32(sums[2][half], sums[3][half]),
            );
            _mm512_storeu_si512(outputs.as_mut_ptr().cast(), total);
        }
        out
    }

    /// [`apply_vnni`]'s sums with AVX2 products, the groups that are all zero skipped one
    /// by one.
    ///
    /// # Safety
    /// The CPU has AVX2; `input` and `packed` as for [`apply_vnni`].
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply_avx2(packed: &[i8], input: &[u8], bias: &[i32; OUTPUTS]) -> [i32; OUTPUTS] {
        let mut sums = [_mm256_setzero_si256(); 4];
        for (k, sum) in sums.iter_mut().enumerate() {
            *sum = _mm256_loadu_si256(bias.as_ptr().add(8 * k).cast());
        }
        let ones = _mm256_set1_epi16(1);
        for group in 0..input.len() / 4 {
            let x = group_of(input, group);
            if x == 0 {
                continue;
            }
            let x = _mm256_set1_epi32(x);
            let w = packed.as_ptr().add(group * OUTPUTS * 4);
            for (k, sum) in sums.iter_mut().enumerate() {
                // u8 × i8 pairs summed in i16 (at most 2 × 127 × 128: no saturation), then
                // the pairs of pairs in i32.
                let pairs = _mm256_maddubs_epi16(x, _mm256_loadu_si256(w.add(32 * k).cast()));
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(pairs, ones));
            }
        }
        let mut out = [0i32; OUTPUTS];
        for (k, sum) in sums.iter().enumerate() {
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * k).cast(), *sum);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_kernel_gives_the_plain_sums() {
        let mut rng = StdRng::seed_from_u64(7);
        for inputs in [32, 512] {
            let rows: Vec<i8> = (0..OUTPUTS * inputs).map(|_| rng.random::<i8>()).collect();
            let weights = DenseWeights::from_rows(&rows, inputs);
            assert_eq!(weights.rows(), rows);
            let bias: [i32; OUTPUTS] = std::array::from_fn(|_| rng.random_range(-10000..=10000));
            // Inputs 0–127, about half of them zero, as after the clipped ReLU.
            let input: Vec<u8> =
                (0..inputs).map(|_| if rng.random::<bool>() { 0 } else { rng.random_range(0..128) }).collect();
            let plain: Vec<i32> = (0..OUTPUTS)
                .map(|o| bias[o] + (0..inputs).map(|i| input[i] as i32 * rows[o * inputs + i] as i32).sum::<i32>())
                .collect();
            assert_eq!(weights.apply_scalar(&input, &bias).to_vec(), plain);
            assert_eq!(weights.apply(&input, &bias).to_vec(), plain);
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2; the weights were packed for this input's length.
                    assert_eq!(unsafe { x86::apply_avx2(&weights.packed, &input, &bias) }.to_vec(), plain);
                }
            }
        }
    }
}
