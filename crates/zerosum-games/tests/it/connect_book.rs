//! Connect-X opening books: the embedded Connect Four book against the solver, mirror images,
//! corrupt files, and builds that are stopped and resumed.

use std::path::PathBuf;

use zerosum_core::conformance::SplitMix;
use zerosum_core::Game;
use zerosum_games::connect::book::build::{build, BuildOptions, Built};
use zerosum_games::connect::{Book, BookError, ConnectSolver, ConnectX64};

fn connect4() -> &'static Book {
    Book::for_board(6, 7, 4).expect("the embedded Connect Four book loads")
}

/// A game of random moves from the empty 7x6 board, `plies` long, or shorter if it ends.
fn random_game(random: &mut SplitMix, plies: usize) -> ConnectX64 {
    let mut game = ConnectX64::new(6, 7, 4);
    let mut moves = Vec::new();
    while game.ply() < plies {
        game.legal_moves(&mut moves);
        let mut child = game.clone();
        child.play(moves[random.below(moves.len())]);
        if child.status().is_over() {
            break;
        }
        game = child;
    }
    game
}

/// The same moves in mirrored columns.
fn mirrored(game: &ConnectX64) -> ConnectX64 {
    let mut mirror = ConnectX64::new(6, 7, 4);
    for &col in game.history() {
        mirror.play(6 - col);
    }
    mirror
}

#[test]
fn the_empty_board_is_a_win_by_the_centre_column_only() {
    let book = connect4();
    let empty = ConnectX64::new(6, 7, 4);
    assert_eq!(book.value(&empty), Some(1));
    let values = book
        .analyze(&empty)
        .expect("every first move is in the book");
    let best: Vec<usize> = (0..7).filter(|&c| values[c] == Some(1)).collect();
    assert_eq!(best, [3]);
    assert!(values.iter().all(|v| v.is_some_and(|v| v <= 1)));
}

#[test]
fn every_position_within_the_depth_is_in_the_book() {
    let book = connect4();
    let mut random = SplitMix::new(14);
    for _ in 0..500 {
        let game = random_game(&mut random, book.depth());
        assert!(book.value(&game).is_some(), "{:?}", game.history());
    }
}

/// A game from the empty 7x6 board to the book's `lines` plies: random moves to its depth, then
/// on the line of best play of `side` (a best move of the book for `side`, random for the
/// other), or shorter if the game ends.
fn line_game(book: &Book, random: &mut SplitMix, side: zerosum_core::Side) -> ConnectX64 {
    let mut game = random_game(random, book.depth());
    while game.ply() < book.lines() && !game.status().is_over() {
        let values = book.analyze(&game).expect("a line's moves are in the book");
        let mut moves: Vec<u8> = (0..7u8).filter(|&c| values[c as usize].is_some()).collect();
        if game.to_move() == side {
            let best = values.iter().flatten().max().copied();
            moves.retain(|&c| values[c as usize] == best);
        }
        let mut child = game.clone();
        child.play(moves[random.below(moves.len())]);
        if child.status().is_over() {
            break;
        }
        game = child;
    }
    game
}

#[test]
fn the_book_agrees_with_the_solver_on_its_deepest_positions() {
    // The deepest positions are the cheapest to solve: ten of them, at the ends of
    // random lines of best play of each side.
    let book = connect4();
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 16);
    let mut random = SplitMix::new(4);
    for round in 0..10 {
        let side = [zerosum_core::Side::First, zerosum_core::Side::Second][round % 2];
        let game = line_game(book, &mut random, side);
        let value = book
            .value(&game)
            .expect("a line's positions are in the book");
        assert_eq!(
            solver.solve(&game, false).unwrap(),
            value,
            "{:?}",
            game.history()
        );
        assert_eq!(book.value(&mirrored(&game)), Some(value));
    }
}

#[test]
fn a_position_and_its_mirror_image_have_one_value() {
    let book = connect4();
    let mut random = SplitMix::new(7);
    for _ in 0..300 {
        let plies = random.below(book.lines() + 1);
        let game = random_game(&mut random, plies);
        assert_eq!(
            book.value(&game),
            book.value(&mirrored(&game)),
            "{:?}",
            game.history()
        );
    }
}

#[test]
fn a_position_beyond_the_book_or_of_another_board_is_not_in_it() {
    let book = connect4();
    let mut random = SplitMix::new(1);
    let deep = random_game(&mut random, book.lines() + 2);
    if deep.ply() > book.lines() {
        assert_eq!(book.value(&deep), None);
    }
    assert_eq!(book.value(&ConnectX64::new(5, 7, 4)), None);
    assert!(Book::for_board(5, 4, 4).is_none());
}

/// A scratch file path for `name`, removed first.
fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("zerosum-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Options for a small, quick book: 4 rows, 5 columns, 4 in a row.
fn small(max_solves: Option<u64>) -> BuildOptions {
    BuildOptions {
        rows: 4,
        cols: 5,
        k: 4,
        depth: 3,
        lines: 7,
        threads: 2,
        hash_mb: 1,
        max_solves,
    }
}

fn complete(built: Built) -> Book {
    match built {
        Built::Complete(book) => book,
        Built::Stopped { solved } => panic!("stopped after {solved}"),
    }
}

#[test]
fn a_stopped_build_resumed_ends_with_the_book_of_an_uninterrupted_one() {
    let whole_path = scratch("whole");
    let whole = complete(build(&small(None), &whole_path, &mut |_| {}).unwrap());
    let parts_path = scratch("parts");
    let mut stops = 0;
    let resumed = loop {
        match build(&small(Some(40)), &parts_path, &mut |_| {}).unwrap() {
            Built::Complete(book) => break book,
            Built::Stopped { solved } => {
                assert!(solved >= 40, "{solved}");
                stops += 1;
                // A kill in the middle of a line leaves it cut short.
                let mut file = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&parts_path)
                    .unwrap();
                std::io::Write::write_all(&mut file, b"3f1a").unwrap();
            }
        }
    };
    assert!(stops >= 2, "the build stopped {stops} times");
    assert_eq!(resumed.to_bytes(), whole.to_bytes());
    assert_eq!(whole.board(), (4, 5, 4));
    assert_eq!((whole.depth(), whole.lines()), (3, 7));
    // A finished build run again solves nothing and writes the same book.
    let mut solved = 0;
    let again = complete(build(&small(None), &whole_path, &mut |p| solved = p.solved).unwrap());
    assert_eq!((solved, again), (0, whole));
}

#[test]
fn a_built_book_agrees_with_the_solver_and_reads_back() {
    let path = scratch("agree");
    let book = complete(build(&small(None), &path, &mut |_| {}).unwrap());
    assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    let mut solver = ConnectSolver::<u64>::new(4, 5, 4, 1);
    let mut random = SplitMix::new(9);
    let mut found = 0;
    for _ in 0..300 {
        let mut game = zerosum_games::connect::ConnectX64::new(4, 5, 4);
        let mut moves = Vec::new();
        for _ in 0..random.below(9) {
            game.legal_moves(&mut moves);
            game.play(moves[random.below(moves.len())]);
            if game.status().is_over() {
                break;
            }
        }
        if game.status().is_over() {
            continue;
        }
        let value = book.value(&game);
        if game.ply() <= 3 {
            assert!(value.is_some(), "{:?}", game.history());
        }
        if let Some(value) = value {
            assert_eq!(solver.solve(&game, false).unwrap(), value);
            found += 1;
        }
    }
    assert!(found > 100, "{found} positions found");
}

#[test]
fn corrupt_or_truncated_books_are_refused_with_the_reason() {
    let path = scratch("corrupt");
    let bytes = complete(build(&small(None), &path, &mut |_| {}).unwrap()).to_bytes();
    for cut in [0, 5, 31, 32, 33, bytes.len() - 1] {
        let error = Book::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(error, BookError::TooShort(_) | BookError::Length { .. }),
            "{cut}: {error}"
        );
    }
    let changed = |at: usize, value: u8| {
        let mut copy = bytes.clone();
        copy[at] = value;
        Book::from_bytes(&copy).unwrap_err()
    };
    assert_eq!(changed(0, b'X'), BookError::NotABook);
    assert_eq!(changed(8, 2), BookError::Version(2));
    assert!(matches!(changed(11, 60), BookError::Board { .. }));
    assert_eq!(changed(13, 9), BookError::Depths);
    assert_eq!(changed(40, bytes[40] ^ 1), BookError::Checksum);
    let error = changed(40, bytes[40] ^ 1).to_string();
    assert!(
        error.contains("corrupt") && !error.contains('\n'),
        "{error}"
    );
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(matches!(
        Book::from_bytes(&extra),
        Err(BookError::Length { .. })
    ));
}

#[test]
fn a_checkpoint_of_another_board_is_refused() {
    let path = scratch("other-board");
    std::fs::write(&path, "zerosum-book-solved 6x7x4\n1 0\n").unwrap();
    let error = build(&small(None), &path, &mut |_| {}).unwrap_err();
    assert!(
        error.to_string().contains("not a book checkpoint"),
        "{error}"
    );
}
