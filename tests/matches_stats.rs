//! Match statistics against worked values: Elo from a score, the 95% interval, LOS, and
//! the SPRT on synthetic result streams.

use xiangqi_zero::matches::stats::{
    elo_estimate, elo_from_fraction, erf, fraction_from_elo, likelihood_of_superiority, Score, Sprt, SprtDecision,
};

fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!((actual - expected).abs() <= tolerance, "{actual} is not within {tolerance} of {expected}");
}

#[test]
fn score_counts_points_and_fraction() {
    let score = Score::new(60, 20, 20);
    assert_eq!(score.games(), 100);
    assert_eq!(score.points(), 70.0);
    assert_eq!(score.fraction(), 0.7);
    assert_eq!(score.flipped(), Score::new(20, 20, 60));
    assert_eq!(score.draw_ratio(), 0.2);
    assert_eq!(Score::default().fraction(), 0.5);
    let mut built = Score::default();
    for _ in 0..60 {
        built += Score::WIN;
    }
    for _ in 0..20 {
        built += Score::DRAW;
        built += Score::LOSS;
    }
    assert_eq!(built, score);
    assert_eq!(score.to_string(), "W 60 D 20 L 20 (70.0%)");
}

#[test]
fn elo_from_worked_fractions() {
    // 75%: 1/0.75 − 1 = 1/3, −400·log10(1/3) = 400 × 0.477121 = 190.85.
    assert_close(elo_from_fraction(0.75), 190.85, 0.005);
    assert_close(elo_from_fraction(0.25), -190.85, 0.005);
    // 50%: log10(1) = 0, and it prints as +0.0, not -0.0.
    assert_eq!(elo_from_fraction(0.5), 0.0);
    assert_eq!(format!("{:+.1}", elo_from_fraction(0.5)), "+0.0");
    // 90.9%: 1/f − 1 = 0.1 → +400 exactly.
    assert_close(elo_from_fraction(10.0 / 11.0), 400.0, 1e-9);
    assert_eq!(elo_from_fraction(1.0), f64::INFINITY);
    assert_eq!(elo_from_fraction(0.0), f64::NEG_INFINITY);
    assert!(elo_from_fraction(1.5).is_nan());
    for elo in [-600.0, -191.0, 0.0, 35.0, 400.0] {
        assert_close(elo_from_fraction(fraction_from_elo(elo)), elo, 1e-9);
    }
}

#[test]
fn interval_for_60_wins_20_draws_20_losses() {
    // By hand: N = 100, mean score μ = (60 + 10)/100 = 0.70.
    // Per-game variance = (60·(1−0.7)² + 20·(0.5−0.7)² + 20·(0−0.7)²)/100
    //                   = (5.4 + 0.8 + 9.8)/100 = 0.16; standard error = √(0.16/100) = 0.04.
    // 95%: 0.70 ± 1.959964 × 0.04 = 0.70 ± 0.078399 → [0.621601, 0.778399].
    // Elo: μ → −400·log10(0.3/0.7) = +147.19;
    //      0.621601 → −400·log10(0.608748) = +86.23;
    //      0.778399 → −400·log10(0.284689) = +218.25; cutechess's ± = (218.25 − 86.23)/2 = 66.01.
    let estimate = elo_estimate(&Score::new(60, 20, 20)).unwrap();
    assert_close(estimate.elo, 147.19, 0.01);
    assert_close(estimate.lower, 86.23, 0.01);
    assert_close(estimate.upper, 218.25, 0.01);
    assert_close(estimate.margin(), 66.01, 0.01);
    assert_eq!(estimate.to_string(), "+147.2 ± 66.0 (95%: +86.2 to +218.3)");
}

#[test]
fn interval_of_an_even_match_is_symmetric() {
    let estimate = elo_estimate(&Score::new(30, 40, 30)).unwrap();
    assert_eq!(estimate.elo, 0.0);
    assert_close(estimate.lower, -estimate.upper, 1e-9);
    // Variance (30·0.25 + 0 + 30·0.25)/100 = 0.15, se = √0.0015 = 0.038730;
    // 0.5 + 1.959964 × 0.038730 = 0.575909 → −400·log10(0.736385) = 400 × 0.132895 = +53.16.
    assert_close(estimate.upper, 53.16, 0.01);
}

#[test]
fn interval_edges_are_explicit_and_never_nan() {
    assert_eq!(elo_estimate(&Score::default()), None);

    // 10 wins in 10: the lower bound is the Clopper–Pearson 2.5% bound 0.025^(1/10) = 0.691509,
    // −400·log10(1/0.691509 − 1) = +140.22.
    let all_wins = elo_estimate(&Score::new(10, 0, 0)).unwrap();
    assert_eq!(all_wins.elo, f64::INFINITY);
    assert_eq!(all_wins.upper, f64::INFINITY);
    assert_close(all_wins.lower, 140.22, 0.01);
    assert_eq!(all_wins.to_string(), "+inf ± inf (95%: +140.2 to +inf)");

    let all_losses = elo_estimate(&Score::new(0, 0, 10)).unwrap();
    assert_eq!(all_losses.elo, f64::NEG_INFINITY);
    assert_eq!(all_losses.lower, f64::NEG_INFINITY);
    assert_close(all_losses.upper, -140.22, 0.01);
    assert_eq!(all_losses.to_string(), "-inf ± inf (95%: -inf to -140.2)");

    // 9 wins, 1 loss: μ = 0.9, variance 0.09, se 0.094868, upper end 1.086 > 1 → +∞.
    let nine_one = elo_estimate(&Score::new(9, 0, 1)).unwrap();
    assert_close(nine_one.elo, 381.70, 0.01);
    assert_eq!(nine_one.upper, f64::INFINITY);
    assert!(nine_one.lower.is_finite());

    // All draws: no observed spread, the interval collapses to [0, 0] as in cutechess.
    let all_draws = elo_estimate(&Score::new(0, 12, 0)).unwrap();
    assert_eq!((all_draws.elo, all_draws.lower, all_draws.upper), (0.0, 0.0, 0.0));

    for w in 0..6 {
        for d in 0..6 {
            for l in 0..6 {
                if let Some(e) = elo_estimate(&Score::new(w, d, l)) {
                    assert!(!e.elo.is_nan() && !e.lower.is_nan() && !e.upper.is_nan(), "{w} {d} {l}");
                    assert!(e.lower <= e.elo && e.elo <= e.upper, "{w} {d} {l}: {e}");
                }
            }
        }
    }
}

#[test]
fn erf_matches_reference_values() {
    assert_eq!(erf(0.0), 0.0);
    assert_close(erf(0.5), 0.520_499_877_813_046_5, 1e-15);
    assert_close(erf(1.0), 0.842_700_792_949_714_9, 1e-15);
    assert_close(erf(-1.0), -0.842_700_792_949_714_9, 1e-15);
    assert_close(erf(3.0), 0.999_977_909_503_001_4, 1e-15);
    assert_close(erf(5.5), 0.999_999_999_999_992_7, 1e-15);
    assert_eq!(erf(7.0), 1.0);
}

#[test]
fn likelihood_of_superiority_worked_values() {
    // W = L: no evidence either way.
    assert_eq!(likelihood_of_superiority(&Score::new(0, 0, 0)), 0.5);
    assert_eq!(likelihood_of_superiority(&Score::new(7, 30, 7)), 0.5);
    // W = 10, L = 6: (10 − 6)/√(2·16) = 1/√2, so LOS = ½(1 + erf(1/√2)) = Φ(1) = 0.841345.
    assert_close(likelihood_of_superiority(&Score::new(10, 5, 6)), 0.841_344_746, 1e-9);
    assert_close(likelihood_of_superiority(&Score::new(6, 5, 10)), 1.0 - 0.841_344_746, 1e-9);
    // W = 60, L = 20: 40/√160 = 3.1623, LOS = 0.999996.
    assert_close(likelihood_of_superiority(&Score::new(60, 20, 20)), 0.999_996_13, 1e-8);
    // Draws do not move it.
    assert_eq!(likelihood_of_superiority(&Score::new(10, 0, 6)), likelihood_of_superiority(&Score::new(10, 500, 6)));
}

#[test]
fn sprt_parses_and_rejects_in_one_line() {
    let sprt = Sprt::parse("0,10").unwrap();
    assert_eq!(sprt, Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 });
    let sprt = Sprt::parse(" -5 , 5 , 0.1 , 0.2 ").unwrap();
    assert_eq!(sprt, Sprt { elo0: -5.0, elo1: 5.0, alpha: 0.1, beta: 0.2 });
    for (bad, needle) in [
        ("", "expected `elo0,elo1`"),
        ("0", "expected `elo0,elo1`"),
        ("0,10,0.05", "expected `elo0,elo1`"),
        ("0,ten", "`ten` is not a number"),
        ("0,inf", "`inf` is not a number"),
        ("10,0", "must be less than elo1"),
        ("5,5", "must be less than elo1"),
        ("0,10,0,0.05", "alpha (0) must lie strictly between 0 and 1"),
        ("0,10,0.05,1", "beta (1) must lie strictly between 0 and 1"),
        ("0,10,0.6,0.5", "alpha + beta must be less than 1"),
    ] {
        let error = Sprt::parse(bad).unwrap_err();
        assert!(error.contains(needle), "{bad:?}: {error}");
        assert_eq!(error.lines().count(), 1, "{bad:?}: {error}");
    }
}

#[test]
fn sprt_bounds_worked_values() {
    // α = β = 0.05: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439.
    let (lower, upper) = Sprt::parse("0,10").unwrap().bounds();
    assert_close(lower, -2.944_439, 1e-6);
    assert_close(upper, 2.944_439, 1e-6);
    // α = 0.1, β = 0.2: ln(0.2/0.9) = −1.504077, ln(0.8/0.1) = +2.079442.
    let (lower, upper) = Sprt::parse("0,5,0.1,0.2").unwrap().bounds();
    assert_close(lower, -1.504_077, 1e-6);
    assert_close(upper, 2.079_442, 1e-6);
}

#[test]
fn sprt_llr_worked_values() {
    let sprt = Sprt::parse("0,10").unwrap();
    assert_eq!(sprt.llr(&Score::default()), 0.0);
    // The closed form, by hand: elo0 = 0, elo1 = 10 → s0 = 0.5, s1 = 1/(1 + 10^(−10/400)) = 0.514387.
    // W 60 D 20 L 20: ŝ = 0.7, σ̂² = 0.16 (see above), N = 100:
    // (0.014387)(1.4 − 1.014387)/(2 × 0.16/100) = 0.005548/0.0032 = 1.7337.
    assert_close(sprt.llr_approx(&Score::new(60, 20, 20)), 1.7337, 1e-4);
    // The exact GSPRT ratio for the same counts, from an independent Python port of
    // Van den Bergh's LLRcalc `LLR_logistic` (bisection on the secular equation): 1.38982.
    // Far from both hypotheses the closed form overshoots.
    assert_close(sprt.llr(&Score::new(60, 20, 20)), 1.389_82, 1e-5);
    assert_eq!(sprt.decision(&Score::new(60, 20, 20)), None);
    // Near the hypotheses the two agree: W 1000 D 2000 L 1000 (ŝ = 0.5, σ̂² = 0.125):
    // 4000 × (0.014387)(1 − 1.014387)/(2 × 0.125) = −3.3119.
    assert_close(sprt.llr_approx(&Score::new(1000, 2000, 1000)), -3.3119, 1e-4);
    assert_close(sprt.llr(&Score::new(1000, 2000, 1000)), -3.3119, 1e-3);
    // One game can only move the exact ratio a little (LLRcalc: 0.028368 for one win),
    // where the regularised closed form would jump past the bound at once.
    assert_close(sprt.llr(&Score::WIN), 0.028_367, 1e-5);
    // The mirrored score (30%) is about as far below elo0 as 70% is above: −1.48819.
    assert_close(sprt.llr(&Score::new(20, 20, 60)), -1.488_19, 1e-5);
}

/// Feeds `results` (1 win, 0 draw, −1 loss) to the test until it decides: the decision
/// and the number of games it took.
fn run_sprt(sprt: &Sprt, results: impl Iterator<Item = i8>) -> Option<(SprtDecision, u32)> {
    let mut score = Score::default();
    for result in results {
        score += match result {
            1 => Score::WIN,
            0 => Score::DRAW,
            _ => Score::LOSS,
        };
        if let Some(decision) = sprt.decision(&score) {
            return Some((decision, score.games()));
        }
    }
    None
}

#[test]
fn sprt_stops_on_a_decisive_stream() {
    let sprt = Sprt::parse("0,10").unwrap();
    // 7 wins then 3 losses, repeated (70%): the closed form adds
    // (0.014387)(1.4 − 1.014387)/(2 × 0.21) = 0.013209 a game, so 2.944/0.013209 ≈ 223 games;
    // the exact ratio, which the closed form overshoots this far out, needs 256 (Python port).
    let stream = [1, 1, 1, 1, 1, 1, 1, -1, -1, -1].into_iter().cycle().take(10_000);
    let (decision, games) = run_sprt(&sprt, stream).unwrap();
    assert_eq!(decision, SprtDecision::AcceptH1);
    assert!((245..=265).contains(&games), "decided after {games} games");

    // The mirror image (30%) accepts H0 (Python port: after 237 games).
    let stream = [-1, -1, -1, -1, -1, -1, -1, 1, 1, 1].into_iter().cycle().take(10_000);
    let (decision, games) = run_sprt(&sprt, stream).unwrap();
    assert_eq!(decision, SprtDecision::AcceptH0);
    assert!((225..=250).contains(&games), "decided after {games} games");

    // All wins: the zero counts are regularised, so it decides (Python port: 104 games)
    // rather than never, and not after a handful of games either.
    let (decision, games) = run_sprt(&sprt, std::iter::repeat_n(1, 1000)).unwrap();
    assert_eq!(decision, SprtDecision::AcceptH1);
    assert!((95..=115).contains(&games), "decided after {games} games");

    // All draws: a score of exactly 50%, no spread: H0 (Python port: 102 games).
    let (decision, games) = run_sprt(&sprt, std::iter::repeat_n(0, 1000)).unwrap();
    assert_eq!(decision, SprtDecision::AcceptH0);
    assert!((95..=115).contains(&games), "decided after {games} games");
}

#[test]
fn sprt_on_a_stream_at_exactly_elo0_accepts_h0_and_never_h1() {
    let sprt = Sprt::parse("0,10").unwrap();
    // Win, draw, loss, draw, repeated: ŝ = 0.5 (elo0), σ̂² = 0.125, each game adds
    // (0.014387)(1 − 1.014387)/(2 × 0.125) = −0.000828: −2.944/−0.000828 ≈ 3556 games
    // (the exact ratio: 3559, Python port).
    let stream = || [1, 0, -1, 0].into_iter().cycle();
    assert_eq!(run_sprt(&sprt, stream().take(2000)), None, "undecided after 2000 games");
    let (decision, games) = run_sprt(&sprt, stream().take(100_000)).unwrap();
    assert_eq!(decision, SprtDecision::AcceptH0);
    assert!((3540..=3570).contains(&games), "decided after {games} games");
}

/// splitmix64: a small deterministic generator, so the simulated matches below are the
/// same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `runs` simulated matches with win/draw probabilities `p_win`, `p_draw` and counts
/// the decisions: (H0 accepted, H1 accepted, undecided after 200 000 games).
fn simulate(sprt: &Sprt, p_win: f64, p_draw: f64, runs: u32, seed: u64) -> (u32, u32, u32) {
    let mut rng = SplitMix(seed);
    let mut counts = (0, 0, 0);
    for _ in 0..runs {
        let stream = std::iter::repeat_with(|| {
            let u = rng.next_unit();
            if u < p_win {
                1
            } else if u < p_win + p_draw {
                0
            } else {
                -1
            }
        });
        match run_sprt(sprt, stream.take(200_000)) {
            Some((SprtDecision::AcceptH0, _)) => counts.0 += 1,
            Some((SprtDecision::AcceptH1, _)) => counts.1 += 1,
            None => counts.2 += 1,
        }
    }
    counts
}

#[test]
fn sprt_error_rates_are_near_alpha_and_beta_on_random_streams() {
    let sprt = Sprt::parse("0,10").unwrap();
    let s1 = fraction_from_elo(10.0);
    // Under H0 (score exactly 0.5, 40% draws): H1 is accepted about α = 5% of the time.
    let (h0, h1, open) = simulate(&sprt, 0.3, 0.4, 400, 1);
    eprintln!("at elo0: H0 {h0}, H1 {h1}, undecided {open}");
    assert_eq!(open, 0);
    assert!(h1 <= 40, "H1 accepted in {h1} of 400 matches at elo0");
    // Under H1 (score s1): H0 is accepted about β = 5% of the time.
    let shift = s1 - 0.5;
    let (h0, h1, open) = simulate(&sprt, 0.3 + shift, 0.4, 400, 2);
    eprintln!("at elo1: H0 {h0}, H1 {h1}, undecided {open}");
    assert_eq!(open, 0);
    assert!(h0 <= 40, "H0 accepted in {h0} of 400 matches at elo1");
}
