//! The JSON-lines record of a tournament: a header line with the tournament's settings, then
//! one line per finished game, appended and synced the moment the game ends. A killed
//! tournament resumes from it: finished games are kept, a line cut short by the kill is dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use thiserror::Error;

use crate::record::GameRecord;

/// Version of the record format, written in the header.
pub const FORMAT_VERSION: u32 = 1;

/// Why a record file cannot be written or read.
#[derive(Debug, Error)]
pub enum RecordFileError {
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: io::Error },
    #[error("{0} already exists: resume it with --resume, or name another file")]
    Exists(PathBuf),
    #[error("{path}, line {line}: {reason}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        reason: String,
    },
}

/// The first line of a record file.
#[derive(Serialize, Deserialize)]
struct Header<C> {
    zerosum_record: u32,
    settings: C,
}

/// An open record file, positioned at its end.
pub struct RecordWriter {
    path: PathBuf,
    file: File,
}

/// What a record file holds.
pub struct RecordContents<C> {
    /// The settings the tournament was started with.
    pub settings: C,
    /// The finished games, in the order they ended.
    pub games: Vec<GameRecord>,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RecordFileError + '_ {
    move |error| RecordFileError::Io {
        path: path.to_path_buf(),
        error,
    }
}

impl RecordWriter {
    /// Creates a new record with `settings` in its header; an existing file is an error, never
    /// overwritten.
    pub fn create<C: Serialize>(path: &Path, settings: &C) -> Result<Self, RecordFileError> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|error| match error.kind() {
                io::ErrorKind::AlreadyExists => RecordFileError::Exists(path.to_path_buf()),
                _ => io_error(path)(error),
            })?;
        let mut writer = RecordWriter {
            path: path.to_path_buf(),
            file,
        };
        let header = Header {
            zerosum_record: FORMAT_VERSION,
            settings,
        };
        writer.write_line(&serde_json::to_string(&header).expect("settings serialise"))?;
        Ok(writer)
    }

    /// Reads a record and reopens it for appending, first cutting off a last line that a kill
    /// left unfinished.
    pub fn resume<C: DeserializeOwned>(
        path: &Path,
    ) -> Result<(Self, RecordContents<C>), RecordFileError> {
        let text = std::fs::read(path).map_err(io_error(path))?;
        let corrupt = |line: usize, reason: String| RecordFileError::Corrupt {
            path: path.to_path_buf(),
            line,
            reason,
        };
        // Only lines ended by a newline were completely written.
        let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let text = std::str::from_utf8(&text[..complete])
            .map_err(|_| corrupt(1, "not UTF-8 text".into()))?;
        let mut lines = text.lines().enumerate();
        let header: Header<C> = match lines.next() {
            Some((_, line)) => serde_json::from_str(line)
                .map_err(|e| corrupt(1, format!("not a zerosum record header ({e})")))?,
            None => return Err(corrupt(1, "empty: no header line".into())),
        };
        if header.zerosum_record != FORMAT_VERSION {
            return Err(corrupt(
                1,
                format!(
                    "record format {} (this zerosum reads format {FORMAT_VERSION})",
                    header.zerosum_record
                ),
            ));
        }
        let mut games = Vec::new();
        for (index, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let record: GameRecord = serde_json::from_str(line)
                .map_err(|e| corrupt(index + 1, format!("not a game record ({e})")))?;
            games.push(record);
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        file.set_len(complete as u64).map_err(io_error(path))?;
        let mut writer = RecordWriter {
            path: path.to_path_buf(),
            file,
        };
        writer
            .file
            .seek(io::SeekFrom::End(0))
            .map_err(io_error(path))?;
        Ok((
            writer,
            RecordContents {
                settings: header.settings,
                games,
            },
        ))
    }

    /// Appends a finished game and syncs it to disk before returning.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), RecordFileError> {
        self.write_line(&serde_json::to_string(record).expect("records serialise"))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write_line(&mut self, line: &str) -> Result<(), RecordFileError> {
        // One write per line, so a kill leaves at most one unfinished line.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file.write_all(&bytes).map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}
