//! Our kernels' side of burn's `flex` tensors: their `f32` storage as a contiguous slice,
//! floats back into a tensor, and a tensor's values as floats.

use burn::backend::flex::{FlexTensor, Layout};
use burn::backend::{Bytes, DType, Shape, TensorMetadata};
use burn::tensor::Tensor;

/// The tensor, made contiguous where it is a view (a broadcast gradient, a transposed
/// input), when it holds `f32`; `None` for other dtypes, which our kernels leave to burn.
pub(crate) fn contiguous_f32(tensor: &FlexTensor) -> Option<FlexTensor> {
    (tensor.dtype() == DType::F32).then(|| tensor.to_contiguous())
}

/// A contiguous `f32` tensor of `shape` holding `floats`.
pub(crate) fn f32_tensor<const D: usize>(floats: Vec<f32>, shape: [usize; D]) -> FlexTensor {
    FlexTensor::new(Bytes::from_elems(floats), Layout::contiguous(Shape::new(shape)), DType::F32)
}

/// The dims of a tensor of rank `D`; `None` for another rank.
pub(crate) fn dims<const D: usize>(tensor: &FlexTensor) -> Option<[usize; D]> {
    let shape = tensor.shape();
    (shape.num_dims() == D).then(|| shape.dims::<D>())
}

/// The values of `tensor`, converted to `f32`, row-major.
pub(crate) fn floats<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().try_to_vec::<f32>().expect("converted to f32")
}
