//! The net as self-play's evaluator, as the generation loop, the self-play workers and
//! the speed probe all build it.

use burn::tensor::Device;

use super::config::Config;
use super::game::TrainableGame;
use crate::mcts::Guided;
use crate::nn::{Inference, Net, NetEvaluator, Precision};

/// The net as self-play's evaluator: `model`'s forward pass on `device` (on the CPU in
/// `config`'s self-play precision, [`Precision::for_self_play`]), with the rules' help that
/// `config`'s search asks for.
pub(super) fn net_evaluator<G: TrainableGame>(
    model: &Net,
    device: &Device,
    config: &Config,
) -> Guided<G, NetEvaluator<G>> {
    let precision = Precision::for_self_play(config.selfplay.precision);
    Guided::new(NetEvaluator::new(Inference::for_device_in(model, device, precision)), &config.search)
}
