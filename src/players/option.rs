//! An option a player offers a GUI — a number within a range — and how UCI and UCCI
//! each write it in the handshake.

/// A numeric (`spin`) option a player offers a GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// Its UCI name (`Hash`, `MultiPV`); UCCI's is [`SpinOption::ucci_name`].
    pub name: &'static str,
    /// Its value until the GUI sets it.
    pub default: usize,
    /// The smallest value allowed.
    pub min: usize,
    /// The largest value allowed.
    pub max: usize,
}

impl SpinOption {
    /// The UCI line: `option name Hash type spin default 16 min 1 max 4096`.
    pub fn uci(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name, self.default, self.min, self.max)
    }

    /// The name UCCI knows it by: `hashsize` for the hash table (as ElephantEye names
    /// it), else the UCI name in lower case (`multipv`, `threads`).
    pub fn ucci_name(&self) -> String {
        if self.name.eq_ignore_ascii_case("Hash") {
            "hashsize".to_string()
        } else {
            self.name.to_ascii_lowercase()
        }
    }

    /// The UCCI line, in ElephantEye's order: `option hashsize type spin min 1 max 4096
    /// default 16`.
    pub fn ucci(&self) -> String {
        format!("option {} type spin min {} max {} default {}", self.ucci_name(), self.min, self.max, self.default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_in_each_protocols_syntax() {
        let hash = SpinOption { name: "Hash", default: 16, min: 1, max: 4096 };
        assert_eq!(hash.uci(), "option name Hash type spin default 16 min 1 max 4096");
        assert_eq!(hash.ucci(), "option hashsize type spin min 1 max 4096 default 16");
        let lines = SpinOption { name: "MultiPV", default: 1, min: 1, max: 128 };
        assert_eq!(lines.ucci(), "option multipv type spin min 1 max 128 default 1");
    }
}
