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
/// unset, bf16 where the machine runs it, else fp32. int8 is asked for by name: it does
/// not yet pass the accuracy bar bf16 passes (docs/architecture.md, "Precision").
pub const PRECISION_VARIABLE: &str = "XIANGQI_ZERO_PRECISION";

impl Precision {
    /// The precision this CPU runs the forward pass in: [`PRECISION_VARIABLE`]'s where the
    /// CPU has it (else f32, said once on stderr), or the default.
    pub fn for_this_cpu() -> Precision {
        static CHOSEN: OnceLock<Precision> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let default = if has_bf16() { Precision::Bf16 } else { Precision::F32 };
            let asked = std::env::var(PRECISION_VARIABLE).unwrap_or_default();
            let (precision, runs) = match asked.as_str() {
                "" => (default, true),
                "fp32" | "f32" => (Precision::F32, true),
                "bf16" => (Precision::Bf16, has_bf16()),
                "int8" => (Precision::Int8, has_vnni()),
                other => {
                    eprintln!("{PRECISION_VARIABLE}={other} is not fp32, bf16 or int8: running {}", default.name());
                    return default;
                }
            };
            if !runs {
                eprintln!("{PRECISION_VARIABLE}={asked}: this CPU does not run {asked}; running fp32");
                return Precision::F32;
            }
            precision
        })
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
