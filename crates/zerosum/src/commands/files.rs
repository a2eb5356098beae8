//! Game files: `zerosum export` (a record's games as SGF, PSQ or PGN-style text) and the
//! `--file` of `zerosum show` (a position from such a file).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use zerosum_arena::records::export::{write_game, ExportError};
use zerosum_core::capped_read::read_text_file;
use zerosum_formats::{Format, GameFile};
use zerosum_games::{DynGame, GameSpec};

/// Options of `zerosum export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The record (the JSON lines a match or tournament writes).
    record: PathBuf,
    /// sgf (Hex, Atoll), psq (m,n,k) or pgn (every game).
    #[arg(long, value_name = "FORMAT")]
    format: String,
    /// Folder of the files (default: the record's). PGN games go to one file, RECORD.pgn;
    /// SGF and PSQ games to one file each, RECORD-N.sgf.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Largest game file read: 16 MiB.
const MAX_GAME_FILE_BYTES: u64 = 16 << 20;

/// `zerosum export RECORD --format F [--out DIR]`: every game the format can hold; the others
/// are counted and named, and an error if no game could be written.
pub fn export(args: &ExportArgs) -> Result<()> {
    let format = parse_format(&args.format)?;
    let games = super::merge::read_one(&args.record)?.games;
    let (dir, stem) = files_beside(&args.record, args.out.as_deref(), "games")?;
    if format == Format::Pgn {
        // One file for the whole record, written afresh.
        let path = dir.join(format!("{stem}.pgn"));
        if path.exists() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot replace {}", path.display()))?;
        }
    }
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    for record in &games {
        match write_game(record, format, &dir, &stem) {
            Ok(path) => written.push(path),
            Err(ExportError::Unsupported { game, reason }) => {
                skipped.push(format!("{game} ({reason})"))
            }
            Err(error) => return Err(error.into()),
        }
    }
    if written.is_empty() {
        match skipped.first() {
            Some(first) => bail!(
                "{}: no game can be written as {}: game {first}",
                args.record.display(),
                format.name()
            ),
            None => bail!("{}: the record holds no game", args.record.display()),
        }
    }
    written.dedup();
    let files = match format {
        Format::Pgn => written[0].display().to_string(),
        _ => format!("{} files in {}", written.len(), dir.display()),
    };
    outln!(
        "wrote {} of {} games: {files}",
        games.len() - skipped.len(),
        games.len()
    );
    if !skipped.is_empty() {
        outln!("skipped {} games: {}", skipped.len(), skipped.join(", "));
    }
    Ok(())
}

/// Where the files made from `record` go: `out` if given, else the record's folder (created if
/// missing), and the stem of their names: the record's, or `fallback` if it has none.
pub fn files_beside(
    record: &Path,
    out: Option<&Path>,
    fallback: &str,
) -> Result<(PathBuf, String)> {
    let dir = match out {
        Some(dir) => dir.to_path_buf(),
        None => match record.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        },
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let stem = record
        .file_stem()
        .map_or(fallback.into(), |stem| stem.to_string_lossy().into_owned());
    Ok((dir, stem))
}

fn parse_format(text: &str) -> Result<Format> {
    Format::parse(text).ok_or_else(|| anyhow!("--format must be sgf, psq or pgn, not `{text}`"))
}

/// The format of a file, by its extension.
fn format_of(path: &Path) -> Result<Format> {
    let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
    extension.as_deref().and_then(Format::parse).ok_or_else(|| {
        anyhow!(
            "{}: the name must end in .sgf, .psq or .pgn",
            path.display()
        )
    })
}

/// The game in `path` (its format by its extension) for `spec`.
pub fn read_game_file(spec: &GameSpec, path: &Path) -> Result<GameFile> {
    let format = format_of(path)?;
    let shown = path.display();
    let text = read_text_file(path, MAX_GAME_FILE_BYTES)?;
    format
        .read(&text, Some(spec))
        .map_err(|error| anyhow!("{shown}: {error}"))
}

/// The position at the end of the game in `path`, every move checked.
pub fn load_position(spec: &GameSpec, path: &Path) -> Result<Box<dyn DynGame>> {
    read_game_file(spec, path)?
        .position()
        .map_err(|error| anyhow!("{}: {error}", path.display()))
}
