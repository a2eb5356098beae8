//! The JSON-lines record of a tournament: a header line with the tournament's settings, then
//! one line per finished game, appended and synced the moment the game ends. A killed
//! tournament resumes from it: finished games are kept, a line cut short by the kill is dropped.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, TryLockError};
use std::time::Duration;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use thiserror::Error;
use zerosum_core::capped_read::{self, CappedLines, CappedReadError};

use crate::records::record::GameRecord;
use crate::shard::Shard;

/// Held while a record file is written, by every record file of the process: [`freeze_writes`]
/// takes it for good.
static WRITING: Mutex<()> = Mutex::new(());

/// Version of the record format, written in the header.
pub const FORMAT_VERSION: u32 = 1;

/// Largest record file read: 4 GiB (10 million games of a few hundred bytes each).
pub const MAX_RECORD_BYTES: u64 = 4 << 30;

/// Longest line of a record file: 1 MiB (a game of 10,000 moves takes about 150 kB).
pub const MAX_RECORD_LINE_BYTES: u64 = 1 << 20;

/// Why a record file cannot be written or read.
#[derive(Debug, Error)]
pub enum RecordFileError {
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: io::Error },
    /// Past the caps ([`MAX_RECORD_BYTES`], [`MAX_RECORD_LINE_BYTES`]), or unreadable.
    #[error("{0}")]
    Read(CappedReadError),
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
    /// The part of the schedule the record plays, when it plays one part (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
    /// How many games it plays at once (`--concurrency`), which a resume keeps unless told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    concurrency: Option<usize>,
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
    /// The part of the schedule the record plays, if it plays only one.
    pub shard: Option<Shard>,
    /// How many games it was played at once, if the header says (older records do not).
    pub concurrency: Option<usize>,
    /// The finished games, in the order they ended, each once.
    pub games: Vec<GameRecord>,
    /// What reading the record dropped, one sentence each (an unfinished last line, a
    /// repeated game line), for the caller to show.
    pub notes: Vec<String>,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RecordFileError + '_ {
    move |error| RecordFileError::Io {
        path: path.to_path_buf(),
        error,
    }
}

impl RecordWriter {
    /// Creates a new record with `settings`, the `shard` it plays (if it plays one) and the
    /// number of games played at once (if it is played) in its header; an existing file is an
    /// error, never overwritten.
    pub fn create<C: Serialize>(
        path: &Path,
        settings: &C,
        shard: Option<Shard>,
        concurrency: Option<usize>,
    ) -> Result<Self, RecordFileError> {
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
            shard,
            concurrency,
        };
        writer.write_line(&serde_json::to_string(&header).expect("settings serialise"))?;
        Ok(writer)
    }

    /// Reads a record and reopens it for appending. A last line a kill left unfinished is cut
    /// off and a line repeating an earlier one exactly is dropped (each with a note in
    /// [`RecordContents::notes`]; the file is rewritten without the repeats), so every game
    /// comes back once. Refused: two different lines for one game, a game line without its
    /// schedule index, and anything else that is not a game line.
    pub fn resume<C: DeserializeOwned>(
        path: &Path,
    ) -> Result<(Self, RecordContents<C>), RecordFileError> {
        let parsed = parse(path, Reading::Resume)?;
        if parsed.repeats {
            rewrite(path, &parsed.kept)?;
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        if !parsed.repeats {
            file.set_len(parsed.complete).map_err(io_error(path))?;
        }
        let mut writer = RecordWriter {
            path: path.to_path_buf(),
            file,
        };
        writer
            .file
            .seek(io::SeekFrom::End(0))
            .map_err(io_error(path))?;
        Ok((writer, parsed.contents))
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
        // One write per line, its newline last: a kill leaves at most one unfinished line, and
        // that line has no newline, so resume recognises and drops it.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let _writing = WRITING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.file.write_all(&bytes).map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}

/// Stops every record write of this process for good, for a process about to exit: waits for
/// a write under way to end (unless `hurry` is raised: then false), and from then on every
/// write blocks. So the process's end cuts no line, and no game it cut short (an engine it
/// ended, lost on forfeit) reaches a record.
pub(crate) fn freeze_writes(hurry: &AtomicBool) -> bool {
    loop {
        let guard = match WRITING.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) if hurry.load(Ordering::SeqCst) => return false,
            Err(TryLockError::WouldBlock) => {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
        };
        std::mem::forget(guard);
        return true;
    }
}

/// Reads a record without changing it (it may be one a tournament is still writing): as
/// [`RecordWriter::resume`] reads it, an unfinished last line and exact repeats dropped with a
/// note, but the file left as it is.
pub fn read_record<C: DeserializeOwned>(path: &Path) -> Result<RecordContents<C>, RecordFileError> {
    Ok(parse(path, Reading::Look)?.contents)
}

/// Why a record is read: to resume it (an unfinished line is cut off and its game played
/// again), or to look at it (the file stays as it is).
#[derive(Clone, Copy)]
enum Reading {
    Resume,
    Look,
}

/// A record, read.
struct Parsed<C> {
    contents: RecordContents<C>,
    /// Bytes of the complete lines (those ended by a newline).
    complete: u64,
    /// The lines to keep: the header and each game's first line.
    kept: Vec<String>,
    /// Whether a line repeated an earlier one (and was dropped).
    repeats: bool,
}

/// Reads the record at `path` line by line, within [`MAX_RECORD_BYTES`] and
/// [`MAX_RECORD_LINE_BYTES`] a line, each line checked as it comes (so that a file that is no
/// record is refused at its first line).
fn parse<C: DeserializeOwned>(path: &Path, reading: Reading) -> Result<Parsed<C>, RecordFileError> {
    let corrupt = |line: u64, reason: String| RecordFileError::Corrupt {
        path: path.to_path_buf(),
        line: line as usize,
        reason,
    };
    let capped = |problem| RecordFileError::Read(CappedReadError::new(path, problem));
    let file = capped_read::open_file(path, MAX_RECORD_BYTES).map_err(RecordFileError::Read)?;
    let mut lines = CappedLines::new(io::BufReader::new(file), MAX_RECORD_LINE_BYTES);
    // Only lines ended by a newline were completely written (the newline is the last byte
    // of each line's single write).
    let mut complete = 0u64;
    let mut unfinished = 0usize;
    let mut next_line = |lines: &mut CappedLines<_>| -> Result<Option<String>, RecordFileError> {
        let Some(line) = lines.next_line().map_err(capped)? else {
            return Ok(None);
        };
        if !line.ended {
            unfinished = line.bytes.len();
            return Ok(None);
        }
        complete += line.bytes.len() as u64 + 1;
        let mut text = String::from_utf8(line.bytes)
            .map_err(|_| corrupt(lines.count(), "not UTF-8 text".into()))?;
        if text.ends_with('\r') {
            text.pop();
        }
        Ok(Some(text))
    };
    let Some(header_line) = next_line(&mut lines)? else {
        return Err(corrupt(
            1,
            "no complete header line (the tournament was stopped before its record was \
             started: remove the file and start again)"
                .into(),
        ));
    };
    let header: Header<C> = serde_json::from_str(&header_line)
        .map_err(|e| corrupt(1, format!("not a zerosum record header ({e})")))?;
    if header.zerosum_record != FORMAT_VERSION {
        return Err(corrupt(
            1,
            format!(
                "record format {} (this zerosum reads format {FORMAT_VERSION})",
                header.zerosum_record
            ),
        ));
    }
    let mut notes = Vec::new();
    let mut kept: Vec<String> = vec![header_line];
    let mut repeats = false;
    let mut games: Vec<GameRecord> = Vec::new();
    // Where each game was first seen: its place in `games` and its line number.
    let mut seen: HashMap<usize, (usize, u64)> = HashMap::new();
    while let Some(line) = next_line(&mut lines)? {
        let number = lines.count();
        if line.trim().is_empty() {
            continue;
        }
        let record = parse_game_line(&line).map_err(|reason| corrupt(number, reason))?;
        match seen.get(&record.game) {
            None => {
                seen.insert(record.game, (games.len(), number));
                games.push(record);
                kept.push(line);
            }
            Some(&(at, first_line)) if games[at] == record => {
                repeats = true;
                notes.push(format!(
                    "dropped line {number}: it repeats game {} of line {first_line}",
                    record.game as u128 + 1
                ));
            }
            Some(&(_, first_line)) => {
                return Err(corrupt(
                    number,
                    format!(
                        "game {} is recorded twice with different results (also on line \
                         {first_line}); keep one of the two lines",
                        record.game as u128 + 1
                    ),
                ))
            }
        }
    }
    if unfinished > 0 {
        notes.insert(
            0,
            match reading {
                Reading::Resume => format!(
                    "dropped an unfinished last line ({unfinished} bytes, cut short by a kill); \
                     its game will be played again"
                ),
                Reading::Look => format!(
                    "left out an unfinished last line ({unfinished} bytes: being written, or \
                     cut short by a kill)"
                ),
            },
        );
    }
    Ok(Parsed {
        contents: RecordContents {
            settings: header.settings,
            shard: header.shard,
            concurrency: header.concurrency,
            games,
            notes,
        },
        complete,
        kept,
        repeats,
    })
}

/// One game line, or why it is not one.
fn parse_game_line(line: &str) -> Result<GameRecord, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not a game record ({e})"))?;
    if value.is_object() && value.get("game").is_none() {
        return Err(
            "a game line without its schedule index (`game`): zerosum cannot tell which game of \
             the schedule it is"
                .into(),
        );
    }
    serde_json::from_value(value).map_err(|e| format!("not a game record ({e})"))
}

/// Replaces the record at `path` by `lines` (each ended by a newline): written to a file beside
/// it, synced, then renamed over it, so a kill leaves either the old record or the new one.
fn rewrite(path: &Path, lines: &[String]) -> Result<(), RecordFileError> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".rewrite");
    let temporary = path.with_file_name(name);
    let mut bytes = Vec::new();
    for line in lines {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    let _writing = WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut file = File::create(&temporary).map_err(io_error(&temporary))?;
    file.write_all(&bytes).map_err(io_error(&temporary))?;
    file.sync_all().map_err(io_error(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io_error(path))
}
