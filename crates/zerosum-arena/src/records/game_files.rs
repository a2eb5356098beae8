//! Game files written as a run's games finish (`--pgnout`, `--sgfout` and `--psqout` of `match`
//! and `tournament`), as cutechess writes its PGN: every game appended to one PGN-style text
//! file, or each game in a file of its own (SGF, PSQ) in a folder, named after the record.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use thiserror::Error;
use zerosum_formats::Format;
use zerosum_games::GameSpec;

use crate::records::export::{game_file, write_game, ExportError};
use crate::records::record::GameRecord;

/// The game files a run asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFileOptions {
    /// Append every finished game to this file as PGN-style text (every game).
    pub pgn: Option<PathBuf>,
    /// Write every finished game into this folder as an SGF file (Hex and Atoll).
    pub sgf: Option<PathBuf>,
    /// Write every finished game into this folder as a PSQ file (m,n,k games).
    pub psq: Option<PathBuf>,
}

impl GameFileOptions {
    /// Whether any game file is asked for.
    pub fn is_set(&self) -> bool {
        self.pgn.is_some() || self.sgf.is_some() || self.psq.is_some()
    }
}

/// Why the game files cannot be written; each message names the option (`--sgfout: ...`).
#[derive(Debug, Error)]
pub enum GameFilesError {
    /// A format cannot hold one of the run's games.
    #[error("--{option}out: {files} files hold {holds}, not {spec}")]
    Unsupported {
        option: &'static str,
        files: String,
        holds: &'static str,
        spec: String,
    },
    /// A folder cannot be created or a file cannot be written (the cause is the source).
    #[error("--{option}out: cannot {action} {}", path.display())]
    Io {
        option: &'static str,
        action: &'static str,
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// A game cannot be written as a game file.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A game cannot be written as PGN-style text.
    #[error("{0}")]
    Pgn(String),
}

/// Where the finished games go, checked before the first game.
pub struct GameFiles {
    pgn: Option<PathBuf>,
    /// The folders of the one-file-per-game formats, and their formats.
    folders: Vec<(Format, PathBuf)>,
    /// The record's file name without its extension: the game files' names start with it.
    stem: String,
}

impl GameFiles {
    /// The game files of `options` for a run of `games` whose record is `record`: an error
    /// before any game is played when a format cannot hold one of the games, or a file or
    /// folder cannot be written (folders are created, the PGN file is opened for appending).
    pub fn open(
        options: &GameFileOptions,
        games: &[GameSpec],
        record: &Path,
    ) -> Result<GameFiles, GameFilesError> {
        let folders: Vec<(Format, PathBuf)> =
            [(Format::Sgf, &options.sgf), (Format::Psq, &options.psq)]
                .into_iter()
                .filter_map(|(format, dir)| Some((format, dir.clone()?)))
                .collect();
        for (format, dir) in &folders {
            if let Some(spec) = games.iter().find(|spec| !format.holds(spec)) {
                return Err(GameFilesError::Unsupported {
                    option: format.name(),
                    files: format.name().to_uppercase(),
                    holds: match format {
                        Format::Sgf => "Hex and Atoll games",
                        _ => "m,n,k games",
                    },
                    spec: spec.to_string(),
                });
            }
            fs::create_dir_all(dir).map_err(|error| GameFilesError::Io {
                option: format.name(),
                action: "create",
                path: dir.clone(),
                error,
            })?;
        }
        if let Some(path) = &options.pgn {
            open_append(path).map_err(|error| pgn_unwritable(path, error))?;
        }
        let stem = record
            .file_stem()
            .map_or_else(|| "game".into(), |stem| stem.to_string_lossy().into_owned());
        Ok(GameFiles {
            pgn: options.pgn.clone(),
            folders,
            stem,
        })
    }

    /// Writes the finished game `record` to every game file.
    pub fn write(&self, record: &GameRecord) -> Result<(), GameFilesError> {
        if let Some(path) = &self.pgn {
            let text = Format::Pgn
                .write(&game_file(record)?)
                .map_err(GameFilesError::Pgn)?;
            open_append(path)
                .and_then(|mut file| file.write_all(text.as_bytes()))
                .map_err(|error| pgn_unwritable(path, error))?;
        }
        for (format, dir) in &self.folders {
            write_game(record, *format, dir, &self.stem)?;
        }
        Ok(())
    }
}

fn pgn_unwritable(path: &Path, error: std::io::Error) -> GameFilesError {
    GameFilesError::Io {
        option: "pgn",
        action: "write",
        path: path.to_path_buf(),
        error,
    }
}

fn open_append(path: &Path) -> std::io::Result<fs::File> {
    OpenOptions::new().create(true).append(true).open(path)
}
