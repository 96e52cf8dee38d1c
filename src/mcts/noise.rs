//! The random draws of the root: Dirichlet noise for PUCT, Gumbel noise for Gumbel
//! search. A few lines each, so no distribution crate is needed.

use rand::Rng;

/// A draw from the standard normal distribution (Box–Muller).
fn normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A draw from Gamma(`alpha`, 1) (Marsaglia and Tsang; for `alpha` < 1 boosted by
/// `U^(1/alpha)`).
pub fn gamma<R: Rng + ?Sized>(rng: &mut R, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u: f64 = 1.0 - rng.random::<f64>();
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = 1.0 - rng.random::<f64>();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Fills `out` with a draw from the symmetric Dirichlet distribution of concentration
/// `alpha` over `out.len()` components.
pub fn dirichlet<R: Rng + ?Sized>(rng: &mut R, alpha: f32, out: &mut [f32]) {
    let draws: Vec<f64> = (0..out.len()).map(|_| gamma(rng, alpha as f64)).collect();
    let total: f64 = draws.iter().sum();
    if total > 0.0 && total.is_finite() {
        for (o, g) in out.iter_mut().zip(draws) {
            *o = (g / total) as f32;
        }
    } else if !out.is_empty() {
        // Every draw underflowed (a tiny alpha): all the mass on one component.
        out.fill(0.0);
        let pick = rng.random_range(0..out.len());
        out[pick] = 1.0;
    }
}

/// A draw from the standard Gumbel distribution, `−ln(−ln U)`.
pub fn gumbel<R: Rng + ?Sized>(rng: &mut R) -> f32 {
    let u: f64 = rng.random::<f64>().clamp(1e-12, 1.0 - 1e-12);
    (-(-u.ln()).ln()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn gamma_has_the_right_mean() {
        let mut rng = StdRng::seed_from_u64(1);
        for alpha in [0.1, 0.5, 1.0, 3.0] {
            let n = 20_000;
            let mean: f64 = (0..n).map(|_| gamma(&mut rng, alpha)).sum::<f64>() / n as f64;
            assert!((mean - alpha).abs() < 0.05 * alpha.max(1.0), "alpha {alpha}: mean {mean}");
        }
    }

    #[test]
    fn dirichlet_sums_to_one() {
        let mut rng = StdRng::seed_from_u64(2);
        let mut out = [0.0; 40];
        for alpha in [0.01, 0.3, 2.0] {
            dirichlet(&mut rng, alpha, &mut out);
            assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert!(out.iter().all(|&x| x >= 0.0));
        }
    }

    #[test]
    fn gumbel_has_the_right_mean() {
        let mut rng = StdRng::seed_from_u64(3);
        let n = 50_000;
        let mean: f32 = (0..n).map(|_| gumbel(&mut rng)).sum::<f32>() / n as f32;
        assert!((mean - 0.5772).abs() < 0.02, "{mean}");
    }
}
