//! Game files from the arena's records: each finished game as SGF (Hex, Atoll), PSQ (m,n,k)
//! or PGN-style text (every game), see [`zerosum_formats`]. `zerosum export` writes a whole
//! record (read as [`crate::merge_records`] reads it); [`write_game`] writes one game as it
//! finishes (for `--pgnout`-style options).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use thiserror::Error;
use zerosum_formats::{Format, GameFile};

use crate::records::record::GameRecord;

/// Why a game file cannot be written.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The format cannot hold this game (SGF: Hex and Atoll; PSQ: m,n,k).
    #[error("game {game}: {reason}")]
    Unsupported { game: u128, reason: String },
    #[error("game {game}: {reason}")]
    BadRecord { game: u128, reason: String },
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// The game file of a record.
pub fn game_file(record: &GameRecord) -> Result<GameFile, ExportError> {
    let spec = record
        .spec
        .parse()
        .map_err(|error| ExportError::BadRecord {
            game: record.game as u128 + 1,
            reason: format!("{error}"),
        })?;
    let mut file = GameFile::new(spec, record.moves.clone());
    file.first_name = Some(record.first_name.clone());
    file.second_name = Some(record.second_name.clone());
    file.move_ms = record.move_ms.clone();
    file.outcome = Some(record.outcome);
    file.termination = Some(record.termination.name().to_string());
    file.reason = Some(record.reason.clone());
    Ok(file)
}

/// Writes the finished game `record` in `format` under `dir`, named from `stem`: PGN games
/// are appended to `STEM.pgn` (one file for all, as chess tools do), SGF and PSQ games each
/// get `STEM-N.sgf` / `STEM-N.psq` (N the game's number from 1). Returns the file written.
pub fn write_game(
    record: &GameRecord,
    format: Format,
    dir: &Path,
    stem: &str,
) -> Result<PathBuf, ExportError> {
    let number = record.game as u128 + 1;
    let text = format
        .write(&game_file(record)?)
        .map_err(|reason| ExportError::Unsupported {
            game: number,
            reason,
        })?;
    let path = match format {
        Format::Pgn => dir.join(format!("{stem}.pgn")),
        _ => dir.join(format!("{stem}-{number}.{}", format.name())),
    };
    let io = |error| ExportError::Io {
        path: path.clone(),
        error,
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(format == Format::Pgn)
        .write(true)
        .truncate(format != Format::Pgn)
        .open(&path)
        .map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    Ok(path)
}
