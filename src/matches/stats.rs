//! Match statistics: a W/D/L [`Score`], the Elo difference it implies with a 95%
//! interval ([`elo_estimate`]), the likelihood of superiority ([`likelihood_of_superiority`])
//! and a sequential probability ratio test ([`Sprt`]) that stops a match once it is decided.
//!
//! The formulas are the ones cutechess-cli and fastchess print, so figures can be compared
//! with theirs:
//! - Elo is logistic: a score fraction `f` is worth `−400·log10(1/f − 1)` Elo.
//! - The interval comes from the trinomial variance of the per-game score (win 1, draw ½,
//!   loss 0): the score's mean ± 1.96 standard errors, each end turned into Elo.
//! - LOS = ½·(1 + erf((W − L)/√(2(W + L)))) — draws carry no information about who is
//!   stronger.
//! - The SPRT is the generalised SPRT for a trinomial with logistic Elo bounds (Michel Van
//!   den Bergh's, as fishtest and fastchess compute it): the log-likelihood ratio of the
//!   most likely win/draw/loss distributions with mean scores `s0` and `s1` (the scores of
//!   `elo0` and `elo1`). Its familiar closed-form approximation
//!   `(s1 − s0)(2·ŝ − s0 − s1) / (2·σ̂²/N)` is [`Sprt::llr_approx`].
//!
//! Everything here is plain arithmetic on counts; nothing depends on the game played.

use std::fmt;
use std::ops::{Add, AddAssign};

/// The two-sided 97.5% quantile of the standard normal distribution: a 95% interval is the
/// mean ± this many standard errors.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player (the "first" player of a match) against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Score {
    /// One game won: `score += Score::WIN`.
    pub const WIN: Score = Score { wins: 1, draws: 0, losses: 0 };
    /// One game drawn.
    pub const DRAW: Score = Score { wins: 0, draws: 1, losses: 0 };
    /// One game lost.
    pub const LOSS: Score = Score { wins: 0, draws: 0, losses: 1 };

    /// A score of `wins`, `draws` and `losses`.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Score {
        Score { wins, draws, losses }
    }

    /// Games played.
    pub const fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: 1 a win, ½ a draw.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Points per game, in [0, 1]; 0.5 before any game is played (no evidence either way).
    pub fn fraction(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / f64::from(n),
        }
    }

    /// The same games from the opponent's side: wins and losses swapped.
    pub const fn flipped(&self) -> Score {
        Score { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// The share of games drawn, in [0, 1]; 0 before any game.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => f64::from(self.draws) / f64::from(n),
        }
    }

    /// The variance of one game's score (1, ½ or 0) around the mean score, as observed.
    fn per_game_variance(&self) -> f64 {
        let n = f64::from(self.games());
        let mu = self.fraction();
        (f64::from(self.wins) * (1.0 - mu).powi(2)
            + f64::from(self.draws) * (0.5 - mu).powi(2)
            + f64::from(self.losses) * mu.powi(2))
            / n
    }
}

impl Add for Score {
    type Output = Score;

    fn add(self, other: Score) -> Score {
        Score { wins: self.wins + other.wins, draws: self.draws + other.draws, losses: self.losses + other.losses }
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        *self = *self + other;
    }
}

impl fmt::Display for Score {
    /// `W 60 D 20 L 20 (70.0%)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "W {} D {} L {} ({:.1}%)", self.wins, self.draws, self.losses, 100.0 * self.fraction())
    }
}

/// The logistic Elo difference worth a score fraction `fraction` in [0, 1]:
/// `−400·log10(1/f − 1)`. 0.75 → +190.85, 0.5 → 0; 1 → +∞ and 0 → −∞ (exactly those, never
/// NaN); a value outside [0, 1] (or NaN) gives NaN.
pub fn elo_from_fraction(fraction: f64) -> f64 {
    if !(0.0..=1.0).contains(&fraction) {
        return f64::NAN;
    }
    if fraction == 1.0 {
        return f64::INFINITY;
    }
    if fraction == 0.0 {
        return f64::NEG_INFINITY;
    }
    // `+ 0.0` turns the −0 of an even score into +0, so it prints as `+0.0`.
    -400.0 * (1.0 / fraction - 1.0).log10() + 0.0
}

/// The score fraction expected at a logistic Elo difference: the inverse of
/// [`elo_from_fraction`].
pub fn fraction_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
///
/// The interval is asymmetric in Elo (it is symmetric in score); [`EloEstimate::margin`]
/// is the single `±` figure cutechess prints, half the interval's width. A bound is `±∞`
/// where the interval reaches a score of 0% or 100%; `Display` prints those as `+inf` /
/// `-inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate: the Elo worth of the observed score fraction.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width: cutechess's `Elo difference: X +/- margin`. Infinite when
    /// a bound is.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

impl fmt::Display for EloEstimate {
    /// `+147.2 ± 66.0 (95%: +86.2 to +218.3)`; infinite figures print as `+inf` / `-inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.1} ± {:.1} (95%: {:+.1} to {:+.1})", self.elo, self.margin(), self.lower, self.upper)
    }
}

/// The Elo difference of `score` with a 95% interval; `None` before any game.
///
/// The interval is the mean score ± 1.96 standard errors, the standard error coming from
/// the trinomial (win/draw/loss) variance of one game's score, as in cutechess and
/// fastchess; each end is turned into Elo, and an end at or beyond 0% or 100% becomes
/// `−∞` or `+∞`.
///
/// At a score of exactly 100% (all wins) the observed variance is 0, so that recipe gives
/// no interval at all; there the estimate and the upper bound are `+∞` and the lower bound
/// is the exact (Clopper–Pearson) 2.5% bound for N wins in N games, `0.025^(1/N)`, in Elo.
/// A score of 0% is the mirror image. With all games drawn the interval is `[0, 0]`, as
/// cutechess reports it.
pub fn elo_estimate(score: &Score) -> Option<EloEstimate> {
    let games = score.games();
    if games == 0 {
        return None;
    }
    let n = f64::from(games);
    if score.wins == games {
        let lower = (0.025f64).powf(1.0 / n);
        return Some(EloEstimate { elo: f64::INFINITY, lower: elo_from_fraction(lower), upper: f64::INFINITY });
    }
    if score.losses == games {
        let upper = 1.0 - (0.025f64).powf(1.0 / n);
        return Some(EloEstimate { elo: f64::NEG_INFINITY, lower: f64::NEG_INFINITY, upper: elo_from_fraction(upper) });
    }
    let mu = score.fraction();
    let standard_error = (score.per_game_variance() / n).sqrt();
    let to_elo = |f: f64| elo_from_fraction(f.clamp(0.0, 1.0));
    Some(EloEstimate {
        elo: elo_from_fraction(mu),
        lower: to_elo(mu - Z_95 * standard_error),
        upper: to_elo(mu + Z_95 * standard_error),
    })
}

/// The likelihood of superiority: the probability that the first player is the stronger,
/// `½·(1 + erf((W − L)/√(2(W + L))))`. Draws do not count; 0.5 when `W = L` (including no
/// decisive game at all).
pub fn likelihood_of_superiority(score: &Score) -> f64 {
    let decisive = f64::from(score.wins) + f64::from(score.losses);
    if score.wins == score.losses {
        return 0.5;
    }
    let x = (f64::from(score.wins) - f64::from(score.losses)) / (2.0 * decisive).sqrt();
    0.5 * (1.0 + erf(x))
}

/// The error function, to about 1e-15 absolute.
///
/// Uses the series `erf(x) = 2/√π · e^(−x²) · Σₙ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`, whose terms
/// are all positive (no cancellation); beyond |x| = 6, erf is ±1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > 1e-17 * sum.abs() {
        n += 1.0;
        term *= two_x2 / (2.0 * n + 1.0);
        sum += term;
    }
    (2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum).clamp(-1.0, 1.0)
}

/// A sequential probability ratio test between H0: "the Elo difference is `elo0`" and
/// H1: "it is `elo1`" (logistic Elo), with error rates `alpha` (accepting H1 when H0 holds)
/// and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative; greater than `elo0`.
    pub elo1: f64,
    /// The false-positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// The false-negative rate: accepting H0 when H1 holds.
    pub beta: f64,
}

/// Which hypothesis an [`Sprt`] accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// The log-likelihood ratio fell to the lower bound: the difference is `elo0` (or less).
    AcceptH0,
    /// The log-likelihood ratio rose to the upper bound: the difference is `elo1` (or more).
    AcceptH1,
}

impl SprtDecision {
    /// `H0 accepted` or `H1 accepted`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        }
    }
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Stands in for a count of zero when estimating probabilities, as fastchess does, so
/// that a one-sided stream (all wins, all draws) still has a likelihood to compare.
const ZERO_COUNT: f64 = 1e-3;

/// The outcomes' scores, in the order loss, draw, win.
const OUTCOME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The loss/draw/win distribution closest to `observed` (greatest likelihood of the
/// observed counts) among those whose mean score is `mean`, for `mean` in (0, 1).
///
/// By Lagrange it is `pᵢ = p̂ᵢ / (1 + x·(aᵢ − mean))`, where `x` solves
/// `Σ p̂ᵢ(aᵢ − mean)/(1 + x·(aᵢ − mean)) = 0`; the left side falls strictly on the interval
/// where every denominator is positive, so bisection finds `x`.
fn most_likely_with_mean(observed: [f64; 3], mean: f64) -> [f64; 3] {
    let offsets = OUTCOME_SCORES.map(|a| a - mean);
    let slope = |x: f64| -> f64 { (0..3).map(|i| observed[i] * offsets[i] / (1.0 + x * offsets[i])).sum() };
    // Denominators stay positive for x in (−1/max offset, −1/min offset) = (−1/(1−mean), 1/mean).
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let x = 0.5 * (low + high);
    let p: [f64; 3] = std::array::from_fn(|i| observed[i] / (1.0 + x * offsets[i]));
    // The root is exact to rounding; renormalising removes what is left.
    let total: f64 = p.iter().sum();
    p.map(|v| v / total)
}

impl Sprt {
    /// Reads `elo0,elo1[,alpha,beta]` (as `--sprt` takes it): `alpha` and `beta` default to
    /// 0.05. Requires `elo0 < elo1`, `alpha` and `beta` in (0, 1) and `alpha + beta < 1`.
    /// The error is one line.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let fields: Vec<&str> = text.split(',').map(str::trim).collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(format!(
                "SPRT `{text}`: expected `elo0,elo1` or `elo0,elo1,alpha,beta`, e.g. `0,10` or `0,10,0.05,0.05`"
            ));
        }
        let mut numbers = [0.0, 0.0, 0.05, 0.05];
        for (slot, field) in numbers.iter_mut().zip(&fields) {
            *slot = field
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("SPRT `{text}`: `{field}` is not a number"))?;
        }
        let [elo0, elo1, alpha, beta] = numbers;
        if elo0 >= elo1 {
            return Err(format!("SPRT `{text}`: elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 1.0) {
                return Err(format!("SPRT `{text}`: {name} ({p}) must lie strictly between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!("SPRT `{text}`: alpha + beta must be less than 1"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The log-likelihood ratio of H1 against H0 after `score` (0 before any game).
    ///
    /// The generalised SPRT for a trinomial with logistic Elo (Michel Van den Bergh's, as
    /// fishtest and fastchess's `logistic` model compute it): for each hypothesis the
    /// win/draw/loss distribution of greatest likelihood whose mean score is `s0` (resp. `s1`)
    /// is found, and the ratio is the log-likelihood of the observed counts under the second
    /// over the first. A count of zero is taken as 0.001, as fastchess does, so that a stream
    /// of all wins or all draws still moves the ratio — by a bounded amount per game.
    ///
    /// Near the hypotheses this equals [`Sprt::llr_approx`]; far from them, and on small or
    /// one-sided samples, the closed form overshoots (with zero counts regularised it
    /// would accept H1 after one win), which is why decisions use this one.
    pub fn llr(&self, score: &Score) -> f64 {
        if score.games() == 0 {
            return 0.0;
        }
        let regularize = |count: u32| {
            if count == 0 {
                ZERO_COUNT
            } else {
                f64::from(count)
            }
        };
        let counts = [regularize(score.losses), regularize(score.draws), regularize(score.wins)];
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let p0 = most_likely_with_mean(observed, fraction_from_elo(self.elo0));
        let p1 = most_likely_with_mean(observed, fraction_from_elo(self.elo1));
        (0..3).map(|i| counts[i] * (p1[i] / p0[i]).ln()).sum()
    }

    /// The closed-form approximation of the ratio that cutechess-era tools print:
    /// `(s1 − s0)(2ŝ − s0 − s1) / (2σ̂²/N)`, with `ŝ` the observed mean score and `σ̂²` the
    /// observed per-game variance. 0 when every game had the same result (no variance).
    /// Kept for comparison with such tools; [`Sprt::decision`] uses [`Sprt::llr`].
    pub fn llr_approx(&self, score: &Score) -> f64 {
        let games = score.games();
        if games == 0 {
            return 0.0;
        }
        let variance = score.per_game_variance();
        if variance == 0.0 {
            return 0.0;
        }
        let s0 = fraction_from_elo(self.elo0);
        let s1 = fraction_from_elo(self.elo1);
        (s1 - s0) * (2.0 * score.fraction() - s0 - s1) / (2.0 * variance / f64::from(games))
    }

    /// The log-likelihood ratio's stopping bounds `(ln(β/(1−α)), ln((1−β)/α))`: at or below
    /// the first H0 is accepted, at or above the second H1. (−2.94, 2.94) for α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The test's verdict after `score`, or `None` while the match should go on.
    pub fn decision(&self, score: &Score) -> Option<SprtDecision> {
        let llr = self.llr(score);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    /// `elo0 0, elo1 10, alpha 0.05, beta 0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elo0 {}, elo1 {}, alpha {}, beta {}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}
