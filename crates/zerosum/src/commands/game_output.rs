//! `--pgnout`, `--sgfout` and `--psqout` of `match` and `tournament`: each game written as a
//! game file the moment it finishes, as cutechess writes its PGN.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use zerosum_arena::records::export::{game_file, write_game};
use zerosum_arena::GameRecord;
use zerosum_formats::Format;
use zerosum_games::GameSpec;

/// Game files written as the games finish.
#[derive(Args, Debug, Default)]
pub struct GameOutputArgs {
    /// Append every finished game to this file as PGN-style text (every game).
    #[arg(long, value_name = "FILE")]
    pgnout: Option<PathBuf>,
    /// Write every finished game into this folder as an SGF file, as HexGui writes them (Hex and
    /// Atoll), named after the record: RECORD-N.sgf.
    #[arg(long, value_name = "DIR")]
    sgfout: Option<PathBuf>,
    /// Write every finished game into this folder as a PSQ file, as Piskvork writes them (m,n,k
    /// games), named after the record: RECORD-N.psq.
    #[arg(long, value_name = "DIR")]
    psqout: Option<PathBuf>,
}

impl GameOutputArgs {
    /// Whether any game file is asked for.
    pub fn is_set(&self) -> bool {
        self.pgnout.is_some() || self.sgfout.is_some() || self.psqout.is_some()
    }
}

/// Where the finished games go, checked before the first game.
pub struct GameOutput {
    pgn: Option<PathBuf>,
    /// The folders of the one-file-per-game formats, and their formats.
    folders: Vec<(Format, PathBuf)>,
    /// The record's file name without its extension: the game files' names start with it.
    stem: String,
}

impl GameOutput {
    /// The outputs of `args` for a tournament of `games` whose record is `record`: an error
    /// before any game is played when a format cannot hold one of the games, or a file or
    /// folder cannot be written.
    pub fn open(args: &GameOutputArgs, games: &[GameSpec], record: &Path) -> Result<GameOutput> {
        let folders: Vec<(Format, PathBuf)> =
            [(Format::Sgf, &args.sgfout), (Format::Psq, &args.psqout)]
                .into_iter()
                .filter_map(|(format, dir)| Some((format, dir.clone()?)))
                .collect();
        for (format, dir) in &folders {
            if let Some(spec) = games.iter().find(|spec| !format.holds(spec)) {
                bail!(
                    "--{}out: {} files hold {}, not {spec}",
                    format.name(),
                    format.name().to_uppercase(),
                    match format {
                        Format::Sgf => "Hex and Atoll games",
                        _ => "m,n,k games",
                    }
                );
            }
            fs::create_dir_all(dir).with_context(|| {
                format!("--{}out: cannot create {}", format.name(), dir.display())
            })?;
        }
        if let Some(path) = &args.pgnout {
            open_append(path)
                .with_context(|| format!("--pgnout: cannot write {}", path.display()))?;
        }
        let stem = record
            .file_stem()
            .map_or_else(|| "game".into(), |stem| stem.to_string_lossy().into_owned());
        Ok(GameOutput {
            pgn: args.pgnout.clone(),
            folders,
            stem,
        })
    }

    /// Writes the finished game `record` to every output.
    pub fn write(&self, record: &GameRecord) -> Result<()> {
        if let Some(path) = &self.pgn {
            let text = Format::Pgn
                .write(&game_file(record)?)
                .map_err(anyhow::Error::msg)?;
            open_append(path)
                .and_then(|mut file| file.write_all(text.as_bytes()))
                .with_context(|| format!("--pgnout: cannot write {}", path.display()))?;
        }
        for (format, dir) in &self.folders {
            write_game(record, *format, dir, &self.stem)?;
        }
        Ok(())
    }
}

fn open_append(path: &Path) -> std::io::Result<fs::File> {
    OpenOptions::new().create(true).append(true).open(path)
}
