//! Move notation of every game family: a move text parsed and played against a position
//! reached by random legal moves.
//!
//! An input is two control bytes then the text: the first byte picks the game (from the
//! target's specs) and how many random plies to play first, the second seeds the choice of
//! those plies. The checks: a move the game accepts is one of its legal moves, spelt
//! canonically, and undoing it restores the position; a move list that fails leaves the
//! position as it was; the legal moves are empty exactly when the game is over.

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zerosum_games::{new_game, DynGame, GameSpec};

use super::{text, Target, Verdict};

/// Random plies played before the move, at most.
const MAX_PLIES: usize = 96;

/// A move target: its name and specs, example moves and notation tokens.
macro_rules! move_target {
    ($name:literal, $about:literal, [$($spec:literal),+], [$($example:literal),+], [$($token:literal),*]) => {{
        fn run(input: &[u8]) -> Verdict {
            run_on(&[$($spec),+], input)
        }
        fn corpus() -> Vec<Vec<u8>> {
            let mut corpus = Vec::new();
            for (i, example) in [$($example),+].iter().enumerate() {
                for plies in [0u8, 3, 10, 40] {
                    let mut input = vec![plies.wrapping_mul(4).wrapping_add(i as u8 % 4), i as u8];
                    input.extend_from_slice(example.as_bytes());
                    corpus.push(input);
                }
            }
            corpus
        }
        Target {
            name: $name,
            about: $about,
            corpus,
            tokens: &[$($token),*],
            share: 1,
            run,
        }
    }};
}

/// The move targets, one per family (two for Connect-X board layouts, two for the Hex swap
/// rules).
pub fn targets() -> [Target; 7] {
    [
        move_target!(
            "moves-mnk",
            "m,n,k move notation (cells `a1`, lists)",
            ["tictactoe", "mnk:15x15x5", "mnk:7x4x3", "mnk:30x28x6"],
            [
                "a1", "b2", "c3", "o15", "h8", "A1", " b2 ", "aa1", "ab28", "a0", "p1", "a1,b2",
                "a1 b2 c3", "1a"
            ],
            ["a", "z", "aa", "ab", "1", "15", "28", "30"]
        ),
        move_target!(
            "moves-connectx",
            "Connect-X move notation on bit boards of one and two words (columns, lists)",
            [
                "connect4",
                "connectx:4x9x4",
                "connectx:1x5x2",
                "connectx:9x12x5"
            ],
            ["1", "4", "7", "12", "4453", "4,4,5", "4 5 3", "0", "8", "+4", "04"],
            ["1", "7", "9", "12", "13"]
        ),
        move_target!(
            "moves-connectx-wide",
            "Connect-X move notation on wide boards (beyond 128 bits)",
            [
                "connectx:20x20x5",
                "connectx:12x11x4",
                "connectx:100x100x30"
            ],
            ["1", "20", "11", "100", "101", "1,2,3", "10 10 10", "0"],
            ["1", "11", "20", "100"]
        ),
        move_target!(
            "moves-hex-swap-sides",
            "Hex move notation with the swap-sides rule (and none)",
            [
                "hex:11:swap-sides",
                "hex:5:swap-sides",
                "hex:7x5:swap-sides",
                "hex:11"
            ],
            [
                "a1",
                "k11",
                "f6",
                "swap-sides",
                "swap",
                "l1",
                "a12",
                "e5,swap-sides",
                "c3 b4"
            ],
            ["swap-sides", "swap-pieces", "swap", "a", "k", "11"]
        ),
        move_target!(
            "moves-hex-swap-pieces",
            "Hex move notation with the swap-pieces rule",
            [
                "hex:11:swap-pieces",
                "hex:4:swap-pieces",
                "hex:1:swap-pieces"
            ],
            [
                "a1",
                "k11",
                "b3",
                "swap-pieces",
                "swap",
                "a1,swap-pieces",
                "d4 c3"
            ],
            ["swap-sides", "swap-pieces", "swap", "a", "k", "11"]
        ),
        move_target!(
            "moves-atoll",
            "Atoll move notation (cells, `swap` with the pie rule)",
            [
                "atoll:standard",
                "atoll:standard:pie",
                "atoll:hexhex6:pie",
                "atoll:rhombus5"
            ],
            ["e5", "a1", "i9", "swap", "pie", "b2,swap", "k11", "e5 d6"],
            ["swap", "pie", "a", "i", "9", "13"]
        ),
        move_target!(
            "moves-unstable",
            "Unstable (Chain Reaction) move notation (row letter, column)",
            ["unstable", "unstable:2x2", "unstable:5x3", "unstable:12x40"],
            ["A1", "J6", "E3", "a1", "K1", "A7", "A1,J6,A1", "B2 B2"],
            ["A", "J", "Z", "1", "6", "10"]
        ),
    ]
}

/// Plays the input's random plies on one of `specs`, then its move text.
fn run_on(specs: &[&str], input: &[u8]) -> Verdict {
    let (control, mv) = input.split_at(input.len().min(2));
    let first = control.first().copied().unwrap_or(0) as usize;
    let second = control.get(1).copied().unwrap_or(0) as u64;
    let spec: GameSpec = specs[first % specs.len()]
        .parse()
        .expect("the targets' specs are valid");
    let mut game = new_game(&spec).expect("the targets' games exist");
    let mut rng = ChaCha8Rng::seed_from_u64(second);
    for _ in 0..(first / 4) % MAX_PLIES {
        match game.legal_moves().choose(&mut rng) {
            Some(legal) => {
                let legal = legal.clone();
                game.play(&legal)
                    .unwrap_or_else(|e| panic!("legal move `{legal}` refused: {e}"));
            }
            None => break,
        }
    }
    check_position(game.as_ref());
    let text = text(mv);
    let verdict = play_one(game.as_mut(), &text);
    play_list(game.as_mut(), &text);
    verdict
}

/// The legal moves are empty exactly when the game is over.
fn check_position(game: &dyn DynGame) {
    assert_eq!(
        game.legal_moves().is_empty(),
        game.status().is_over(),
        "{}: legal moves and status disagree after {:?}",
        game.spec(),
        game.history()
    );
}

fn play_one(game: &mut dyn DynGame, text: &str) -> Verdict {
    let legal = game.legal_moves();
    let (hash, ply) = (game.hash(), game.ply());
    let played = game.play(text);
    match &played {
        Ok(canonical) => {
            assert!(
                legal.contains(canonical),
                "{}: `{text}` was played as `{canonical}`, not a legal move",
                game.spec()
            );
            assert_eq!(game.ply(), ply + 1);
            check_position(game);
            let _ = game.render();
            assert!(game.undo());
            assert_eq!((game.hash(), game.ply()), (hash, ply), "undo of `{text}`");
            // The canonical spelling plays the same move.
            assert_eq!(game.play(canonical).as_ref(), Ok(canonical));
            assert!(game.undo());
        }
        Err(_) => assert_eq!((game.hash(), game.ply()), (hash, ply), "refused `{text}`"),
    }
    Verdict::of(&played)
}

fn play_list(game: &mut dyn DynGame, text: &str) {
    let (hash, ply) = (game.hash(), game.ply());
    if game.play_list(text).is_err() {
        assert_eq!(
            (game.hash(), game.ply()),
            (hash, ply),
            "a refused list `{text}` changed the position"
        );
    } else {
        check_position(game);
    }
}
