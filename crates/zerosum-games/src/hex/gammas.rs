//! Learned strengths of the radius-2 patterns of Hex ([`super::patterns`]): each pattern's
//! Bradley-Terry gamma (Coulom 2007, as MoHex 2.0's priors), the odds that a move on a cell
//! with that pattern is the one played rather than a move with a pattern of gamma 1. Trained by
//! `zerosum train hex` (minorization-maximization on our own self-play games), read from a
//! weights file, used as Monte Carlo priors by the evaluation `patterns`
//! ([`super::HexEvaluator::with_gammas`]).
//!
//! # The file
//!
//! ```text
//! zerosum hex patterns 1
//! # comments: the command that made the file, what the fit found
//! radius 2
//! other 0.31
//! pattern .o..x............. 2.5
//! end
//! ```
//!
//! `radius` is the patterns' radius (2, the only one read); `other` the gamma of every pattern
//! the file does not list; each `pattern` line the states of the 18 cells in the order of
//! [`RADIUS_2`](super::patterns::RADIUS_2) (`.` empty, `o` the mover's, `x` the opponent's,
//! `#` a wall) and its gamma; a pattern and its turn by 180° are one pattern (listed once).
//! Gammas are positive finite numbers. A file without its `end` is truncated, and refused.

use std::fmt;

use super::patterns::{
    canonical, pattern_code, turned, PatternFrame, EMPTY, OWN, RADIUS_2, THEIRS, WALL,
};
use super::Hex;
use crate::connection::Stone;

/// The first line of a pattern gammas file.
pub const GAMMAS_HEADER: &str = "zerosum hex patterns 1";

/// The radius of the patterns a file holds.
pub const RADIUS: usize = 2;

/// The letter of each cell state in a file, by state.
const STATE_LETTERS: [char; 4] = ['.', 'o', 'x', '#'];

/// The gammas of the radius-2 patterns (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternGammas {
    /// `(canonical code, gamma)`, sorted by code.
    entries: Vec<(u64, f32)>,
    /// The gamma of a pattern not listed.
    other: f32,
    /// The listed gammas by either turn's code, for lookups without [`canonical`].
    table: GammaTable,
}

/// An open-addressing table of the listed gammas under both turns of each pattern.
#[derive(Clone, Debug, PartialEq)]
struct GammaTable {
    /// Codes (`u64::MAX`: a free slot), a power of two of them, at most half full.
    codes: Vec<u64>,
    gammas: Vec<f32>,
    /// The number of bits of a slot's index.
    bits: u32,
}

impl GammaTable {
    fn new(entries: &[(u64, f32)]) -> GammaTable {
        let bits = (entries.len() * 4)
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut table = GammaTable {
            codes: vec![u64::MAX; 1 << bits],
            gammas: vec![0.0; 1 << bits],
            bits,
        };
        for &(code, gamma) in entries {
            for code in [code, turned(code)] {
                let slot = table.slot(code);
                table.codes[slot] = code;
                table.gammas[slot] = gamma;
            }
        }
        table
    }

    /// The slot of `code`: where it is, or the free slot where it would go.
    fn slot(&self, code: u64) -> usize {
        let mask = (1 << self.bits) - 1;
        let mut slot = (code.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        while self.codes[slot] != code && self.codes[slot] != u64::MAX {
            slot = (slot + 1) & mask;
        }
        slot
    }

    fn get(&self, code: u64) -> Option<f32> {
        let slot = self.slot(code);
        (self.codes[slot] == code).then(|| self.gammas[slot])
    }
}

/// Why a gammas file was refused: its line and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GammasError {
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for GammasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for GammasError {}

impl PatternGammas {
    /// The gammas of `patterns` (codes, any of a pattern's two turns; the last gamma of a
    /// pattern given twice counts) and `other` for the rest.
    pub fn new(patterns: impl IntoIterator<Item = (u64, f32)>, other: f32) -> PatternGammas {
        let mut entries: Vec<(u64, f32)> = patterns
            .into_iter()
            .map(|(code, gamma)| (canonical(code), gamma))
            .collect();
        entries.sort_by_key(|&(code, _)| code);
        entries.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = later.1;
            }
            same
        });
        PatternGammas::of_entries(entries, other)
    }

    /// The gammas of `entries` (canonical codes, sorted, each once).
    fn of_entries(entries: Vec<(u64, f32)>, other: f32) -> PatternGammas {
        let table = GammaTable::new(&entries);
        PatternGammas {
            entries,
            other,
            table,
        }
    }

    /// The gamma of the pattern of `code` (either turn).
    pub fn gamma(&self, code: u64) -> f32 {
        let code = canonical(code);
        match self.entries.binary_search_by_key(&code, |&(c, _)| c) {
            Ok(at) => self.entries[at].1,
            Err(_) => self.other,
        }
    }

    /// The gamma of a move of `colour` on `cell` (empty) of `game`.
    pub fn cell_gamma(&self, game: &Hex, cell: usize, colour: Stone) -> f32 {
        self.gamma(pattern_code(game, cell, colour))
    }

    /// The gamma of a move of `colour` on `cell` (empty) of the position of `frame`: the same
    /// as [`PatternGammas::cell_gamma`], faster for many cells of one position.
    pub fn framed_gamma(&self, frame: &PatternFrame, cell: usize, colour: Stone) -> f32 {
        self.table
            .get(frame.code(cell, colour))
            .unwrap_or(self.other)
    }

    /// The patterns listed, by canonical code.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no pattern is listed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The gammas as a file, with `comments` (one line each, `# ` added) after the header.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut text = format!("{GAMMAS_HEADER}\n");
        for comment in comments {
            text.push_str(&format!("# {comment}\n"));
        }
        text.push_str(&format!("radius {RADIUS}\nother {}\n", self.other));
        for &(code, gamma) in &self.entries {
            text.push_str(&format!("pattern {} {gamma}\n", pattern_text(code)));
        }
        text.push_str("end\n");
        text
    }

    /// Reads a gammas file (see the module documentation); never panics.
    pub fn parse(text: &str) -> Result<PatternGammas, GammasError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line));
        match lines.next() {
            Some((_, first)) if first.trim_end() == GAMMAS_HEADER => {}
            _ => {
                return Err(GammasError {
                    line: 1,
                    problem: format!(
                        "not a Hex pattern gammas file (the first line must be `{GAMMAS_HEADER}`)"
                    ),
                })
            }
        }
        let (mut radius, mut other, mut ended) = (false, None, false);
        let mut entries = Vec::new();
        let mut last_line = 1;
        for (number, line) in lines {
            last_line = number;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |problem: String| GammasError {
                line: number,
                problem,
            };
            if ended {
                return Err(at("an entry after `end`".into()));
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["end"] => ended = true,
                ["radius", value] => {
                    if radius {
                        return Err(at("a second `radius` line".into()));
                    }
                    if value != RADIUS.to_string() {
                        return Err(at(format!(
                            "patterns of radius {value}: only radius {RADIUS} is read"
                        )));
                    }
                    radius = true;
                }
                ["other", value] => {
                    if other.is_some() {
                        return Err(at("a second `other` line".into()));
                    }
                    other = Some(parse_gamma(value).map_err(at)?);
                }
                ["pattern", cells, value] => {
                    if !radius {
                        return Err(at("a pattern before the `radius` line".into()));
                    }
                    let code = parse_pattern(cells).map_err(at)?;
                    let gamma = parse_gamma(value).map_err(at)?;
                    entries.push((canonical(code), gamma, number));
                }
                _ => {
                    return Err(at(format!(
                        "`{line}` is no entry (expected radius, other, pattern or end)"
                    )))
                }
            }
        }
        let missing = |problem: &str| GammasError {
            line: last_line,
            problem: problem.into(),
        };
        if !ended {
            return Err(missing("no `end` line: the file is truncated"));
        }
        if !radius {
            return Err(missing("no `radius` line"));
        }
        let Some(other) = other else {
            return Err(missing("no `other` line"));
        };
        entries.sort_by_key(|&(code, _, number)| (code, number));
        if let Some(pair) = entries.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(GammasError {
                line: pair[1].2,
                problem: format!(
                    "pattern {} listed twice (a pattern and its turn by 180 degrees are one)",
                    pattern_text(pair[1].0)
                ),
            });
        }
        Ok(PatternGammas::of_entries(
            entries
                .into_iter()
                .map(|(code, gamma, _)| (code, gamma))
                .collect(),
            other,
        ))
    }
}

/// The 18 letters of a pattern's cells (see the module documentation).
pub fn pattern_text(code: u64) -> String {
    (0..RADIUS_2.len())
        .map(|i| STATE_LETTERS[((code >> (2 * i)) & 3) as usize])
        .collect()
}

/// The code of a pattern's 18 letters.
fn parse_pattern(cells: &str) -> Result<u64, String> {
    let letters: Vec<char> = cells.chars().collect();
    if letters.len() != RADIUS_2.len() {
        return Err(format!(
            "pattern `{cells}` has {} cells, not {} (radius {RADIUS})",
            letters.len(),
            RADIUS_2.len()
        ));
    }
    letters
        .iter()
        .enumerate()
        .try_fold(0u64, |code, (i, &letter)| {
            let state = match letter {
                '.' => EMPTY,
                'o' => OWN,
                'x' => THEIRS,
                '#' => WALL,
                _ => {
                    return Err(format!(
                        "pattern `{cells}`: `{letter}` is no cell state (expected . o x #)"
                    ))
                }
            };
            Ok(code | state << (2 * i))
        })
}

/// A gamma: a positive finite number.
fn parse_gamma(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(gamma) if gamma.is_finite() && gamma > 0.0 => Ok(gamma),
        _ => Err(format!("gamma `{text}` is not a positive finite number")),
    }
}
