//! Ready-made tournaments: the course lists of board configurations, and a quick one that
//! shows every game in under a minute.

/// A named tournament setup. Players and time given on the command line override its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
    /// The game specs, in playing order, as consecutive lists (see [`Preset::games`]).
    pub game_lists: &'static [&'static [&'static str]],
    /// The players when none are given.
    pub players: &'static [&'static str],
    /// Times each pair plays each configuration in both colours.
    pub rounds: usize,
    /// Scoring scheme name (`cx` or `mnk`).
    pub scoring: &'static str,
    /// Seconds per move when none are given.
    pub seconds_per_move: f64,
}

/// The small boards of the Connect-X course lists: every M, N in 4..7 with X = 4 (16), and
/// with X = 5 except 4x4x5 (15).
const CX_SMALL: [&str; 31] = [
    "connectx:4x4x4",
    "connectx:4x5x4",
    "connectx:4x6x4",
    "connectx:4x7x4",
    "connectx:5x4x4",
    "connectx:5x5x4",
    "connectx:5x6x4",
    "connectx:5x7x4",
    "connectx:6x4x4",
    "connectx:6x5x4",
    "connectx:6x6x4",
    "connectx:6x7x4",
    "connectx:7x4x4",
    "connectx:7x5x4",
    "connectx:7x6x4",
    "connectx:7x7x4",
    "connectx:4x5x5",
    "connectx:4x6x5",
    "connectx:4x7x5",
    "connectx:5x4x5",
    "connectx:5x5x5",
    "connectx:5x6x5",
    "connectx:5x7x5",
    "connectx:6x4x5",
    "connectx:6x5x5",
    "connectx:6x6x5",
    "connectx:6x7x5",
    "connectx:7x4x5",
    "connectx:7x5x5",
    "connectx:7x6x5",
    "connectx:7x7x5",
];

/// The large boards of the Connect-X course list.
const CX_LARGE: [&str; 4] = [
    "connectx:25x25x10",
    "connectx:50x50x15",
    "connectx:75x75x20",
    "connectx:100x100x30",
];

/// The large boards of the other Connect-X course list in use.
const CX_LARGE_ALT: [&str; 4] = [
    "connectx:20x20x10",
    "connectx:30x30x10",
    "connectx:40x40x10",
    "connectx:50x50x10",
];

/// The 25 configurations of the m,n,k course tournament.
const MNK_COURSE: [&str; 25] = [
    "mnk:3x3x3",
    "mnk:4x3x3",
    "mnk:4x4x3",
    "mnk:4x4x4",
    "mnk:5x4x4",
    "mnk:5x5x4",
    "mnk:5x5x5",
    "mnk:6x4x4",
    "mnk:6x5x4",
    "mnk:6x6x4",
    "mnk:6x6x5",
    "mnk:6x6x6",
    "mnk:7x4x4",
    "mnk:7x5x4",
    "mnk:7x6x4",
    "mnk:7x7x4",
    "mnk:7x5x5",
    "mnk:7x6x5",
    "mnk:7x7x5",
    "mnk:7x7x6",
    "mnk:7x7x7",
    "mnk:8x8x4",
    "mnk:10x10x5",
    "mnk:50x50x10",
    "mnk:70x70x10",
];

/// Every preset, in the order `--preset` help lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "quick",
        description: "small boards of every game, engine vs reference players, 0.05 s a move",
        game_lists: &[&[
            "tictactoe",
            "mnk:6x6x4",
            "connectx:5x6x4",
            "hex:5",
            "atoll:hexhex2",
            "unstable:4x4",
        ]],
        players: &["engine", "quasi", "random"],
        rounds: 1,
        scoring: "cx",
        seconds_per_move: 0.05,
    },
    Preset {
        name: "cx-course",
        description: "the 35 Connect-X course configurations (large boards up to 100x100x30)",
        game_lists: &[&CX_SMALL, &CX_LARGE],
        players: &["engine", "quasi"],
        rounds: 1,
        scoring: "cx",
        seconds_per_move: 10.0,
    },
    Preset {
        name: "cx-course-alt",
        description: "the Connect-X course list with large boards 20x20x10 to 50x50x10",
        game_lists: &[&CX_SMALL, &CX_LARGE_ALT],
        players: &["engine", "quasi"],
        rounds: 1,
        scoring: "cx",
        seconds_per_move: 10.0,
    },
    Preset {
        name: "mnk-course",
        description: "the 25 m,n,k course configurations, 4 games per pair each",
        game_lists: &[&MNK_COURSE],
        players: &["engine", "quasi"],
        rounds: 2,
        scoring: "mnk",
        seconds_per_move: 10.0,
    },
];

impl Preset {
    /// The game specs, in playing order.
    pub fn games(&self) -> Vec<&'static str> {
        self.game_lists.concat()
    }
}

/// The preset called `name`, if there is one.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::GameSpec;

    #[test]
    fn every_preset_game_is_a_valid_spec() {
        for preset in PRESETS {
            for spec in preset.games() {
                spec.parse::<GameSpec>()
                    .unwrap_or_else(|e| panic!("{}: {spec}: {e}", preset.name));
            }
        }
    }

    #[test]
    fn the_course_lists_have_their_sizes_and_no_repeats() {
        for (name, size) in [("cx-course", 35), ("cx-course-alt", 35), ("mnk-course", 25)] {
            let games = preset(name).unwrap().games();
            let distinct: std::collections::HashSet<_> = games.iter().collect();
            assert_eq!((games.len(), distinct.len()), (size, size), "{name}");
        }
        assert!(!CX_SMALL.contains(&"connectx:4x4x5"));
    }
}
