//! The rules of five in a row that Gomocup plays, as options of an m,n,k spec with K = 5.
//!
//! | rule | spec | who wins | Gomocup `INFO rule` |
//! |---|---|---|---|
//! | freestyle | `mnk:15x15x5` (`gomoku`) | a run of five **or more** | 0 |
//! | standard | `mnk:15x15x5:standard` (`gomoku:standard`) | a run of **exactly** five: an overline (six or more) does not win, for either side; the game goes on | 1 |
//! | renju | `mnk:15x15x5:renju` (`renju`) | White: five or more; Black (the first player): exactly five, and Black's double-three, double-four and overline are forbidden | 4 |
//!
//! Renju's forbidden moves follow the rules of the Renju International Federation as Gomocup
//! applies them: a move of Black that makes a five wins, even if it also makes a forbidden
//! shape; otherwise a move of Black that makes an overline, two fours (two lines, or two
//! fours on one line such as `XXX.X.XXX` filled in the middle) or two threes **loses at once**
//! (Gomocup's manager declares Black the loser of a forbidden move; it is not refused as an
//! illegal move, so perft counts it as a finished game). A three is a *true* three only if it
//! can become a straight four (`.XXXX.`, both ends making exactly five) by a move that is not
//! itself forbidden; a double-three of which one three is false is allowed (the official
//! exception). See [`super::forbidden`].

use std::fmt;
use std::str::FromStr;

/// The winning and forbidden-move rule of an m,n,k game. Standard and renju exist for K = 5
/// only (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// K or more in a row wins (every m,n,k game; `gomoku`).
    #[default]
    Freestyle,
    /// Exactly five in a row wins; an overline does not.
    Standard,
    /// Renju: White wins with five or more, Black with exactly five; Black's double-three,
    /// double-four and overline lose.
    Renju,
}

impl Rule {
    /// The three rules, in Gomocup's order.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// The rule's name in specs: `freestyle`, `standard`, `renju`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// The value of Gomocup's `INFO rule` for this rule: 0, 1 (exactly five) or 4 (renju).
    pub fn gomocup_number(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }

    /// The rule of a Gomocup `INFO rule` value: 0 freestyle, 1 exactly five (standard), 4
    /// renju, and 2 or 3, the continuous-game bit (several games in a row, nothing changes in
    /// one game) with 0 or 1. Other values give `None`: 5 and 6 are the swap openings of newer
    /// managers, which zerosum does not play (and which Rapfi reads so; it also reads 2 as
    /// renju, so zerosum sends only 0, 1 and 4).
    pub fn from_gomocup(value: u32) -> Option<Rule> {
        match value {
            0 | 2 => Some(Rule::Freestyle),
            1 | 3 => Some(Rule::Standard),
            4 => Some(Rule::Renju),
            _ => None,
        }
    }

    /// Whether a run of more than five stones of `first_player`'s side (the first player is
    /// Black) wins under this rule.
    #[inline]
    pub fn overline_wins(self, first_player: bool) -> bool {
        match self {
            Rule::Freestyle => true,
            Rule::Standard => false,
            Rule::Renju => !first_player,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;

    /// `freestyle`, `standard` or `renju` (lower case, as specs are lowered before parsing).
    fn from_str(text: &str) -> Result<Rule, String> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name() == text)
            .ok_or_else(|| format!("unknown rule `{text}` (expected freestyle, standard or renju)"))
    }
}
