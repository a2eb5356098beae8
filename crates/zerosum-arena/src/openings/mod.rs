//! Opening suites: files of starting positions, one move list per line, that a match or a
//! tournament plays each twice with colours swapped (a game pair), as cutechess and fastchess
//! do with `-openings` and `-repeat`.
//!
//! The file format ([`Openings::parse`]):
//!
//! ```text
//! # zerosum openings connectx:6x7x4 plies=6 balanced threshold=... seed=1
//! 4,4,3,5,2,4
//! 4,3,4,4,5,6
//! ```
//!
//! Each line is a list of moves in the game's own notation, separated by commas or white space
//! (what `--moves` reads; a Connect-X line on up to 9 columns may also be `443524`). Blank
//! lines and lines starting with `#` are skipped; a header line `# zerosum openings SPEC ...`
//! (what `zerosum openings` writes) names the game, and a file for another game is refused.
//! Every line must be legal from the start and leave a game that goes on. [`generate`] makes
//! such files.

pub mod generate;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use zerosum_core::capped_read::{self, size_text, CappedLines, ReadProblem};
use zerosum_games::{new_game, GameSpec};

/// The start of the header line `zerosum openings` writes, followed by the spec.
pub const HEADER: &str = "# zerosum openings ";

/// Longest line read from an openings file, in bytes: 1 MiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Largest openings file read: 256 MiB (millions of openings; a schedule pairs at most 2^24).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Why an openings file cannot be used: the file, the line (from 1) when one is to blame, and
/// the problem, printed on one line as `FILE:LINE: problem`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct OpeningsError {
    pub file: String,
    pub line: Option<usize>,
    pub problem: String,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

/// The openings of a file, each a list of canonical moves, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// The moves of each opening (cut to the plies asked for).
    pub lines: Vec<Vec<String>>,
    /// The line of the file each opening comes from (from 1).
    pub line_numbers: Vec<usize>,
}

impl Openings {
    /// Reads the openings in `text` (named `file` in errors) for the game `spec`, keeping the
    /// first `plies` moves of each (all of them when `None`).
    ///
    /// Errors: a header naming another game, a line longer than [`MAX_LINE_BYTES`], a move that
    /// is not legal (with its number in the line), a line that ends the game, `plies` of 0, or
    /// a file without any opening.
    pub fn parse(
        text: &str,
        file: &str,
        spec: &GameSpec,
        plies: Option<usize>,
    ) -> Result<Openings, OpeningsError> {
        let error = |line: Option<usize>, problem: String| OpeningsError {
            file: file.to_string(),
            line,
            problem,
        };
        if plies == Some(0) {
            return Err(error(None, "--plies must be at least 1".into()));
        }
        let start = new_game(spec).map_err(|e| error(None, e.to_string()))?;
        let mut openings = Openings {
            lines: Vec::new(),
            line_numbers: Vec::new(),
        };
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if line.len() > MAX_LINE_BYTES {
                return Err(error(
                    Some(number),
                    format!(
                        "the line is longer than {}",
                        size_text(MAX_LINE_BYTES as u64)
                    ),
                ));
            }
            let line = line.trim();
            if let Some(header) = line.strip_prefix(HEADER.trim_end()) {
                check_header(header, spec).map_err(|problem| error(Some(number), problem))?;
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut game = start.clone_box();
            game.play_list(line)
                .map_err(|e| error(Some(number), format!("{e} (the game is {spec})")))?;
            let mut moves = game.history();
            if game.status().is_over() {
                return Err(error(
                    Some(number),
                    format!("the opening ends the game ({})", game.status()),
                ));
            }
            if let Some(plies) = plies {
                moves.truncate(plies);
            }
            openings.lines.push(moves);
            openings.line_numbers.push(number);
        }
        if openings.lines.is_empty() {
            return Err(error(None, "the file holds no opening".into()));
        }
        Ok(openings)
    }

    /// Reads the openings file at `path` (see [`Openings::parse`]), at most [`MAX_FILE_BYTES`];
    /// also returns the file's checksum ([`checksum`]).
    pub fn load(
        path: &Path,
        spec: &GameSpec,
        plies: Option<usize>,
    ) -> Result<(Openings, u64), OpeningsError> {
        let file = path.display().to_string();
        let error = |line: Option<u64>, problem: String| OpeningsError {
            file: file.clone(),
            line: line.map(|line| line as usize),
            problem,
        };
        // Line by line, each checked as it comes: a file of no lines at all (a device such as
        // /dev/zero) is refused at its first line's cap, not read whole.
        let reader = capped_read::open_file(path, MAX_FILE_BYTES)
            .map_err(|e| error(None, format!("cannot read it: {}", e.problem)))?;
        // A CR before the line end is not the line's (the parser drops it).
        let mut lines =
            CappedLines::new(std::io::BufReader::new(reader), MAX_LINE_BYTES as u64 + 1);
        let mut text = String::new();
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(ReadProblem::LineTooLong { line, .. }) => {
                    return Err(error(
                        Some(line),
                        format!(
                            "the line is longer than {}",
                            size_text(MAX_LINE_BYTES as u64)
                        ),
                    ))
                }
                Err(problem) => return Err(error(None, format!("cannot read it: {problem}"))),
            };
            let line_text = std::str::from_utf8(&line.bytes)
                .map_err(|_| error(Some(lines.count()), "the line is not UTF-8 text".into()))?;
            text.push_str(line_text);
            if line.ended {
                text.push('\n');
            }
        }
        let openings = Openings::parse(&text, &file, spec, plies)?;
        Ok((openings, checksum(text.as_bytes())))
    }

    /// The number of openings.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True without openings (never for a parsed file).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Checks the rest of a header line (`SPEC plies=...`) against the game played.
fn check_header(header: &str, spec: &GameSpec) -> Result<(), String> {
    let named = header.split_whitespace().next().unwrap_or_default();
    match named.parse::<GameSpec>() {
        Ok(named) if named == *spec => Ok(()),
        Ok(named) => Err(format!(
            "the openings are for {named}, but the game is {spec} (wrong game)"
        )),
        Err(e) => Err(format!("the header names no game: {e}")),
    }
}

/// FNV-1a (64 bits) of a file's bytes: a record keeps it to check that a resumed tournament
/// reads the openings it started with.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The order in which the pairs of games take the openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningOrder {
    /// The file's order shuffled with the tournament's seed, then in turn (fastchess'
    /// `order=random`).
    #[default]
    Random,
    /// The file's order.
    Sequential,
}

impl FromStr for OpeningOrder {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "random" => Ok(OpeningOrder::Random),
            "sequential" => Ok(OpeningOrder::Sequential),
            other => Err(format!(
                "unknown opening order `{other}` (expected random or sequential)"
            )),
        }
    }
}

impl OpeningOrder {
    /// The opening of each of `slots` slots (game pairs), out of `count` openings (at least
    /// one): in turn through the file's order, or through its order shuffled by `seed`,
    /// starting over after the last.
    pub fn assign(self, count: usize, slots: usize, seed: u64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..count).collect();
        if self == OpeningOrder::Random {
            // Fisher-Yates with ChaCha8: the same seed gives the same order everywhere.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for i in (1..count).rev() {
                let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
                order.swap(i, j);
            }
        }
        (0..slots).map(|slot| order[slot % count]).collect()
    }
}

/// What a tournament's settings keep of its openings: enough to read the same openings again
/// when it resumes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningSettings {
    /// The file, as an absolute path where it could be resolved.
    pub file: String,
    pub order: OpeningOrder,
    /// Keep only the first `plies` moves of each opening.
    pub plies: Option<usize>,
    /// [`checksum`] of the file when the tournament started.
    pub checksum: u64,
}

impl OpeningSettings {
    /// The settings of the suite in `path` for `spec`, taken in `order`, each opening cut to
    /// its first `plies` moves: the file is read and checked now (every opening legal for
    /// `spec`), and kept by its absolute path where it resolves and its checksum.
    pub fn read(
        path: &Path,
        spec: &GameSpec,
        order: OpeningOrder,
        plies: Option<usize>,
    ) -> Result<OpeningSettings, OpeningsError> {
        let (_, checksum) = Openings::load(path, spec, plies)?;
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        Ok(OpeningSettings {
            file: file.display().to_string(),
            order,
            plies,
            checksum,
        })
    }

    /// Reads the openings again, for `spec`, and checks that the file has not changed.
    pub fn load(&self, spec: &GameSpec) -> Result<Openings, OpeningsError> {
        let (openings, checksum) = Openings::load(Path::new(&self.file), spec, self.plies)?;
        if checksum != self.checksum {
            return Err(OpeningsError {
                file: self.file.clone(),
                line: None,
                problem: "the file has changed since the tournament started (its checksum differs)"
                    .into(),
            });
        }
        Ok(openings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connect4() -> GameSpec {
        "connect4".parse().unwrap()
    }

    fn problem(text: &str, spec: &GameSpec) -> String {
        Openings::parse(text, "suite.txt", spec, None)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn lines_round_trip_in_the_games_notation() {
        let text =
            "# zerosum openings connectx:6x7x4 plies=4 seed=1\n\n4,4,3,5\n# a comment\n 4453 \n";
        let openings = Openings::parse(text, "suite.txt", &connect4(), None).unwrap();
        assert_eq!(openings.lines, [["4", "4", "3", "5"], ["4", "4", "5", "3"]]);
        assert_eq!(openings.line_numbers, [3, 5]);
        let cut = Openings::parse(text, "suite.txt", &connect4(), Some(2)).unwrap();
        assert_eq!(cut.lines, [["4", "4"], ["4", "4"]]);
        let gomoku: GameSpec = "gomoku".parse().unwrap();
        let openings = Openings::parse("h8 h9, i7\n", "g", &gomoku, None).unwrap();
        assert_eq!(openings.lines, [["h8", "h9", "i7"]]);
    }

    #[test]
    fn bad_lines_are_named_with_their_number_and_problem() {
        let gomoku: GameSpec = "gomoku".parse().unwrap();
        assert_eq!(
            problem("# zerosum openings gomoku plies=2\nh8,h9\n", &connect4()),
            "suite.txt:1: the openings are for mnk:15x15x5, but the game is connectx:6x7x4 \
             (wrong game)"
        );
        let illegal = problem("4,4\n4,9\n", &connect4());
        assert!(illegal.starts_with("suite.txt:2: "), "{illegal}");
        assert!(illegal.contains("move 2"), "{illegal}");
        let taken = problem("h8,h8\n", &gomoku);
        assert!(taken.starts_with("suite.txt:1: "), "{taken}");
        assert_eq!(
            problem("1,2,1,2,1,2,1\n", &connect4()),
            "suite.txt:1: the opening ends the game (first player wins)"
        );
        assert_eq!(
            problem("# only\n\n", &connect4()),
            "suite.txt: the file holds no opening"
        );
    }

    #[test]
    fn random_order_is_a_reproducible_permutation() {
        let order = OpeningOrder::Random.assign(10, 25, 7);
        assert_eq!(order, OpeningOrder::Random.assign(10, 25, 7));
        assert_ne!(order, OpeningOrder::Random.assign(10, 25, 8));
        let mut first: Vec<usize> = order[..10].to_vec();
        first.sort_unstable();
        assert_eq!(first, (0..10).collect::<Vec<_>>());
        assert_eq!(order[10..20], order[..10]);
        assert_eq!(OpeningOrder::Sequential.assign(3, 5, 7), [0, 1, 2, 0, 1]);
        assert_eq!("sequential".parse(), Ok(OpeningOrder::Sequential));
        assert!("shuffled".parse::<OpeningOrder>().is_err());
    }
}
