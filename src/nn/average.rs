//! The mean of several nets of one shape: every weight and every batch-norm running
//! statistic averaged, tensor by tensor (stochastic weight averaging over snapshots).
//! A run publishes each generation's net so (`[train] average_generations`); why is in
//! docs/experiments.md.

use burn::store::bridge::{from_data, to_data};
use burn::store::ModuleSnapshot;
use burn::tensor::TensorData;

use super::model::Net;

/// Why nets could not be averaged: one line.
#[derive(Debug, thiserror::Error)]
#[error("cannot average the nets: {0}")]
pub struct AverageError(String);

impl Net {
    /// The mean of `first` and `others` (nets of `first`'s shape; another shape is an
    /// error): `first` with each of its tensors replaced by that tensor's mean over all.
    pub fn average(first: &Net, others: &[Net]) -> Result<Net, AverageError> {
        let mut tensors = first.collect(None, None, false);
        let mut sums: Vec<Vec<f64>> = tensors.iter().map(|tensor| vec![0.0; tensor.shape.num_elements()]).collect();
        for net in std::iter::once(first).chain(others) {
            if net.config != first.config {
                return Err(AverageError(format!("a net {} among nets {}", net.config, first.config)));
            }
            for (tensor, sum) in net.collect(None, None, false).iter().zip(&mut sums) {
                sum.iter_mut()
                    .zip(values(tensor).map_err(AverageError)?)
                    .for_each(|(sum, value)| *sum += f64::from(value));
            }
        }
        let count = (1 + others.len()) as f64;
        for (tensor, sum) in tensors.iter_mut().zip(sums) {
            let mean: Vec<f32> = sum.into_iter().map(|sum| (sum / count) as f32).collect();
            let data = TensorData::new(mean, tensor.shape.clone());
            *tensor = from_data(data, tensor.name.clone(), tensor.param_id);
        }
        let mut mean = first.clone();
        let applied = mean.apply(tensors, None, None, false);
        if !applied.errors.is_empty() {
            return Err(AverageError(format!("{:?}", applied.errors[0])));
        }
        Ok(mean)
    }
}

/// A collected tensor's values (every tensor of a net is f32), or why not, naming it.
pub(super) fn values(tensor: &burn::store::burn_pack::Tensor) -> Result<Vec<f32>, String> {
    let data = to_data(tensor).map_err(|e| format!("{}: {e}", tensor.name))?;
    data.try_into_vec::<f32>().map_err(|e| format!("{}: {e:?}", tensor.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::xiangqi::Xiangqi;
    use crate::nn::NetConfig;

    /// Every tensor of `net`, by name, as f32 values.
    fn tensors(net: &Net) -> Vec<(String, Vec<f32>)> {
        net.collect(None, None, false).iter().map(|t| (t.name.clone(), values(t).unwrap())).collect()
    }

    #[test]
    fn the_mean_of_nets_is_the_mean_of_each_of_their_tensors() {
        let device = burn::tensor::Device::default();
        let config = NetConfig::new::<Xiangqi>(1, 8);
        let nets: Vec<Net> = (0..3).map(|_| Net::new(config, &device)).collect();
        let mean = Net::average(&nets[0], &nets[1..]).unwrap();
        let parts: Vec<_> = nets.iter().map(tensors).collect();
        let averaged = tensors(&mean);
        assert_eq!(averaged.len(), parts[0].len());
        // The random nets differ, so a copy of any one of them would fail this.
        for (i, (name, values)) in averaged.iter().enumerate() {
            for (j, value) in values.iter().enumerate() {
                let expected = parts.iter().map(|p| p[i].1[j]).sum::<f32>() / 3.0;
                assert!((value - expected).abs() < 1e-6, "{name}[{j}]: {value} against {expected}");
            }
        }
        assert!(averaged.iter().any(|(name, _)| name.contains("running_var")), "statistics are averaged too");
    }

    #[test]
    fn nets_of_other_shapes_are_refused() {
        let device = burn::tensor::Device::default();
        let small = Net::new(NetConfig::new::<Xiangqi>(1, 8), &device);
        let wide = Net::new(NetConfig::new::<Xiangqi>(1, 16), &device);
        assert!(Net::average(&small, &[wide]).is_err());
    }
}
