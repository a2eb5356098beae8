//! The registry of families and the type-erased games of families registered at run time: a
//! registered family's name and aliases are its own, and a game seen through [`ErasedGame`]
//! plays, counts and hashes as the game itself.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{perft, LegalMovesChange, SpecError};
use zerosum_games::hex::Hex;
use zerosum_games::{
    families, new_game, register, visit_game, ErasedGame, EvaluatedGame, Family, GameSpec,
    GameVisitor, Layout, RegisterError, SpecText,
};

/// A family that only tries to register: every name is given.
struct Named {
    name: &'static str,
    aliases: &'static [(&'static str, &'static str)],
}

impl Family for Named {
    fn name(&self) -> &'static str {
        self.name
    }
    fn title(&self) -> &'static str {
        "Named"
    }
    fn forms(&self) -> &'static str {
        "named:N"
    }
    fn rules(&self) -> &'static str {
        "none"
    }
    fn notation(&self) -> &'static str {
        "none"
    }
    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        self.aliases
    }
    fn examples(&self) -> &'static [&'static str] {
        &[]
    }
    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        Err(text.invalid("never built"))
    }
    fn layout(&self) -> Layout {
        Layout::Squares
    }
    fn win_text(&self, _spec: &GameSpec, _loser: &str) -> String {
        String::new()
    }
}

fn try_register(family: &'static Named) -> Result<(), RegisterError> {
    register(family, |spec: &GameSpec| -> Result<Hex, SpecError> {
        Err(SpecError::UnknownGame(spec.to_string()))
    })
}

#[test]
fn names_and_aliases_are_taken_once() {
    static MNK: Named = Named {
        name: "mnk",
        aliases: &[],
    };
    static GOMOKU: Named = Named {
        name: "renju-test",
        aliases: &[("gomoku", "renju-test:15")],
    };
    static BAD: Named = Named {
        name: "Bad Name",
        aliases: &[],
    };
    static BAD_ALIAS: Named = Named {
        name: "bad-alias-test",
        aliases: &[("a:b", "bad-alias-test:1")],
    };
    assert_eq!(try_register(&MNK), Err(RegisterError::Taken("mnk".into())));
    assert_eq!(
        try_register(&GOMOKU),
        Err(RegisterError::Taken("gomoku".into()))
    );
    assert_eq!(
        try_register(&BAD),
        Err(RegisterError::BadName("Bad Name".into()))
    );
    assert_eq!(
        try_register(&BAD_ALIAS),
        Err(RegisterError::BadName("a:b".into()))
    );
    let names: Vec<&str> = families().iter().map(|family| family.name()).collect();
    assert_eq!(names[..5], ["mnk", "connectx", "hex", "atoll", "unstable"]);
    assert!(!names.contains(&"renju-test"), "{names:?}");
    assert_eq!(
        "gomoku".parse::<GameSpec>().unwrap().to_string(),
        "mnk:15x15x5"
    );

    static ONCE: Named = Named {
        name: "registered-once-test",
        aliases: &[("registered-alias-test", "registered-once-test:1")],
    };
    try_register(&ONCE).unwrap();
    assert_eq!(
        try_register(&ONCE),
        Err(RegisterError::Taken("registered-once-test".into()))
    );
    // Its specs reach the family's parser, by name and by alias.
    for text in ["registered-once-test:1", "Registered-Alias-Test"] {
        let refused = text.parse::<GameSpec>().unwrap_err().to_string();
        assert!(refused.ends_with(": never built"), "{refused}");
    }
}

/// Perft to `depth`, the hashes of a random playout and its legal moves at every ply, of the
/// visited game and of the same game behind [`ErasedGame`].
struct BothFaces {
    depth: usize,
    seed: u64,
}

type Trace = (Vec<u64>, Vec<(u64, Vec<String>, String)>);

fn trace<G: EvaluatedGame>(mut game: G, depth: usize, seed: u64) -> Trace {
    let counts = (1..=depth).map(|d| perft(&mut game, d)).collect();
    let mut rng = SplitMix::new(seed);
    let mut moves = Vec::new();
    let mut playout = Vec::new();
    loop {
        game.legal_moves(&mut moves);
        let named = moves.iter().map(|&mv| game.format_move(mv)).collect();
        playout.push((game.hash(), named, game.render()));
        assert_eq!(game.hash(), game.recompute_hash());
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(mv);
    }
    while game.ply() > 0 {
        game.undo();
    }
    (counts, playout)
}

impl GameVisitor for BothFaces {
    type Output = (Trace, Trace);

    fn visit<G: EvaluatedGame>(self, game: G) -> (Trace, Trace) {
        let erased = ErasedGame::new(game.clone());
        assert!(erased
            .downcast_ref::<G>()
            .is_some_and(|inner| *inner == game));
        assert_eq!(erased.spec(), game.spec());
        (
            trace(game, self.depth, self.seed),
            trace(erased, self.depth, self.seed),
        )
    }
}

#[test]
fn an_erased_game_plays_as_the_game_itself() {
    for (spec, depth) in [
        ("tictactoe", 4),
        ("connectx:4x5x4", 4),
        ("hex:4:swap-pieces", 3),
        ("atoll:standard:pie", 2),
        ("unstable:3x3", 3),
    ] {
        for seed in 0..3 {
            let (direct, erased) =
                visit_game(&spec.parse().unwrap(), BothFaces { depth, seed }).unwrap();
            assert_eq!(direct, erased, "{spec}, seed {seed}");
        }
    }
}

#[test]
fn every_position_names_its_layout_and_sides() {
    let json = |spec: &str, moves: &str| {
        let mut game = new_game(&spec.parse().unwrap()).unwrap();
        game.play_list(moves).unwrap();
        game.to_json()
    };
    for (spec, moves, layout, sides) in [
        ("tictactoe", "", "squares", ["X", "O"]),
        ("connect4", "", "columns", ["Red", "Yellow"]),
        ("hex:5", "", "hexes", ["Black", "White"]),
        ("hex:5:swap-sides", "b2 swap", "hexes", ["White", "Black"]),
        ("atoll:standard:pie", "", "islands", ["Black", "White"]),
        ("unstable:3x3", "", "atoms", ["Black", "White"]),
    ] {
        let position = json(spec, moves);
        assert_eq!(position["layout"], layout, "{spec}");
        assert_eq!(position["sides"]["first"], sides[0], "{spec} {moves}");
        assert_eq!(position["sides"]["second"], sides[1], "{spec} {moves}");
    }
}

#[test]
fn games_go_by_the_names_people_use() {
    for (spec, name, words) in [
        ("tictactoe", "Tic-tac-toe", "3x3, three in a row"),
        ("gomoku", "Gomoku", "15x15, five in a row"),
        ("gomoku:standard", "Gomoku", "15x15, exactly five in a row"),
        (
            "renju",
            "Renju",
            "15x15, five in a row, renju's forbidden moves for Black",
        ),
        ("mnk:3x3x3", "Tic-tac-toe", "3x3, three in a row"),
        ("mnk:4x5x4", "m,n,k", "4 rows x 5 columns, four in a row"),
        (
            "connect4",
            "Connect Four",
            "6 rows x 7 columns, four in a row",
        ),
        (
            "connectx:7x9x4",
            "Connect-X",
            "7 rows x 9 columns, four in a row",
        ),
        ("hex:11", "Hex", "11x11"),
        (
            "hex:11x9:swap-sides",
            "Hex",
            "9 rows x 11 columns, swap rule",
        ),
        ("atoll:standard:pie", "Atoll", "standard board, pie rule"),
        (
            "chain-reaction",
            "Chain Reaction",
            "Unstable, 10 rows x 6 columns",
        ),
    ] {
        let spec: GameSpec = spec.parse().unwrap();
        let family = spec.family();
        assert_eq!(family.game_name(&spec), name, "{spec}");
        assert_eq!(family.board_words(&spec), words, "{spec}");
        let json = new_game(&spec).unwrap().to_json();
        assert_eq!(json["name"], name, "{spec}");
        assert_eq!(json["board_words"], words, "{spec}");
    }
}

/// Plays random games of a spec from its start, checking after every move that what the game
/// says of the change of its legal moves holds. Returns the moves checked and how many
/// changes the game said (`Unchanged` or `PlayedRemoved`, not `Unknown`).
struct LegalMovesChanges {
    seed: u64,
}

impl GameVisitor for LegalMovesChanges {
    type Output = (usize, usize);

    fn visit<G: EvaluatedGame>(self, start: G) -> (usize, usize) {
        let mut rng = SplitMix::new(self.seed);
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let (mut checked, mut said) = (0, 0);
        for _ in 0..4 {
            let mut game = start.clone();
            game.legal_moves(&mut before);
            while !before.is_empty() {
                let mv = before[(rng.next_u64() % before.len() as u64) as usize];
                game.play(mv);
                game.legal_moves(&mut after);
                let context = format!("{} after {:?}", game.spec(), game.history());
                let expected: Vec<_> = match game.legal_moves_change(mv) {
                    LegalMovesChange::Unknown => after.clone(),
                    LegalMovesChange::Unchanged => before.clone(),
                    LegalMovesChange::PlayedRemoved => {
                        before.iter().copied().filter(|&m| m != mv).collect()
                    }
                };
                if game.legal_moves_change(mv) != LegalMovesChange::Unknown {
                    said += 1;
                }
                assert_eq!(
                    after,
                    expected,
                    "{context}: {:?}",
                    game.legal_moves_change(mv)
                );
                std::mem::swap(&mut before, &mut after);
                checked += 1;
            }
        }
        (checked, said)
    }
}

#[test]
fn the_change_of_legal_moves_a_game_says_holds() {
    let examples = families().into_iter().flat_map(|family| family.examples());
    // Both swap rules, on a board small enough that the swap comes up often.
    for spec in examples.chain(&["hex:3:swap-pieces", "hex:3:swap-sides"]) {
        for seed in 0..3 {
            let parsed: GameSpec = spec.parse().unwrap();
            let (checked, said) = visit_game(&parsed, LegalMovesChanges { seed }).unwrap();
            assert!(checked > 0, "{spec}: no move played");
            // Hex, m,n,k and Connect-X say it (past the swap) rather than leave it unknown.
            if matches!(parsed.family().name(), "hex" | "mnk" | "connectx") && checked > 3 {
                assert!(said > 0, "{spec}: every change unknown");
            }
        }
    }
}
