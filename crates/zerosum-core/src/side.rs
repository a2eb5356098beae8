use std::fmt;
use std::ops::Not;

/// A player, named by turn order: `First` moves first.
///
/// Colours (Black/White, X/O) are a matter of each game's rendering; where a rule lets the
/// players exchange colours (the swap rule of Hex and Atoll), `Side` still names the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// Both sides, first then second.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`; handy for indexing per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side that moves at a given ply when turns strictly alternate (ply 0: `First`).
    #[inline]
    pub const fn at_ply(ply: usize) -> Side {
        if ply & 1 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// `"first"` or `"second"`, as printed in JSON and results.
    pub const fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}

/// Whether a game goes on, and if not, how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Over(Outcome),
}

impl Status {
    /// True once the game has ended.
    #[inline]
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Over(_))
    }

    /// The winner, if the game is over and not drawn.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Status::Over(Outcome::Win(side)) => Some(side),
            _ => None,
        }
    }

    /// `"ongoing"`, `"draw"`, `"first"` or `"second"` (the winner), as printed in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Over(Outcome::Draw) => "draw",
            Status::Over(Outcome::Win(side)) => side.name(),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Over(Outcome::Draw) => f.write_str("draw"),
            Status::Over(Outcome::Win(side)) => write!(f, "{side} player wins"),
        }
    }
}
