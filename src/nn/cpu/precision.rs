//! The precision of the 3×3 convolutions' products, chosen once for the CPU.

use super::bf16::has_bf16;

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
}

/// The environment variable that chooses the precision: `fp32` forces f32; unset (or
/// `bf16`), bf16 where the machine runs it ([`has_bf16`]).
pub const PRECISION_VARIABLE: &str = "XIANGQI_ZERO_PRECISION";

impl Precision {
    /// The best precision this CPU runs, unless [`PRECISION_VARIABLE`] says `fp32`.
    pub fn for_this_cpu() -> Precision {
        match std::env::var(PRECISION_VARIABLE).as_deref() {
            Ok("fp32" | "f32") => Precision::F32,
            _ if has_bf16() => Precision::Bf16,
            _ => Precision::F32,
        }
    }

    /// `bf16` or `fp32`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F32 => "fp32",
            Precision::Bf16 => "bf16",
        }
    }
}
