//! The weights of the pattern evaluation ([`PatternWeights`]): their layout, the hand-set
//! ones, the parameter vector a trainer fits, and the weights file that carries them.
//!
//! # Weights file
//!
//! A text file, one entry a line; blank lines and lines starting with `#` are comments (a
//! trained file names the command that made it there). The first line is the header, then the
//! rule, then every entry exactly once in any order, then `end` (so a truncated file is told
//! from a whole one):
//!
//! ```text
//! zerosum pattern weights 1
//! rule freestyle
//! cell black open-three+two+one+none 344
//! ...
//! initiative double-three none 400
//! ...
//! end
//! ```
//!
//! `cell COLOUR LINES WEIGHT`: the weight, in 1/16 evaluation units, of an empty cell whose
//! four line threats ([`LineThreat::name`], joined by `+`, any order) are `LINES` for the side
//! `COLOUR` (`black`, the first player, or `white`): [`CELL_CODES`] entries a colour.
//! `initiative MINE THEIRS VALUE`: the initiative term, in evaluation units, when the best
//! threat the side to move can make is `MINE` and the opponent's `THEIRS`
//! ([`CellThreat::name`]): [`CELL_THREATS`] squared entries. Weights are integers of at most
//! [`MAX_WEIGHT`] in size.

use std::fmt;

use super::patterns::{
    code_of, code_threats, combined_threat, CellThreat, LineThreat, CELL_CODES, CELL_THREATS,
};
use super::Rule;

/// The first line of a weights file.
pub const WEIGHTS_HEADER: &str = "zerosum pattern weights 1";

/// The largest weight a file may give, in its units.
pub const MAX_WEIGHT: i32 = 1_000_000;

/// The names of the two colours in a weights file, first player first.
const COLOURS: [&str; 2] = ["black", "white"];

/// The weights of the pattern evaluation under one rule, laid out for a trainer to fill: per
/// colour (0 the first player, Black; 1 the second) a weight per cell code ([`CELL_CODES`] of
/// them, the codes' line threats given by [`code_threats`]), in 1/16 evaluation units, and
/// an initiative table indexed by the best [`CellThreat`] of the side to move and of the
/// opponent (`initiative[mine * CELL_THREATS + theirs]`), in evaluation units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// The rule the weights are for (the cell codes' threats depend on it).
    pub rule: Rule,
    /// Per colour, per cell code: in 1/16 evaluation units.
    pub cell: [Vec<i32>; 2],
    /// Per (my best threat, their best threat): evaluation units.
    pub initiative: Vec<i32>,
}

/// Hand-set weight of a line threat, in 1/16 units.
fn line_weight(threat: LineThreat) -> i32 {
    match threat {
        LineThreat::None | LineThreat::Overline | LineThreat::DoubleFour => 0,
        LineThreat::One => 4,
        LineThreat::OpenOne => 8,
        LineThreat::Two => 24,
        LineThreat::OpenTwo => 64,
        LineThreat::Three => 96,
        LineThreat::OpenThree => 320,
        LineThreat::Four => 400,
        LineThreat::OpenFour => 1600,
        LineThreat::Five => 3200,
    }
}

/// Hand-set bonus of a cell threat on top of its lines, in 1/16 units.
fn threat_bonus(threat: CellThreat) -> i32 {
    match threat {
        CellThreat::None | CellThreat::OpenTwo | CellThreat::Three => 0,
        CellThreat::Forbidden => 0,
        CellThreat::DoubleTwo => 64,
        CellThreat::ThreeTwo => 128,
        CellThreat::OpenThree => 0,
        CellThreat::ThreePlus => 256,
        CellThreat::DoubleThree => 1600,
        CellThreat::Four => 0,
        CellThreat::FourPlus => 320,
        CellThreat::FourThree => 2400,
        CellThreat::OpenFour => 3200,
        CellThreat::Five => 6400,
    }
}

impl PatternWeights {
    /// How many numbers the weights are: [`CELL_CODES`] a colour and the initiative table.
    pub const PARAMETERS: usize = 2 * CELL_CODES + CELL_THREATS * CELL_THREATS;

    /// The hand-set weights for a game under `rule`: a cell is worth the sum of its lines'
    /// weights (a one 4/16, an open two 4, an open three 20, a four 25, an open four 100) plus a
    /// bonus for combinations (two open threes 100, a four and an open three 150); a forbidden
    /// cell of renju's Black is worth nothing to it. The side to move gains from the best
    /// threat it can make (two open threes +400, a four and an open three +900; a quarter of
    /// that when the opponent can make a four) and loses a little when the opponent's best is
    /// two open threes or a four and an open three.
    pub fn hand_set(rule: Rule) -> Self {
        let codes = |forbid: bool| {
            (0..CELL_CODES as u16)
                .map(|code| {
                    let lines = code_threats(code);
                    match combined_threat(lines, forbid) {
                        CellThreat::Forbidden => 0,
                        threat => {
                            lines.iter().map(|&t| line_weight(t)).sum::<i32>()
                                + threat_bonus(threat)
                        }
                    }
                })
                .collect::<Vec<_>>()
        };
        let mut initiative = vec![0; CELL_THREATS * CELL_THREATS];
        for mine in CellThreat::ALL {
            for theirs in CellThreat::ALL {
                let attack = match mine {
                    CellThreat::OpenThree => 20,
                    CellThreat::ThreePlus => 40,
                    CellThreat::DoubleThree => 400,
                    CellThreat::Four => 10,
                    CellThreat::FourPlus => 40,
                    CellThreat::FourThree => 900,
                    _ => 0,
                };
                let attack = if theirs.is_four() { attack / 4 } else { attack };
                let pressure = match theirs {
                    CellThreat::DoubleThree => 100,
                    CellThreat::FourThree => 200,
                    _ => 0,
                };
                initiative[mine as usize * CELL_THREATS + theirs as usize] = attack - pressure;
            }
        }
        PatternWeights {
            rule,
            cell: [codes(rule == Rule::Renju), codes(false)],
            initiative,
        }
    }

    /// The weights as one vector of [`PatternWeights::PARAMETERS`] numbers, each in its own
    /// units: Black's cell weights, White's, then the initiative table.
    pub fn to_parameters(&self) -> Vec<f64> {
        self.cell[0]
            .iter()
            .chain(&self.cell[1])
            .chain(&self.initiative)
            .map(|&weight| f64::from(weight))
            .collect()
    }

    /// The weights of a parameter vector laid out as [`PatternWeights::to_parameters`] gives
    /// it, each rounded to the nearest integer within `±MAX_WEIGHT`.
    ///
    /// # Panics
    ///
    /// If `parameters` does not hold [`PatternWeights::PARAMETERS`] numbers.
    pub fn from_parameters(rule: Rule, parameters: &[f64]) -> Self {
        assert_eq!(
            parameters.len(),
            Self::PARAMETERS,
            "a whole parameter vector"
        );
        let round = |values: &[f64]| -> Vec<i32> {
            values
                .iter()
                .map(|&value| {
                    value
                        .round()
                        .clamp(-f64::from(MAX_WEIGHT), f64::from(MAX_WEIGHT))
                        as i32
                })
                .collect()
        };
        let (black, rest) = parameters.split_at(CELL_CODES);
        let (white, initiative) = rest.split_at(CELL_CODES);
        PatternWeights {
            rule,
            cell: [round(black), round(white)],
            initiative: round(initiative),
        }
    }

    /// The weights file of these weights, with `comments` (one `#` line each) after the
    /// header.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut text = format!("{WEIGHTS_HEADER}\n");
        for comment in comments {
            text.push_str(&format!("# {comment}\n"));
        }
        text.push_str(&format!("rule {}\n", self.rule.name()));
        text.push_str("# cell COLOUR LINES WEIGHT: 1/16 evaluation units\n");
        for (colour, weights) in COLOURS.iter().zip(&self.cell) {
            for (code, weight) in weights.iter().enumerate() {
                let lines: Vec<&str> = code_threats(code as u16)
                    .iter()
                    .rev()
                    .map(|threat| threat.name())
                    .collect();
                text.push_str(&format!("cell {colour} {} {weight}\n", lines.join("+")));
            }
        }
        text.push_str("# initiative MINE THEIRS VALUE: evaluation units\n");
        for mine in CellThreat::ALL {
            for theirs in CellThreat::ALL {
                let value = self.initiative[mine as usize * CELL_THREATS + theirs as usize];
                text.push_str(&format!(
                    "initiative {} {} {value}\n",
                    mine.name(),
                    theirs.name()
                ));
            }
        }
        text.push_str("end\n");
        text
    }

    /// Reads a weights file (see the module documentation); never panics.
    pub fn parse(text: &str) -> Result<PatternWeights, WeightsError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line));
        match lines.next() {
            Some((_, first)) if first.trim_end() == WEIGHTS_HEADER => {}
            _ => {
                return Err(WeightsError::at(
                    1,
                    format!("not a weights file (the first line must be `{WEIGHTS_HEADER}`)"),
                ))
            }
        }
        let mut rule = None;
        let mut cell: [Vec<Option<i32>>; 2] = [vec![None; CELL_CODES], vec![None; CELL_CODES]];
        let mut initiative = vec![None; CELL_THREATS * CELL_THREATS];
        let mut ended = false;
        for (number, line) in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |problem: String| WeightsError::at(number, problem);
            if ended {
                return Err(at("an entry after `end`".into()));
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["end"] => ended = true,
                ["rule", name] => {
                    if rule.is_some() {
                        return Err(at("a second `rule` line".into()));
                    }
                    rule = Some(
                        Rule::ALL
                            .into_iter()
                            .find(|rule| rule.name() == name)
                            .ok_or_else(|| {
                                at(format!(
                                    "unknown rule `{name}` (expected freestyle, standard or renju)"
                                ))
                            })?,
                    );
                }
                ["cell", colour, threats, weight] => {
                    let colour = COLOURS.iter().position(|&c| c == colour).ok_or_else(|| {
                        at(format!(
                            "unknown colour `{colour}` (expected black or white)"
                        ))
                    })?;
                    let code = parse_lines(threats).map_err(at)?;
                    let slot = &mut cell[colour][code as usize];
                    if slot.is_some() {
                        return Err(at(format!(
                            "cell {} {threats} given twice",
                            COLOURS[colour]
                        )));
                    }
                    *slot = Some(parse_weight(weight).map_err(at)?);
                }
                ["initiative", mine, theirs, value] => {
                    let threat = |name: &str| {
                        CellThreat::named(name)
                            .ok_or_else(|| at(format!("unknown cell threat `{name}`")))
                    };
                    let index = threat(mine)? as usize * CELL_THREATS + threat(theirs)? as usize;
                    if initiative[index].is_some() {
                        return Err(at(format!("initiative {mine} {theirs} given twice")));
                    }
                    initiative[index] = Some(parse_weight(value).map_err(at)?);
                }
                _ => {
                    return Err(at(format!(
                        "`{}` is not an entry (expected rule, cell, initiative or end)",
                        clipped(line)
                    )))
                }
            }
        }
        if !ended {
            return Err(WeightsError::whole(
                "truncated: no `end` line after the entries".into(),
            ));
        }
        let rule = rule.ok_or_else(|| WeightsError::whole("no `rule` line".into()))?;
        let missing = cell.iter().flatten().filter(|w| w.is_none()).count()
            + initiative.iter().filter(|w| w.is_none()).count();
        if missing > 0 {
            return Err(WeightsError::whole(format!(
                "{missing} of the {} entries missing",
                Self::PARAMETERS
            )));
        }
        let whole = |weights: Vec<Option<i32>>| weights.into_iter().flatten().collect();
        let [black, white] = cell;
        Ok(PatternWeights {
            rule,
            cell: [whole(black), whole(white)],
            initiative: whole(initiative),
        })
    }
}

/// The cell code of `a+b+c+d` (line threat names).
fn parse_lines(text: &str) -> Result<u16, String> {
    let names: Vec<&str> = text.split('+').collect();
    let [a, b, c, d] = names[..] else {
        return Err(format!(
            "`{}` is not four line threats joined by +",
            clipped(text)
        ));
    };
    let threat = |name: &str| {
        LineThreat::named(name).ok_or_else(|| format!("unknown line threat `{}`", clipped(name)))
    };
    Ok(code_of([threat(a)?, threat(b)?, threat(c)?, threat(d)?]))
}

/// An integer weight of at most [`MAX_WEIGHT`] in size.
fn parse_weight(text: &str) -> Result<i32, String> {
    text.parse::<i32>()
        .ok()
        .filter(|weight| weight.abs() <= MAX_WEIGHT)
        .ok_or_else(|| {
            format!(
                "`{}` is not a weight (an integer of at most {MAX_WEIGHT} in size)",
                clipped(text)
            )
        })
}

/// At most 40 characters of `text`, for messages.
fn clipped(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Why a weights file was refused: the line (from 1) where that shows, and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    pub line: Option<usize>,
    pub problem: String,
}

impl WeightsError {
    fn at(line: usize, problem: String) -> Self {
        WeightsError {
            line: Some(line),
            problem,
        }
    }

    fn whole(problem: String) -> Self {
        WeightsError {
            line: None,
            problem,
        }
    }
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

impl std::error::Error for WeightsError {}
