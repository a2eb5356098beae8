//! m,n,k games: the conformance checks on many board shapes, perft against a naive
//! re-implementation of the rules, and the edge cases of the rules and of the notation.

use serde_json::json;
use zerosum_core::conformance::{check_playouts, Checks, PlayoutStats, SplitMix};
use zerosum_core::{perft, Game, MoveError, Outcome, Side, Status};
use zerosum_games::mnk::{self, Mnk};
use zerosum_games::{new_game, EvaluatedGame, GameSpec, GameVisitor};

// ---------------------------------------------------------------------------------------------
// An independent, deliberately naive model: a grid of i8 (1 first player, -1 second, 0 empty),
// a full scan of the board for a K-run after every move.
// ---------------------------------------------------------------------------------------------

/// The owner (1 or -1) of a run of `k` or more anywhere on `grid`, or 0. Walks from every cell
/// in each of the four directions.
fn naive_winner(grid: &[Vec<i8>], k: usize) -> i8 {
    let rows = grid.len() as isize;
    let cols = grid[0].len() as isize;
    for r in 0..rows {
        for c in 0..cols {
            let owner = grid[r as usize][c as usize];
            if owner == 0 {
                continue;
            }
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let mut length = 0;
                let (mut rr, mut cc) = (r, c);
                while rr >= 0
                    && rr < rows
                    && cc >= 0
                    && cc < cols
                    && grid[rr as usize][cc as usize] == owner
                {
                    length += 1;
                    rr += dr;
                    cc += dc;
                }
                if length >= k {
                    return owner;
                }
            }
        }
    }
    0
}

fn naive_over(grid: &[Vec<i8>], k: usize) -> bool {
    naive_winner(grid, k) != 0 || grid.iter().flatten().all(|&v| v != 0)
}

/// Positions after exactly `depth` moves, a finished game never continued.
fn naive_perft(grid: &mut Vec<Vec<i8>>, k: usize, player: i8, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if naive_over(grid, k) {
        return 0;
    }
    let mut total = 0;
    for r in 0..grid.len() {
        for c in 0..grid[0].len() {
            if grid[r][c] == 0 {
                grid[r][c] = player;
                total += naive_perft(grid, k, -player, depth - 1);
                grid[r][c] = 0;
            }
        }
    }
    total
}

/// The number of distinct complete games (move sequences until the end).
fn naive_complete_games(grid: &mut Vec<Vec<i8>>, k: usize, player: i8) -> u64 {
    if naive_over(grid, k) {
        return 1;
    }
    let mut total = 0;
    for r in 0..grid.len() {
        for c in 0..grid[0].len() {
            if grid[r][c] == 0 {
                grid[r][c] = player;
                total += naive_complete_games(grid, k, -player);
                grid[r][c] = 0;
            }
        }
    }
    total
}

fn empty_grid(rows: usize, cols: usize) -> Vec<Vec<i8>> {
    vec![vec![0; cols]; rows]
}

// ---------------------------------------------------------------------------------------------
// Conformance, with the invariant that the stored status agrees with a whole-board scan.
// ---------------------------------------------------------------------------------------------

/// Which sides own a run of `k` or more on `grid`: a one-pass scan keeping, for every cell and
/// direction, the length of the run ending there (fast enough for 70x70 at every ply).
fn scan_runs(grid: &[Vec<i8>], k: usize) -> [bool; 2] {
    let rows = grid.len();
    let cols = grid[0].len();
    let mut found = [false; 2];
    // run[d][r][c]: run length of grid[r][c]'s owner ending at (r, c) in direction d.
    let mut run = vec![vec![vec![0usize; cols]; rows]; 4];
    for r in 0..rows {
        for c in 0..cols {
            let owner = grid[r][c];
            if owner == 0 {
                continue;
            }
            let before = [
                (c > 0).then(|| (r, c - 1)),
                (r > 0).then(|| (r - 1, c)),
                (r > 0 && c > 0).then(|| (r - 1, c - 1)),
                (r > 0 && c + 1 < cols).then(|| (r - 1, c + 1)),
            ];
            for (d, previous) in before.into_iter().enumerate() {
                let length = match previous {
                    Some((pr, pc)) if grid[pr][pc] == owner => run[d][pr][pc] + 1,
                    _ => 1,
                };
                run[d][r][c] = length;
                if length >= k {
                    found[if owner == 1 { 0 } else { 1 }] = true;
                }
            }
        }
    }
    found
}

/// Rebuilds the board from the move history alone, checks the accessors against it, and checks
/// the stored status against a scan of the whole board.
fn status_matches_scan<const W: usize>(game: &Mnk<W>) -> Result<(), String> {
    let (rows, cols) = (game.rows(), game.cols());
    let mut grid = empty_grid(rows, cols);
    for (ply, &cell) in game.history().iter().enumerate() {
        let (r, c) = (cell as usize / cols, cell as usize % cols);
        if grid[r][c] != 0 {
            return Err(format!("cell {cell} played twice"));
        }
        grid[r][c] = match Side::at_ply(ply) {
            Side::First => 1,
            Side::Second => -1,
        };
    }
    for (r, line) in grid.iter().enumerate() {
        for (c, &value) in line.iter().enumerate() {
            let expected = match value {
                1 => Some(Side::First),
                -1 => Some(Side::Second),
                _ => None,
            };
            if game.cell_owner(r, c) != expected {
                return Err(format!("cell_owner({r}, {c}) disagrees with the history"));
            }
        }
    }
    let counts = [Side::First, Side::Second].map(|side| {
        game.stones(side)
            .iter()
            .map(|w| w.count_ones())
            .sum::<u32>() as usize
    });
    if counts != [game.ply().div_ceil(2), game.ply() / 2] {
        return Err(format!("stone counts {counts:?} at ply {}", game.ply()));
    }
    let runs = scan_runs(&grid, game.k());
    let expected = match runs {
        [true, true] => return Err("both sides have a run".into()),
        [true, false] => Status::Over(Outcome::Win(Side::First)),
        [false, true] => Status::Over(Outcome::Win(Side::Second)),
        [false, false] if game.ply() == rows * cols => Status::Over(Outcome::Draw),
        [false, false] => Status::Ongoing,
    };
    if game.status() != expected {
        return Err(format!(
            "status {:?} but the scan says {expected:?}",
            game.status()
        ));
    }
    if let Status::Over(Outcome::Win(winner)) = expected {
        if Side::at_ply(game.ply() - 1) != winner {
            return Err("the winner is not the side that moved last".into());
        }
        if game.winning_cells().len() < game.k() {
            return Err("winning_cells is shorter than K".into());
        }
    }
    Ok(())
}

fn conformance<const W: usize>(
    rows: usize,
    cols: usize,
    k: usize,
    games: usize,
    all_moves_every: usize,
) -> PlayoutStats {
    let start = Mnk::<W>::new(rows, cols, k);
    let checks = Checks {
        games,
        seed: (rows * 10_000 + cols * 100 + k) as u64,
        max_plies: rows * cols,
        all_moves_every,
    };
    let stats = check_playouts(&start, checks, status_matches_scan)
        .unwrap_or_else(|err| panic!("mnk:{rows}x{cols}x{k}: {err}"));
    assert_eq!(stats.games, games);
    stats
}

#[test]
fn conformance_tictactoe() {
    let stats = conformance::<1>(3, 3, 3, 600, 1);
    assert!(stats.first_wins > stats.second_wins && stats.second_wins > 0 && stats.draws > 0);
    assert_eq!(stats.longest, 9);
}

#[test]
fn conformance_4x4x4() {
    let stats = conformance::<1>(4, 4, 4, 400, 1);
    assert!(stats.first_wins > 0 && stats.second_wins > 0 && stats.draws > 0);
}

#[test]
fn conformance_5x4x4() {
    let stats = conformance::<1>(5, 4, 4, 400, 1);
    assert!(stats.first_wins > 0 && stats.second_wins > 0 && stats.draws > 0);
}

#[test]
fn conformance_3x7x5_k_exceeds_rows() {
    let stats = conformance::<1>(3, 7, 5, 400, 1);
    assert!(stats.first_wins > 0 && stats.second_wins > 0 && stats.draws > 0);
}

#[test]
fn conformance_9x9x5_two_words() {
    let stats = conformance::<2>(9, 9, 5, 100, 3);
    assert!(stats.first_wins > 0 && stats.second_wins > 0);
}

#[test]
fn conformance_gomoku_15x15x5() {
    let stats = conformance::<4>(15, 15, 5, 40, 10);
    assert!(stats.first_wins > 0 && stats.second_wins > 0);
}

#[test]
fn conformance_1x1x1() {
    let stats = conformance::<1>(1, 1, 1, 5, 1);
    assert_eq!(stats.first_wins, 5);
    assert_eq!(stats.longest, 1);
}

#[test]
fn conformance_70x70x10() {
    // The core checks cost O(n log n) string formatting per position for n legal moves, so the
    // playouts start from positions of a random game already well under way (up to ply 3000 of
    // 4900), where most words of the 157-word bit sets are mixed.
    let mut start = Mnk::<157>::new(70, 70, 10);
    let mut rng = SplitMix::new(70);
    let mut moves = Vec::new();
    let mut games = 0;
    for stop in [2_000, 2_600, 3_000] {
        while start.ply() < stop {
            start.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            start.play(mv);
            if start.status().is_over() {
                start.undo();
            }
        }
        status_matches_scan(&start).unwrap();
        let checks = Checks {
            games: 1,
            seed: stop as u64,
            max_plies: 4_900,
            all_moves_every: 400,
        };
        let stats = check_playouts(&start, checks, status_matches_scan)
            .unwrap_or_else(|err| panic!("mnk:70x70x10 from ply {stop}: {err}"));
        games += stats.games;
    }
    assert_eq!(games, 3);
}

#[test]
fn random_games_on_70x70x10_from_the_empty_board() {
    // The opening stretch the conformance playouts above skip: whole games with the status
    // checked against the scan, the hash against a recompute, and undo against a copy.
    let mut rng = SplitMix::new(4_900);
    let mut moves = Vec::new();
    let mut endings = Vec::new();
    for _ in 0..3 {
        let mut game = Mnk::<157>::new(70, 70, 10);
        while !game.status().is_over() {
            game.legal_moves(&mut moves);
            assert_eq!(moves.len(), 4_900 - game.ply());
            let before = game.clone();
            game.play(moves[rng.below(moves.len())]);
            status_matches_scan(&game).unwrap();
            assert_eq!(game.hash(), game.recompute_hash());
            let mut undone = game.clone();
            undone.undo();
            assert_eq!(undone, before);
        }
        endings.push(game.status());
    }
    assert!(
        endings.iter().all(|status| status.winner().is_some()),
        "{endings:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Perft against the naive model.
// ---------------------------------------------------------------------------------------------

/// Compares perft with the naive count at every depth up to `max_depth`; returns the counts.
fn perft_matches_naive<const W: usize>(
    rows: usize,
    cols: usize,
    k: usize,
    max_depth: usize,
) -> Vec<u64> {
    let mut game = Mnk::<W>::new(rows, cols, k);
    let start = game.clone();
    let mut grid = empty_grid(rows, cols);
    (1..=max_depth)
        .map(|depth| {
            let fast = perft(&mut game, depth);
            let naive = naive_perft(&mut grid, k, 1, depth);
            assert_eq!(fast, naive, "mnk:{rows}x{cols}x{k} depth {depth}");
            assert_eq!(game, start, "perft must restore the position");
            fast
        })
        .collect()
}

#[test]
fn perft_tictactoe_matches_naive_and_known_totals() {
    let counts = perft_matches_naive::<1>(3, 3, 3, 9);
    assert_eq!(
        counts,
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
    // Games ending at ply d: the positions at d minus those that go on, each of which has
    // 9 - d moves (so there are perft(d + 1) / (9 - d) of them).
    let mut complete_games = 0;
    for depth in 1..=9 {
        let going_on = if depth < 9 {
            counts[depth] / (9 - depth as u64)
        } else {
            0
        };
        complete_games += counts[depth - 1] - going_on;
    }
    assert_eq!(complete_games, 255_168);
    assert_eq!(naive_complete_games(&mut empty_grid(3, 3), 3, 1), 255_168);
    assert_eq!(perft(&mut Mnk::<1>::new(3, 3, 3), 10), 0);
}

#[test]
fn perft_4x4x4_matches_naive() {
    let counts = perft_matches_naive::<1>(4, 4, 4, 6);
    assert_eq!(counts[..4], [16, 240, 3360, 43680]);
}

#[test]
fn perft_3x5x4_k_exceeds_rows_matches_naive() {
    let counts = perft_matches_naive::<1>(3, 5, 4, 6);
    assert_eq!(counts[..3], [15, 210, 2730]);
}

#[test]
fn perft_5x5x4_matches_naive() {
    perft_matches_naive::<1>(5, 5, 4, 5);
}

#[test]
fn perft_on_a_multi_word_board_matches_naive() {
    // 12x12 = 144 cells in 4 words: exercises the word boundaries of the move generator.
    perft_matches_naive::<4>(12, 12, 3, 3);
}

// ---------------------------------------------------------------------------------------------
// Named edge cases.
// ---------------------------------------------------------------------------------------------

fn played<const W: usize>(rows: usize, cols: usize, k: usize, moves: &str) -> Mnk<W> {
    let mut game = Mnk::<W>::new(rows, cols, k);
    game.play_list(moves)
        .unwrap_or_else(|err| panic!("mnk:{rows}x{cols}x{k} {moves}: {err}"));
    game
}

fn winning_cells<const W: usize>(game: &Mnk<W>) -> serde_json::Value {
    game.board_json()["winning_cells"].clone()
}

const FIRST_WINS: Status = Status::Over(Outcome::Win(Side::First));
const SECOND_WINS: Status = Status::Over(Outcome::Win(Side::Second));

#[test]
fn overline_wins() {
    // K = 3: X holds a1 b1 and d1 e1, then c1 makes five in a row.
    let mut game = played::<1>(3, 7, 3, "a1 a3 b1 c3 d1 e3 e1 g3");
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("c1").unwrap();
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["a1", "b1", "c1", "d1", "e1"]));

    // Four in a row by the second player: c2 joins a2 b2 and d2.
    let mut game = played::<1>(3, 7, 3, "a1 a2 c1 b2 e1 d2 g3");
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("c2").unwrap();
    assert_eq!(game.status(), SECOND_WINS);
    assert_eq!(winning_cells(&game), json!(["a2", "b2", "c2", "d2"]));
}

#[test]
fn win_on_last_cell_is_a_win_not_a_draw() {
    // Final board     X O O
    // (b2 last):      O X X
    //                 X O X
    let mut game = played::<1>(3, 3, 3, "a1 b1 c2 c1 a3 a2 c3 b3");
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("b2").unwrap();
    assert_eq!(game.ply(), 9);
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["a1", "b2", "c3"]));
}

#[test]
fn full_board_without_run_is_draw() {
    // X O X
    // X O O
    // O X X
    let game = played::<1>(3, 3, 3, "a1 b1 c1 b2 a2 c2 b3 a3 c3");
    assert_eq!(game.status(), Status::Over(Outcome::Draw));
    let mut moves = vec![0];
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(winning_cells(&game), json!([]));
    assert_eq!(
        game.board_json()["cells"],
        json!([["X", "O", "X"], ["X", "O", "O"], ["O", "X", "X"]])
    );
}

#[test]
fn k_larger_than_rows_only_long_direction_wins() {
    // mnk:3x7x5: a full column of X is no win; neither is a full diagonal.
    let game = played::<1>(3, 7, 5, "a1 b1 a2 b2 a3");
    assert_eq!(game.status(), Status::Ongoing);
    let game = played::<1>(3, 7, 5, "a1 g1 b2 g2 c3");
    assert_eq!(game.status(), Status::Ongoing);
    // Five along a row wins.
    let game = played::<1>(3, 7, 5, "a1 a2 b1 b2 c1 c2 d1 d2 e1");
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["a1", "b1", "c1", "d1", "e1"]));
    // A 7x3 board: only columns can hold five.
    let game = played::<1>(7, 3, 5, "a1 b1 a2 b2 a3 b3 a4 b4 c1 b5");
    assert_eq!(game.status(), SECOND_WINS);
    assert_eq!(winning_cells(&game), json!(["b1", "b2", "b3", "b4", "b5"]));
}

#[test]
fn vertical_diagonal_antidiagonal_wins() {
    // Vertical, completed at the end of the run.
    let game = played::<1>(5, 5, 4, "a1 e1 a2 c2 a3 e3 a4");
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["a1", "a2", "a3", "a4"]));
    // Diagonal (down-right), completed in the middle of the run.
    let game = played::<1>(5, 5, 4, "a1 e1 b2 a3 d4 e5 c3");
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["a1", "b2", "c3", "d4"]));
    // Anti-diagonal (down-left), by the second player, from the board's top-right corner.
    let mut game = played::<1>(5, 5, 4, "a1 e1 a2 d2 a4 c3 c1");
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("b4").unwrap();
    assert_eq!(game.status(), SECOND_WINS);
    assert_eq!(winning_cells(&game), json!(["e1", "d2", "c3", "b4"]));
    // One move completing two lines at once (row 3 and column c) lists both.
    let game = played::<1>(3, 3, 3, "c1 a1 c2 b1 a3 a2 b3 b2 c3");
    assert_eq!(game.status(), FIRST_WINS);
    assert_eq!(winning_cells(&game), json!(["c1", "c2", "a3", "b3", "c3"]));
}

#[test]
fn occupied_cell_is_refused_with_reason() {
    let mut game = played::<1>(3, 3, 3, "b2");
    let before = game.clone();
    let b2 = game.parse_move("b2").unwrap();
    assert_eq!(game.illegal_reason(b2), Some("occupied"));
    assert!(!game.is_legal(b2));
    assert_eq!(
        game.try_play(b2),
        Err(MoveError::Illegal {
            mv: "b2".into(),
            reason: "occupied"
        })
    );
    assert_eq!(game, before);
    let err = game.play_text("B2").unwrap_err();
    assert!(err.to_string().contains("occupied"), "{err}");
    assert!(matches!(
        game.play_list("a1 a1"),
        Err(MoveError::InList { index: 2, .. })
    ));
    assert_eq!(game, before);
    assert_eq!(game.illegal_reason(9), Some("off the board"));
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut game = played::<1>(3, 3, 3, "a1 a2 b1 b2 c1");
    assert_eq!(game.status(), FIRST_WINS);
    let before = game.clone();
    let c3 = game.parse_move("c3").unwrap();
    assert_eq!(game.illegal_reason(c3), None, "the cell itself is free");
    assert!(!game.is_legal(c3));
    assert!(matches!(game.try_play(c3), Err(MoveError::GameOver { .. })));
    let err = game.play_text("c3").unwrap_err();
    assert!(err.to_string().contains("first player wins"), "{err}");
    assert!(game.play_list("c3").is_err());
    assert_eq!(game, before);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // Taking the winning move back reopens the game.
    game.undo();
    assert_eq!(game.status(), Status::Ongoing);
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 5);
}

#[test]
fn bad_cell_names_are_errors_not_panics() {
    let small = Mnk::<1>::new(3, 3, 3);
    let big = Mnk::<157>::new(100, 100, 10);
    let syntax = [
        "",
        " ",
        "a",
        "1",
        "1a",
        "a1b",
        "a-1",
        "a+1",
        "a 1",
        "a1,b2",
        "é1",
        "aé1",
        "a١",
        "ａ1",
        "a1\u{301}",
        "\u{0}",
        "(0,0)",
        "a1.5",
    ];
    let off_board = [
        "a0",
        "a00",
        "zz99",
        "a101",
        "cw1",
        "a99999999999999999999",
        "aaaaaaaaaaaaaaaaaaaaaaaa1",
        "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz99999999999999999999999999999999",
    ];
    for game in [&small as &dyn ParseOnly, &big] {
        for text in syntax {
            assert!(
                matches!(game.parse(text), Err(MoveError::Syntax { .. })),
                "{text:?}: {:?}",
                game.parse(text)
            );
        }
        for text in off_board {
            assert!(
                matches!(game.parse(text), Err(MoveError::OffBoard { .. })),
                "{text:?}: {:?}",
                game.parse(text)
            );
        }
    }
    for text in ["d1", "a4", "c4", "D3"] {
        let err = small.parse_move(text).unwrap_err();
        assert!(matches!(err, MoveError::OffBoard { .. }));
        assert!(err.to_string().contains("3 rows x 3 columns"), "{err}");
    }
    // Random text from an alphabet rich in near misses: never a panic, and whatever parses
    // prints back to a name that parses to the same cell.
    let alphabet: Vec<char> = "aAbcCvwzZ0123456789 ,-+é١ａ\u{0}\u{301}".chars().collect();
    let mut rng = SplitMix::new(7);
    for _ in 0..20_000 {
        let length = rng.below(8);
        let text: String = (0..length)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        for game in [&small as &dyn ParseOnly, &big] {
            if let Ok(cell) = game.parse(&text) {
                assert_eq!(game.parse(&game.format(cell)), Ok(cell), "{text:?}");
            }
        }
    }
}

/// Parsing and printing of boards of different word counts behind one type.
trait ParseOnly {
    fn parse(&self, text: &str) -> Result<u16, MoveError>;
    fn format(&self, cell: u16) -> String;
}

impl<const W: usize> ParseOnly for Mnk<W> {
    fn parse(&self, text: &str) -> Result<u16, MoveError> {
        self.parse_move(text)
    }
    fn format(&self, cell: u16) -> String {
        self.format_move(cell)
    }
}

#[test]
fn parse_print_round_trip_on_100x100() {
    let game = Mnk::<157>::new(100, 100, 10);
    let mut cells = Vec::new();
    game.all_moves(&mut cells);
    assert_eq!(cells.len(), 10_000);
    for &cell in &cells {
        let name = game.format_move(cell);
        assert_eq!(name, name.to_lowercase());
        assert_eq!(game.parse_move(&name), Ok(cell), "{name}");
        assert_eq!(game.parse_move(&name.to_uppercase()), Ok(cell), "{name}");
        let (row, col) = game.row_col(cell);
        assert_eq!(game.cell(row, col), cell);
    }
    assert_eq!(game.format_move(0), "a1");
    assert_eq!(game.format_move(25), "z1");
    assert_eq!(game.format_move(26), "aa1");
    assert_eq!(game.format_move(99), "cv1");
    assert_eq!(game.format_move(100), "a2");
    assert_eq!(game.format_move(9_999), "cv100");
    let tictactoe = Mnk::<1>::new(3, 3, 3);
    assert_eq!(tictactoe.parse_move("a1"), Ok(0));
    assert_eq!(tictactoe.parse_move("C3"), Ok(8));
    assert_eq!(tictactoe.parse_move("c1"), Ok(2));
}

#[test]
fn k_equals_one_first_move_wins() {
    for (rows, cols) in [(1, 1), (3, 3), (1, 5)] {
        let mut game = Mnk::<1>::new(rows, cols, 1);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let last = *moves.last().unwrap();
        game.play(last);
        assert_eq!(game.status(), FIRST_WINS, "{rows}x{cols}");
        assert_eq!(winning_cells(&game), json!([game.format_move(last)]));
        game.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Hash, rendering, JSON and dispatch.
// ---------------------------------------------------------------------------------------------

#[test]
fn transpositions_share_the_hash() {
    let a = played::<1>(3, 3, 3, "a1 b2 c3 c1");
    let b = played::<1>(3, 3, 3, "c3 c1 a1 b2");
    assert_ne!(a, b, "the histories differ");
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.recompute_hash());
    let c = played::<1>(3, 3, 3, "b2 a1 c1 c3");
    assert_ne!(a.hash(), c.hash(), "same cells, other owners");
    assert_eq!(Mnk::<1>::new(3, 3, 3).hash(), 0);
}

#[test]
fn render_draws_letters_numbers_and_marks() {
    let game = played::<1>(3, 3, 3, "a1 b2 c3");
    assert_eq!(game.render(), "  a b c\n1 X . .\n2 . O .\n3 . . X\n");

    let game = played::<4>(15, 15, 5, "h8 o15");
    let text = game.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 16);
    assert_eq!(lines[0], "   a b c d e f g h i j k l m n o");
    assert_eq!(lines[8], " 8 . . . . . . . X . . . . . . .");
    assert_eq!(lines[15], "15 . . . . . . . . . . . . . . O");

    // Past column z the letters stack on two header lines, keeping cells two characters wide.
    let game = played::<157>(100, 100, 10, "a1 cv100");
    let text = game.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 102);
    assert!(lines.iter().all(|line| line.len() <= 3 + 2 * 100));
    assert!(lines[0].starts_with(&format!("{}a a", " ".repeat(4 + 2 * 26))));
    assert!(lines[0].ends_with("c c"));
    assert!(lines[1].starts_with("    a b c"));
    assert!(lines[1].ends_with("u v"));
    assert!(lines[2].starts_with("  1 X ."));
    assert!(lines[101].starts_with("100 . .") && lines[101].ends_with(". O"));
    assert!(text.ends_with('\n'));
}

#[test]
fn board_json_has_the_documented_fields() {
    let game = Mnk::<1>::new(2, 3, 2);
    assert_eq!(
        game.board_json(),
        json!({
            "rows": 2, "cols": 3, "k": 2,
            "cells": [[".", ".", "."], [".", ".", "."]],
            "last_move": null,
            "winning_cells": [],
        })
    );
    let game = played::<1>(2, 3, 2, "b1 a1 c2");
    assert_eq!(
        game.board_json(),
        json!({
            "rows": 2, "cols": 3, "k": 2,
            "cells": [["O", "X", "."], [".", ".", "X"]],
            "last_move": "c2",
            "winning_cells": ["b1", "c2"],
        })
    );
}

#[test]
fn visit_picks_the_smallest_word_count() {
    struct TypeName;
    impl GameVisitor for TypeName {
        type Output = (String, GameSpec);
        fn visit<G: EvaluatedGame>(self, game: G) -> (String, GameSpec) {
            (std::any::type_name::<G>().to_string(), game.spec())
        }
    }
    for (rows, cols, k, words) in [
        (1, 1, 1, 1),
        (8, 8, 5, 1),
        (3, 22, 3, 2),
        (11, 11, 5, 2),
        (15, 15, 5, 4),
        (16, 16, 5, 4),
        (32, 32, 6, 16),
        (33, 33, 6, 40),
        (50, 50, 10, 40),
        (70, 70, 10, 157),
        (100, 100, 64, 157),
    ] {
        let (name, spec) = mnk::visit(rows, cols, k, mnk::Rule::Freestyle, TypeName);
        assert!(
            name.ends_with(&format!("Mnk<{words}>")),
            "{rows}x{cols}: {name}"
        );
        assert_eq!(spec, mnk::spec(rows, cols, k).unwrap());
    }
}

#[test]
fn new_game_plays_through_the_dynamic_face() {
    let spec: GameSpec = "gomoku".parse().unwrap();
    let mut game = new_game(&spec).unwrap();
    assert_eq!(game.spec().to_string(), "mnk:15x15x5");
    assert_eq!(game.legal_moves().len(), 225);
    game.play_list("h8 a1 i8 a2 j8 a3 k8 a4").unwrap();
    assert_eq!(game.play("L8").unwrap(), "l8");
    assert_eq!(game.status(), FIRST_WINS);
    let json = game.to_json();
    assert_eq!(
        json["board"]["winning_cells"],
        json!(["h8", "i8", "j8", "k8", "l8"])
    );
    assert_eq!(json["status"], "first");
    assert!(game.undo());
    assert_eq!(game.status(), Status::Ongoing);

    let mut huge = new_game(&"mnk:100x100x10".parse().unwrap()).unwrap();
    assert_eq!(huge.legal_moves().len(), 10_000);
    assert_eq!(huge.play("CV100").unwrap(), "cv100");
}

/// `windows-ovcf` looks for the opponent's victory by continuous fours at a quiet leaf: with
/// the second player's open three h8 i8 j8 (a win by fours were it to move) and the first
/// player to move without a threat, the value is the window evaluation's less the penalty of
/// 150; without such a win (an open two) both evaluations agree.
#[test]
fn the_opponents_win_by_fours_costs_the_static_value_under_windows_ovcf() {
    use zerosum_core::Evaluator;
    let plain = Mnk::<4>::new(15, 15, 5).evaluator_named("windows").unwrap();
    let ovcf = Mnk::<4>::new(15, 15, 5)
        .evaluator_named("windows-ovcf")
        .unwrap();
    let threat: Mnk<4> = played(15, 15, 5, "a1 h8 a15 i8 o1 j8");
    assert_eq!(ovcf.evaluate(&threat), plain.evaluate(&threat) - 150);
    let quiet: Mnk<4> = played(15, 15, 5, "a1 h8 a15 i8");
    assert_eq!(ovcf.evaluate(&quiet), plain.evaluate(&quiet));
    assert!(Mnk::<4>::new(15, 15, 5)
        .evaluator_named("windows-ovcf-typo")
        .unwrap_err()
        .contains("windows-ovcf"));
}

/// Gomoku's default evaluation is the windows under the freestyle and standard rules (where
/// they beat the patterns) and the pattern evaluation under renju (whose forbidden moves the
/// windows do not know): the default scores, orders and chooses moves as the named one does.
#[test]
fn the_default_gomoku_evaluation_is_the_windows_but_under_renju() {
    use zerosum_core::Evaluator;
    for (rule, default_name, other_name) in [
        (mnk::Rule::Freestyle, "windows", "patterns"),
        (mnk::Rule::Standard, "windows", "patterns"),
        (mnk::Rule::Renju, "patterns", "windows"),
    ] {
        let mut game = Mnk::<4>::with_rule(15, 15, 5, rule);
        game.play_list("h8,h9,i8,j10,g8").unwrap();
        let judge = |evaluator: mnk::MnkEvaluator| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let hints: Vec<i32> = moves
                .iter()
                .map(|&mv| evaluator.move_hint(&game, mv))
                .collect();
            evaluator.candidate_moves(&game, &mut moves);
            (evaluator.evaluate(&game), hints, moves)
        };
        let default = judge(game.evaluator());
        assert_eq!(
            default,
            judge(game.evaluator_named(default_name).unwrap()),
            "{rule:?}"
        );
        assert_ne!(
            default,
            judge(game.evaluator_named(other_name).unwrap()),
            "{rule:?}"
        );
    }
}

/// The empty cells within Chebyshev distance 2 of a stone, in cell order.
fn near_cells<const W: usize>(game: &Mnk<W>) -> Vec<u16> {
    let (rows, cols) = (game.rows() as isize, game.cols() as isize);
    let occupied = |r: isize, c: isize| {
        (0..rows).contains(&r)
            && (0..cols).contains(&c)
            && game.cell_owner(r as usize, c as usize).is_some()
    };
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if occupied(r, c) {
                continue;
            }
            let near = (-2..=2).any(|dr| (-2..=2).any(|dc| occupied(r + dr, c + dc)));
            if near {
                cells.push((r * cols + c) as u16);
            }
        }
    }
    cells
}

/// With pattern candidates (`eval=windows` on freestyle gomoku), a quiet node's candidates are
/// the 8 best by the window hint (and ties), then those of the 8 best by the pattern score not
/// among them: against the plain windows and the pattern evaluation cut to 8, on random
/// positions; a node with a threat to answer keeps the plain windows' answers.
#[test]
fn pattern_candidates_follow_the_window_order_then_the_pattern_order() {
    use zerosum_core::Evaluator;
    let start = Mnk::<4>::new(15, 15, 5);
    let count = mnk::PATTERN_CANDIDATES;
    let union = start.evaluator_named("windows").unwrap();
    let plain = start.evaluator_named("windows-plain").unwrap();
    let every = start
        .evaluator_named("windows-plain")
        .unwrap()
        .with_max_candidates(0);
    let by_hint = start
        .evaluator_named("windows-plain")
        .unwrap()
        .with_max_candidates(count);
    let by_pattern = start
        .evaluator_named("patterns")
        .unwrap()
        .with_max_candidates(count)
        .with_vcf_budget(0);
    let mut rng = SplitMix::new(0x5eed);
    let (mut quiet, mut forced, mut widened) = (0, 0, 0);
    let (mut moves, mut all, mut head, mut patterns) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..300 {
        let mut game = Mnk::<4>::new(15, 15, 5);
        let plies = 1 + rng.below(30);
        while game.ply() < plies && game.status() == Status::Ongoing {
            // Random stones near the centre, so that lines form.
            let cell = game.cell(4 + rng.below(7), 4 + rng.below(7));
            if game
                .cell_owner(cell as usize / 15, cell as usize % 15)
                .is_none()
            {
                game.play(cell);
            }
        }
        if game.status() != Status::Ongoing {
            continue;
        }
        union.candidate_moves(&game, &mut moves);
        every.candidate_moves(&game, &mut all);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        if sorted != near_cells(&game) {
            forced += 1;
            plain.candidate_moves(&game, &mut all);
            assert_eq!(
                moves, all,
                "a threat's answers stay the plain windows' answers"
            );
            continue;
        }
        quiet += 1;
        by_hint.candidate_moves(&game, &mut head);
        by_pattern.candidate_moves(&game, &mut patterns);
        let mut expected = head.clone();
        expected.extend(patterns.iter().filter(|mv| !head.contains(mv)));
        assert_eq!(moves, expected, "{}", game.board_json());
        widened += usize::from(moves.len() > head.len());
    }
    assert!(
        quiet > 100 && forced > 10 && widened > 50,
        "{quiet} {forced} {widened}"
    );
}
