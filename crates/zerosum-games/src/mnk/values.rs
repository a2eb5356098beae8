//! The bands of an m,n,k evaluation, shared by the window evaluator ([`super::MnkEvaluator`]) and
//! the pattern evaluation: a threat found on the board scores above every static value, and the
//! nearer the win the higher the band.

/// The side to move has a winning cell.
pub const WIN_NEXT: i32 = 18_000;
/// The opponent has two winning cells and the side to move none.
pub const LOSS_NEXT: i32 = 17_000;
/// The side to move wins by continuous fours (less 10 per ply of the line).
pub const VCF_WIN: i32 = 16_000;
/// Static values are clamped to `±STATIC_LIMIT`, below every threat value.
pub const STATIC_LIMIT: i32 = 10_000;
