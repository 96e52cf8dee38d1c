//! The precision of the 3×3 convolutions' products, chosen once for the CPU.

use std::sync::OnceLock;

use super::bf16::has_bf16;
use super::int8::has_vnni;

/// The precision of the 3×3 convolutions' products.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Precision {
    /// f32 throughout.
    #[default]
    #[serde(rename = "fp32")]
    F32,
    /// bf16 products summed in f32 (AMX).
    #[serde(rename = "bf16")]
    Bf16,
    /// int8 products summed in int32 (VNNI), for the forward pass's trunk.
    #[serde(rename = "int8")]
    Int8,
}

/// The environment variable that chooses the forward pass's precision: `fp32`, `bf16`
/// (where the machine runs it, [`has_bf16`]) or `int8` (where it has VNNI, [`has_vnni`]);
/// unset, bf16 where the machine runs it, else fp32, for play and analysis, and the
/// fastest for self-play ([`Precision::for_self_play`]). int8 is not play's default: it
/// does not yet pass the accuracy bar bf16 passes (docs/architecture.md, "Precision").
pub const PRECISION_VARIABLE: &str = "XIANGQI_ZERO_PRECISION";

impl Precision {
    /// The precision this CPU runs the forward pass in: [`PRECISION_VARIABLE`]'s where the
    /// CPU has it (else f32, said once on stderr), or the default.
    pub fn for_this_cpu() -> Precision {
        static CHOSEN: OnceLock<Precision> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let default = if has_bf16() { Precision::Bf16 } else { Precision::F32 };
            Precision::asked().unwrap_or(default)
        })
    }

    /// The precision self-play runs in: [`PRECISION_VARIABLE`]'s where it is set, else
    /// `configured` where the CPU runs it (else f32, said on stderr), else the fastest
    /// this CPU runs.
    pub fn for_self_play(configured: Option<Precision>) -> Precision {
        if std::env::var_os(PRECISION_VARIABLE).is_some() {
            return Precision::for_this_cpu();
        }
        match configured {
            Some(precision) if precision.runs_here() => precision,
            Some(precision) => {
                eprintln!("[selfplay] precision = \"{}\": this CPU does not run it; running fp32", precision.name());
                Precision::F32
            }
            None => Precision::fastest_for_this_cpu(),
        }
    }

    /// The fastest precision this CPU runs: int8 where it has VNNI (also ahead of AMX's
    /// bf16 on a CPU with both: 1.43× at batch 64 for the 4×32 net, 1.07× for 6×64), else
    /// bf16 where it has AMX, else fp32. Self-play's default: int8 self-play beat fp32
    /// self-play side by side at equal time (docs/experiments.md, 2026-12-06), although
    /// int8's best move differs from fp32's on 2% of positions, too often for play and
    /// analysis.
    pub fn fastest_for_this_cpu() -> Precision {
        [Precision::Int8, Precision::Bf16].into_iter().find(|p| p.runs_here()).unwrap_or(Precision::F32)
    }

    /// Every precision this CPU runs: fp32, then bf16 and int8 where it has them.
    pub fn available() -> Vec<Precision> {
        [Precision::F32, Precision::Bf16, Precision::Int8].into_iter().filter(|p| p.runs_here()).collect()
    }

    /// Whether this CPU runs the precision.
    pub fn runs_here(self) -> bool {
        match self {
            Precision::F32 => true,
            Precision::Bf16 => has_bf16(),
            Precision::Int8 => has_vnni(),
        }
    }

    /// The precision [`PRECISION_VARIABLE`] asks for where it is set: that one where the
    /// CPU runs it, else f32 (said once on stderr).
    fn asked() -> Option<Precision> {
        let asked = std::env::var(PRECISION_VARIABLE).ok().filter(|asked| !asked.is_empty())?;
        let precision = match asked.as_str() {
            "fp32" | "f32" => Precision::F32,
            "bf16" => Precision::Bf16,
            "int8" => Precision::Int8,
            other => {
                eprintln!("{PRECISION_VARIABLE}={other} is not fp32, bf16 or int8: running fp32");
                return Some(Precision::F32);
            }
        };
        if !precision.runs_here() {
            eprintln!("{PRECISION_VARIABLE}={asked}: this CPU does not run {asked}; running fp32");
            return Some(Precision::F32);
        }
        Some(precision)
    }

    /// `bf16` or `fp32`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Int8 => "int8",
        }
    }
}
