//! Helpers shared by the tests of our training kernels against burn's: random tensors,
//! and the comparison within 1e-4 of the reference's scale.
#![allow(dead_code)] // each test file uses some of these

use burn::tensor::{Device, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::Rng;

/// Uniform values in `[low, high)` as a tensor of `dims` on `device`.
pub fn random<const D: usize>(
    rng: &mut StdRng,
    dims: [usize; D],
    (low, high): (f32, f32),
    device: &Device,
) -> Tensor<D> {
    let values: Vec<f32> = (0..dims.iter().product()).map(|_| rng.random_range(low..high)).collect();
    Tensor::from_data(TensorData::new(values, dims), device)
}

/// Whether `ours` is `reference` within 1e-4 of the reference's scale: the largest
/// difference at most 1e-4 × max(1, largest |reference|); the error says by how much not.
pub fn close<const D: usize>(what: &str, ours: Tensor<D>, reference: Tensor<D>) -> Result<(), String> {
    if ours.dims() != reference.dims() {
        return Err(format!("{what}: dims {:?}, burn's {:?}", ours.dims(), reference.dims()));
    }
    let ours = ours.into_data().try_to_vec::<f32>().unwrap();
    let reference = reference.into_data().try_to_vec::<f32>().unwrap();
    let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let worst = ours.iter().zip(&reference).fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    if worst.is_nan() || worst > 1e-4 * scale {
        return Err(format!("{what}: off by {worst} at scale {scale}"));
    }
    Ok(())
}
