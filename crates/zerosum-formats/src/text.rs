//! Small helpers the formats share.

use zerosum_core::Side;
use zerosum_games::GameSpec;

/// Largest file a reader accepts, in bytes (16 MiB): longer is refused, not read.
pub const MAX_FILE_BYTES: usize = 16 << 20;

/// The line (from 1) of byte `offset` of `text`.
pub fn line_at(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Lines of offsets met in increasing order, counted once: a reader asking the line of every
/// item of a long file stays linear.
#[derive(Default)]
pub struct LineCounter {
    offset: usize,
    line: usize,
}

impl LineCounter {
    /// The line (from 1) of byte `offset` of `text`.
    pub fn at(&mut self, text: &str, offset: usize) -> usize {
        let offset = offset.min(text.len());
        if offset < self.offset || self.line == 0 {
            self.offset = 0;
            self.line = 1;
        }
        self.line += text.as_bytes()[self.offset..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.offset = offset;
        self.line
    }
}

/// True when the stone colours of the side to move at `ply` are Black's (`B`): the first
/// player has Black, unless a swap that exchanges colours (Hex `swap-sides`, Atoll `swap`: see
/// [`zerosum_games::Family::swap_exchanges_colours`]) was the second move.
pub fn black_moves(spec: &GameSpec, moves: &[String], ply: usize) -> bool {
    let exchanging = spec.family().swap_exchanges_colours(spec);
    let exchanged = exchanging && ply >= 2 && moves.get(1).is_some_and(|mv| mv.starts_with("swap"));
    (Side::at_ply(ply) == Side::First) != exchanged
}

/// Refuses a text longer than [`MAX_FILE_BYTES`].
pub fn check_size(text: &str) -> Result<(), crate::FormatError> {
    match text.len() > MAX_FILE_BYTES {
        true => Err(crate::FormatError::new(
            1,
            format!("the file is longer than {MAX_FILE_BYTES} bytes"),
        )),
        false => Ok(()),
    }
}
