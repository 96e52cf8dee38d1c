//! Why a run stopped with an error, in one line: what the generation loop and the parts it
//! calls (the ladder, self-play workers, the speed probe) return.

/// Why a run stopped with an error: one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RunError(pub String);

/// Turns any displayable error into a [`RunError`].
pub(super) fn fail(error: impl std::fmt::Display) -> RunError {
    RunError(error.to_string())
}
