//! How long the rest of a run will take, forecast from the generations it has timed.
//!
//! Bootstrap generations (the material count plays) and the net's generations cost very
//! different times, and an evaluation adds its own, so each is timed apart: the median
//! of the generations of that kind so far, the median evaluation on top for each one to
//! come. A kind not yet timed is estimated from a [`SpeedProbe`] when there is one (and
//! the forecast says it is an estimate), else not guessed: the forecast says so instead.

use std::time::Instant;

use super::config::Config;
use super::metrics::GenerationMetrics;
use super::speed_probe::SpeedProbe;

/// The forecast of a run's remaining wall time.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Forecast {
    /// Seconds the remaining generations' self-play and training take, with the
    /// evaluations already timed; `None` while a kind of generation to come (the net's
    /// own, after the bootstrap) is not yet timed.
    pub seconds: Option<f64>,
    /// Evaluations to come whose time is not yet known (none has been timed).
    pub untimed_evaluations: u32,
    /// Whether part of `seconds` is the speed probe's estimate rather than timed.
    pub estimated: bool,
    /// Whether `seconds` is the time left to the run's time limit, which comes first.
    pub limited: bool,
}

impl Forecast {
    /// The forecast after the generations of `done`, for a run of `config` that ends after
    /// generation `last`; what `done` has not timed comes from `probe` when given (with
    /// `rating`: the first evaluation also rates the ladder).
    pub fn after(
        done: &[GenerationMetrics],
        config: &Config,
        last: u32,
        probe: Option<(&SpeedProbe, bool)>,
    ) -> Forecast {
        let work = |m: &GenerationMetrics| m.selfplay_seconds + m.train_seconds;
        // Each cost: (timed, the probe's estimate).
        let plies = |probe: &SpeedProbe| {
            median(done.iter().map(|m| m.mean_game_plies).filter(|&p| p > 0.0)).unwrap_or(probe.plies)
        };
        let estimate = |f: &dyn Fn(&SpeedProbe, f64) -> f64| probe.map(|(p, _)| f(p, plies(p)));
        let bootstrap = (
            median(done.iter().filter(|m| m.bootstrap).map(work)),
            estimate(&|p, plies| p.generation_seconds(config, true, plies)),
        );
        let net = (
            median(done.iter().filter(|m| !m.bootstrap).map(work)),
            estimate(&|p, plies| p.generation_seconds(config, false, plies)),
        );
        // A generation's wall time beyond its self-play and training is its evaluation.
        let walls = done.windows(2).map(|pair| (&pair[1], 3600.0 * (pair[1].hours - pair[0].hours)));
        let timed_evaluation =
            median(walls.filter(|(m, _)| !m.elo.is_empty()).map(|(m, wall)| (wall - work(m)).max(0.0)));
        let rating = probe.is_some_and(|(_, rating)| rating);
        // The first evaluation to come may also rate the ladder; the later ones do not.
        let mut evaluation = (timed_evaluation, estimate(&|p, plies| p.evaluation_seconds(config, plies, rating)));
        let later_evaluation = (timed_evaluation, estimate(&|p, plies| p.evaluation_seconds(config, plies, false)));
        let mut forecast = Forecast { seconds: Some(0.0), untimed_evaluations: 0, estimated: false, limited: false };
        let add = |forecast: &mut Forecast, (timed, estimate): (Option<f64>, Option<f64>)| {
            forecast.estimated |= timed.is_none() && estimate.is_some();
            timed.or(estimate)
        };
        let first = done.last().map_or(1, |m| m.generation + 1);
        for g in first..=last {
            let kind = add(&mut forecast, if g <= config.run.bootstrap_generations { bootstrap } else { net });
            forecast.seconds = forecast.seconds.zip(kind).map(|(sum, kind)| sum + kind);
            if g == last || (config.evaluation.every > 0 && g % config.evaluation.every == 0) {
                match add(&mut forecast, evaluation) {
                    Some(seconds) => forecast.seconds = forecast.seconds.map(|sum| sum + seconds),
                    None => forecast.untimed_evaluations += 1,
                }
                evaluation = later_evaluation;
            }
        }
        forecast
    }

    /// The forecast of a run stopped at `deadline` (when there is one): the time left to
    /// it where the run would last longer, or where its length is not yet known.
    pub fn within(self, deadline: Option<Instant>) -> Forecast {
        let Some(deadline) = deadline else { return self };
        let left = deadline.saturating_duration_since(Instant::now()).as_secs_f64();
        match self.seconds {
            Some(seconds) if seconds <= left => self,
            _ => Forecast { seconds: Some(left), untimed_evaluations: 0, estimated: false, limited: true },
        }
    }
}

impl std::fmt::Display for Forecast {
    /// `about 12 min left`, `about 3 min left and 2 evaluations`, `roughly 20 min left
    /// (estimated)`, `about 25 min left (the time limit)`, or what is not yet timed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let about = if self.estimated { "roughly" } else { "about" };
        match self.seconds {
            None => write!(f, "time left: known once a net generation is timed")?,
            Some(s) if s < 90.0 => write!(f, "{about} {s:.0} s left")?,
            Some(s) if s < 5400.0 => write!(f, "{about} {:.0} min left", s / 60.0)?,
            Some(s) => write!(f, "{about} {:.1} h left", s / 3600.0)?,
        }
        if self.estimated {
            write!(f, " (estimated)")?;
        }
        if self.limited {
            write!(f, " (the time limit)")?;
        }
        match self.untimed_evaluations {
            0 => Ok(()),
            1 => write!(f, " and an evaluation"),
            n => write!(f, " and {n} evaluations"),
        }
    }
}

/// The median of `values`; `None` for none.
fn median(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut sorted: Vec<f64> = values.collect();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::EloResult;

    /// Generation `g` that self-played and trained for `work` seconds, ended `hours` into
    /// the run, and was evaluated when `evaluated`.
    fn generation(g: u32, bootstrap: bool, work: f64, hours: f64, evaluated: bool) -> GenerationMetrics {
        let elo = if evaluated { vec![EloResult::from_score("gen0000", 1, 0, 1)] } else { Vec::new() };
        GenerationMetrics { generation: g, bootstrap, selfplay_seconds: work, hours, elo, ..Default::default() }
    }

    fn config(bootstrap: u32, every: u32) -> Config {
        let (mut config, _) =
            Config::parse("name = \"t\"\ngame = \"xiangqi\"\n[network]\nblocks = 1\nchannels = 8\n", "t.toml")
                .expect("a valid config");
        config.run.bootstrap_generations = bootstrap;
        config.evaluation.every = every;
        config
    }

    #[test]
    fn each_kind_of_generation_and_the_evaluations_are_timed_apart() {
        let config = config(2, 4);
        // 36 s bootstraps, 72 s net generations, generation 4 evaluated in 180 s more.
        let done = [
            generation(1, true, 36.0, 0.01, false),
            generation(2, true, 36.0, 0.02, false),
            generation(3, false, 72.0, 0.04, false),
            generation(4, false, 72.0, 0.11, true),
        ];
        let forecast = Forecast::after(&done, &config, 8, None);
        // Generations 5–8 (72 s each) and the evaluations after 8 (180 s).
        let seconds = forecast.seconds.expect("every kind timed");
        assert!((seconds - (4.0 * 72.0 + 180.0)).abs() < 1e-6, "{seconds}");
        assert_eq!(forecast.untimed_evaluations, 0);
        assert_eq!(forecast.to_string(), "about 8 min left");
    }

    #[test]
    fn a_kind_not_yet_timed_is_not_guessed() {
        let config = config(2, 0);
        let after_one = Forecast::after(&[generation(1, true, 36.0, 0.01, false)], &config, 4, None);
        assert_eq!(after_one, Forecast { seconds: None, untimed_evaluations: 1, estimated: false, limited: false });
        assert_eq!(after_one.to_string(), "time left: known once a net generation is timed and an evaluation");
        let bootstrap_only = Forecast::after(&[generation(1, true, 36.0, 0.01, false)], &config, 2, None);
        assert_eq!(
            bootstrap_only,
            Forecast { seconds: Some(36.0), untimed_evaluations: 1, estimated: false, limited: false }
        );
    }

    /// A probe of 10 ms a bootstrap move, 100 ms a net move (64 simulations, no cheap
    /// searches), 1 ms a trained sample and 100-ply games, for 10-game generations
    /// trained 10 steps of 100 samples and a ladder of alpha-beta and generation 0.
    fn probed() -> (Config, SpeedProbe) {
        let mut config = config(2, 0);
        config.run.games_per_generation = 10;
        config.run.bootstrap_simulations = 0;
        config.search.simulations = 64;
        config.search.cheap_simulations = None;
        config.train.batch_size = 100;
        config.train.sample_reuse = 1.0;
        config.train.min_steps = 1;
        config.train.max_steps = 1000;
        config.evaluation.ladder = vec!["alphabeta:depth=1".to_string(), "gen0000".to_string()];
        config.evaluation.games = 10;
        config.evaluation.simulations = 64;
        let probe = SpeedProbe { bootstrap_move: 0.01, net_move: 0.1, train_sample: 0.001, plies: 100.0 };
        (config, probe)
    }

    #[test]
    fn what_is_not_yet_timed_is_estimated_from_the_probe() {
        let (config, probe) = probed();
        // A bootstrap generation: 1000 moves at 10 ms and 1000 samples trained at 1 ms, 11 s;
        // a net generation 100 s + 1 s. The evaluation: the net's 50 moves a game in 10
        // games against each of 2 rungs and generation 0's as a net (3 sides), plus the
        // rating round robin's net side (4 sides): 4 × 500 moves at 100 ms, 200 s.
        let fresh = Forecast::after(&[], &config, 4, Some((&probe, true)));
        let seconds = fresh.seconds.expect("estimated");
        assert!((seconds - (2.0 * 11.0 + 2.0 * 101.0 + 200.0)).abs() < 1e-6, "{seconds}");
        assert_eq!(fresh.to_string(), "roughly 7 min left (estimated)");
        // Once the bootstraps are timed (20 s each), the net's generations and the
        // evaluation (the ladder rated by now: 3 sides, 150 s) are still estimated.
        let done = [generation(1, true, 20.0, 0.01, false), generation(2, true, 20.0, 0.02, false)];
        let later = Forecast::after(&done, &config, 4, Some((&probe, false)));
        assert!((later.seconds.expect("estimated") - (2.0 * 101.0 + 150.0)).abs() < 1e-6);
        assert!(later.estimated);
        // Without a probe the same forecast waits for the net's generations.
        assert_eq!(Forecast::after(&done, &config, 4, None).seconds, None);
    }

    #[test]
    fn timed_generations_need_no_estimate() {
        let (config, probe) = probed();
        // A timed bootstrap, then net generations of 60 s, the third evaluated in 100 s more.
        let done = [
            generation(1, true, 20.0, 0.01, false),
            generation(2, false, 60.0, 0.03, false),
            generation(3, false, 60.0, 0.03 + 160.0 / 3600.0, true),
        ];
        let forecast = Forecast::after(&done, &config, 4, Some((&probe, false)));
        assert!((forecast.seconds.expect("timed") - 160.0).abs() < 1e-6);
        assert_eq!(forecast.to_string(), "about 3 min left");
    }

    #[test]
    fn a_time_limit_that_comes_first_is_the_time_left() {
        let config = config(0, 0);
        let done = [generation(1, false, 60.0, 0.02, false)];
        // 99 generations of 60 s to come; the limit in 10 min.
        let long = Forecast::after(&done, &config, 100, None);
        let in_ten_minutes = Some(Instant::now() + std::time::Duration::from_secs(600));
        let limited = long.within(in_ten_minutes);
        assert!(limited.limited && (590.0..=600.0).contains(&limited.seconds.expect("the limit")), "{limited:?}");
        assert_eq!(limited.to_string(), "about 10 min left (the time limit)");
        // Two generations (2 min) end before it: the forecast stands.
        let short = Forecast::after(&done, &config, 3, None);
        assert_eq!(short.within(in_ten_minutes), short);
        // Not yet timed: the limit is all that is known.
        let untimed = Forecast::after(&[], &config, 3, None);
        assert_eq!(untimed.seconds, None);
        assert!(untimed.within(in_ten_minutes).limited);
        assert_eq!(long.within(None), long);
    }
}
