//! How long the rest of a run will take, forecast from the generations it has timed.
//!
//! Bootstrap generations (the material count plays) and the net's generations cost very
//! different times, and an evaluation adds its own, so each is timed apart: the median
//! of the generations of that kind so far, the median evaluation on top for each one to
//! come. A kind not yet timed is not guessed: the forecast says so instead.

use super::metrics::GenerationMetrics;
use crate::config::Config;

/// The forecast of a run's remaining wall time.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Forecast {
    /// Seconds the remaining generations' self-play and training take, with the
    /// evaluations already timed; `None` while a kind of generation to come (the net's
    /// own, after the bootstrap) is not yet timed.
    pub seconds: Option<f64>,
    /// Evaluations to come whose time is not yet known (none has been timed).
    pub untimed_evaluations: u32,
}

impl Forecast {
    /// The forecast after the generations of `done`, for a run of `config` that ends after
    /// generation `last`.
    pub fn after(done: &[GenerationMetrics], config: &Config, last: u32) -> Forecast {
        let work = |m: &GenerationMetrics| m.selfplay_seconds + m.train_seconds;
        let bootstrap = median(done.iter().filter(|m| m.bootstrap).map(work));
        let net = median(done.iter().filter(|m| !m.bootstrap).map(work));
        // A generation's wall time beyond its self-play and training is its evaluation.
        let walls = done.windows(2).map(|pair| (&pair[1], 3600.0 * (pair[1].hours - pair[0].hours)));
        let evaluation = median(walls.filter(|(m, _)| !m.elo.is_empty()).map(|(m, wall)| (wall - work(m)).max(0.0)));
        let mut forecast = Forecast { seconds: Some(0.0), untimed_evaluations: 0 };
        let first = done.last().map_or(1, |m| m.generation + 1);
        for g in first..=last {
            let kind = if g <= config.run.bootstrap_generations { bootstrap } else { net };
            forecast.seconds = forecast.seconds.zip(kind).map(|(sum, kind)| sum + kind);
            if g == last || (config.evaluation.every > 0 && g % config.evaluation.every == 0) {
                match evaluation {
                    Some(evaluation) => forecast.seconds = forecast.seconds.map(|sum| sum + evaluation),
                    None => forecast.untimed_evaluations += 1,
                }
            }
        }
        forecast
    }
}

impl std::fmt::Display for Forecast {
    /// `about 12 min left`, `about 3 min left and 2 evaluations`, or what is not yet timed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seconds {
            None => write!(f, "time left: known once a net generation is timed")?,
            Some(s) if s < 90.0 => write!(f, "about {s:.0} s left")?,
            Some(s) if s < 5400.0 => write!(f, "about {:.0} min left", s / 60.0)?,
            Some(s) => write!(f, "about {:.1} h left", s / 3600.0)?,
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
        let mut config =
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
        let forecast = Forecast::after(&done, &config, 8);
        // Generations 5–8 (72 s each) and the evaluations after 8 (180 s).
        let seconds = forecast.seconds.expect("every kind timed");
        assert!((seconds - (4.0 * 72.0 + 180.0)).abs() < 1e-6, "{seconds}");
        assert_eq!(forecast.untimed_evaluations, 0);
        assert_eq!(forecast.to_string(), "about 8 min left");
    }

    #[test]
    fn a_kind_not_yet_timed_is_not_guessed() {
        let config = config(2, 0);
        let after_one = Forecast::after(&[generation(1, true, 36.0, 0.01, false)], &config, 4);
        assert_eq!(after_one, Forecast { seconds: None, untimed_evaluations: 1 });
        assert_eq!(after_one.to_string(), "time left: known once a net generation is timed and an evaluation");
        let bootstrap_only = Forecast::after(&[generation(1, true, 36.0, 0.01, false)], &config, 2);
        assert_eq!(bootstrap_only, Forecast { seconds: Some(36.0), untimed_evaluations: 1 });
    }
}
