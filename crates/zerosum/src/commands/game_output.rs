//! `--pgnout`, `--sgfout` and `--psqout` of `match` and `tournament`: each game written as a
//! game file the moment it finishes, as cutechess writes its PGN (by the run, see
//! [`zerosum_arena::records::game_files`]).

use std::path::PathBuf;

use clap::Args;
use zerosum_arena::records::game_files::GameFileOptions;

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
    /// The game files these options ask for.
    pub fn options(&self) -> GameFileOptions {
        GameFileOptions {
            pgn: self.pgnout.clone(),
            sgf: self.sgfout.clone(),
            psq: self.psqout.clone(),
        }
    }
}
