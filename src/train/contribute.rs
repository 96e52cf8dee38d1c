//! `selfplay --run DIR`: self-play alone for a run directory, with its newest net,
//! reloaded whenever the trainer saves a newer one — so more machines sharing the
//! directory add games. Self-play and training talk only through files, as in KataGo.

use std::sync::atomic::Ordering;

use burn::tensor::Device;

use super::config::Config;
use super::game::TrainableGame;
use super::net_evaluator::net_evaluator;
use super::run::RunOptions;
use super::run_dir::{generation_name, RunDir};
use super::run_error::RunError;
use crate::nn::Net;
use crate::selfplay::{play_games, SelfPlayJob, SelfPlayProgress};

/// Plays games for the run of `config` in `dir` in rounds of one generation's games
/// (`config.run.games_per_generation`), each round with the newest net, until `games`
/// are played (`None`: until stopped). Returns the games played.
pub fn contribute<G: TrainableGame>(
    config: &Config,
    dir: &RunDir,
    options: &RunOptions,
    games: Option<u64>,
) -> Result<u64, RunError> {
    let shape = config.network.net_config::<G>();
    let new_game = G::new_game(config).map_err(RunError)?;
    let mut played = 0;
    let mut round = 0u64;
    while !options.stop.load(Ordering::SeqCst) && games.is_none_or(|games| played < games) {
        let (generation, path) = dir.newest_model().map_err(|e| RunError(e.to_string()))?;
        let net = Net::load::<G>(&path, Some(shape), &Device::flex()).map_err(|e| RunError(e.to_string()))?;
        let round_games = config.run.games_per_generation.min(games.map_or(u64::MAX, |games| games - played));
        let job = SelfPlayJob {
            games: round_games,
            new_game: new_game.clone(),
            out_dir: dir.games(),
            prefix: generation_name(generation + 1),
            seed: config.seed ^ std::process::id() as u64 ^ (round << 40) ^ u64::from(generation) << 20,
        };
        let evaluator = net_evaluator::<G>(&net, &options.device, config);
        let report =
            play_games(evaluator, &config.search, &config.selfplay, &job, options.stop, &SelfPlayProgress::new())
                .map_err(|e| RunError(e.to_string()))?;
        played += report.games;
        round += 1;
        println!(
            "{} games with {} ({} samples, {:.0} sims/s), {played} in all",
            report.games,
            generation_name(generation),
            report.samples,
            report.simulations_per_second()
        );
    }
    Ok(played)
}
