//! Connect-X rules: conformance over random playouts on every board representation, agreement
//! between representations, perft against a naive brute force, distinct-position counts from
//! `known-results.md`, Pons' test positions, and the rules' edge cases.

use std::path::Path;

use zerosum_core::conformance::{check_playouts, Checks, SplitMix};
use zerosum_core::{count_distinct_positions, perft, Game, MoveError, Outcome, Side, Status};
use zerosum_games::connect::{ConnectBoard, ConnectX, ConnectX128, ConnectX64, ConnectXWide};

/// A deliberately naive Connect-X written for these tests: a grid of `i8` (row 0 at the top),
/// a full scan of every line of the board for a run after each move.
#[derive(Clone)]
struct NaiveConnect {
    rows: usize,
    cols: usize,
    k: usize,
    grid: Vec<Vec<i8>>,
    ply: usize,
}

impl NaiveConnect {
    fn new(rows: usize, cols: usize, k: usize) -> Self {
        NaiveConnect {
            rows,
            cols,
            k,
            grid: vec![vec![0; cols]; rows],
            ply: 0,
        }
    }

    fn free_row(&self, col: usize) -> Option<usize> {
        (0..self.rows).rev().find(|&r| self.grid[r][col] == 0)
    }

    fn winner(&self) -> i8 {
        for r in 0..self.rows as isize {
            for c in 0..self.cols as isize {
                let who = self.grid[r as usize][c as usize];
                if who == 0 {
                    continue;
                }
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let run = (0..self.k as isize)
                        .take_while(|&i| {
                            let (rr, cc) = (r + i * dr, c + i * dc);
                            rr >= 0
                                && cc >= 0
                                && rr < self.rows as isize
                                && cc < self.cols as isize
                                && self.grid[rr as usize][cc as usize] == who
                        })
                        .count();
                    if run == self.k {
                        return who;
                    }
                }
            }
        }
        0
    }

    fn perft(&mut self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for col in 0..self.cols {
            if let Some(row) = self.free_row(col) {
                self.grid[row][col] = if self.ply.is_multiple_of(2) { 1 } else { 2 };
                self.ply += 1;
                let over = self.winner() != 0 || self.ply == self.rows * self.cols;
                total += if over {
                    u64::from(depth == 1)
                } else {
                    self.perft(depth - 1)
                };
                self.ply -= 1;
                self.grid[row][col] = 0;
            }
        }
        total
    }
}

fn checks(games: usize, all_moves_every: usize, cells: usize) -> Checks {
    Checks {
        games,
        seed: 0x5EED,
        max_plies: cells,
        all_moves_every,
    }
}

/// The stored status agrees with a naive scan of the same position.
fn status_matches_naive<B: ConnectBoard>(game: &ConnectX<B>) -> Result<(), String> {
    let mut naive = NaiveConnect::new(game.rows(), game.cols(), game.k());
    for row in 0..game.rows() {
        for col in 0..game.cols() {
            naive.grid[row][col] = match game.owner(row, col) {
                None => 0,
                Some(Side::First) => 1,
                Some(Side::Second) => 2,
            };
        }
    }
    let expected = match naive.winner() {
        1 => Status::Over(Outcome::Win(Side::First)),
        2 => Status::Over(Outcome::Win(Side::Second)),
        _ if game.ply() == game.rows() * game.cols() => Status::Over(Outcome::Draw),
        _ => Status::Ongoing,
    };
    if game.status() == expected {
        Ok(())
    } else {
        Err(format!(
            "status {:?}, a full scan says {expected:?}",
            game.status()
        ))
    }
}

#[test]
fn random_playouts_on_packed_u64_boards() {
    for (rows, cols, k, games) in [
        (6, 7, 4, 400),
        (4, 4, 4, 300),
        (1, 1, 1, 5),
        (2, 2, 2, 50),
        (6, 7, 6, 100),
        (63, 1, 4, 20),
        (7, 8, 5, 100),
        (3, 5, 5, 20),
    ] {
        let stats = check_playouts(
            &ConnectX64::new(rows, cols, k),
            checks(games, 1, rows * cols),
            status_matches_naive,
        )
        .unwrap_or_else(|e| panic!("{rows}x{cols}x{k}: {e}"));
        assert_eq!(stats.games, games);
    }
}

#[test]
fn random_playouts_on_packed_u128_and_wide_boards() {
    for (rows, cols, k, games) in [(7, 9, 4, 100), (10, 10, 5, 50), (1, 64, 3, 20)] {
        check_playouts(
            &ConnectX128::new(rows, cols, k),
            checks(games, 3, rows * cols),
            status_matches_naive,
        )
        .unwrap_or_else(|e| panic!("u128 {rows}x{cols}x{k}: {e}"));
    }
    for (rows, cols, k, games) in [(6, 7, 4, 100), (12, 12, 4, 30), (25, 25, 10, 5)] {
        check_playouts(
            &ConnectXWide::new(rows, cols, k),
            checks(games, 7, rows * cols),
            status_matches_naive,
        )
        .unwrap_or_else(|e| panic!("wide {rows}x{cols}x{k}: {e}"));
    }
    check_playouts(
        &ConnectXWide::new(100, 100, 30),
        checks(2, 2_000, 10_000),
        |_| Ok(()),
    )
    .unwrap();
}

#[test]
fn representations_agree_move_by_move() {
    let mut rng = SplitMix::new(7);
    for (rows, cols, k) in [(6, 7, 4), (5, 9, 4), (4, 4, 3), (7, 8, 5)] {
        for _ in 0..100 {
            let mut packed = ConnectX128::new(rows, cols, k);
            let mut wide = ConnectXWide::new(rows, cols, k);
            let mut moves = Vec::new();
            loop {
                assert_eq!(packed.status(), wide.status());
                assert_eq!(packed.hash(), wide.hash());
                assert_eq!(packed.render(), wide.render());
                assert_eq!(packed.board_json(), wide.board_json());
                packed.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                packed.play(mv);
                wide.play(mv);
            }
        }
    }
}

#[test]
fn perft_matches_naive_brute_force() {
    let mut connect4 = ConnectX64::new(6, 7, 4);
    let mut naive = NaiveConnect::new(6, 7, 4);
    for depth in 0..=8 {
        assert_eq!(
            perft(&mut connect4, depth),
            naive.perft(depth),
            "connect4 depth {depth}"
        );
    }
    // Public Connect Four perft figures (first wins are possible from ply 7 on).
    assert_eq!(perft(&mut connect4, 7), 823_536);
    assert_eq!(perft(&mut connect4, 8), 5_673_234);
    for (rows, cols, k, depth) in [(4, 4, 3, 8), (3, 5, 2, 7), (5, 4, 4, 9), (2, 2, 2, 4)] {
        let mut game = ConnectXWide::new(rows, cols, k);
        let mut naive = NaiveConnect::new(rows, cols, k);
        for d in 0..=depth {
            assert_eq!(
                perft(&mut game, d),
                naive.perft(d),
                "{rows}x{cols}x{k} depth {d}"
            );
        }
    }
}

/// Distinct legal positions with X = 4 (`known-results.md`), rows are heights.
#[test]
fn distinct_positions_match_known_results() {
    let table: &[(usize, &[u64])] = &[
        (2, &[3, 18, 116, 741, 4_688, 29_737, 189_648]),
        (3, &[4, 58, 869, 12_031, 158_911, 2_087_325]),
        (4, &[5, 179, 6_000, 161_029, 3_945_711]),
        (5, &[6, 537, 38_310, 1_706_255]),
        (6, &[7, 1_571, 235_781]),
    ];
    for &(rows, counts) in table {
        for (i, &expected) in counts.iter().enumerate() {
            let cols = i + 1;
            if rows.max(cols) < 4 {
                continue; // A run of 4 fits no side: no such game.
            }
            let mut game = ConnectX64::new(rows, cols, 4);
            let count = count_distinct_positions(&mut game, |g| g.exact_key().expect("packed"));
            assert_eq!(count, expected, "{rows} rows x {cols} columns");
        }
    }
}

/// A file of Pons' test sets (the repository's `data/connect4/pons/`), read when the test runs.
fn data_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/connect4/pons")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the repository's test data)", path.display()))
}

#[test]
fn pons_test_positions_replay_as_ongoing_games() {
    for file in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R3",
    ] {
        let text = data_file(file);
        let mut lines = 0;
        for line in text.lines() {
            let moves = line.split_whitespace().next().unwrap();
            let mut game = ConnectX64::new(6, 7, 4);
            game.play_list(moves)
                .unwrap_or_else(|e| panic!("{file}: {moves}: {e}"));
            assert_eq!(game.ply(), moves.len());
            assert_eq!(game.status(), Status::Ongoing, "{file}: {moves}");
            let replayed: String = game
                .history()
                .iter()
                .map(|&m| game.format_move(m))
                .collect();
            assert_eq!(replayed, moves);
            lines += 1;
        }
        assert_eq!(lines, 1000, "{file}");
    }
}

#[test]
fn full_column_is_refused() {
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("1,1,1,1,1,1").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
    let err = game.play_text("1").unwrap_err();
    assert_eq!(
        err,
        MoveError::Illegal {
            mv: "1".into(),
            reason: "column full"
        }
    );
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn overline_wins() {
    // Bottom row: X on 1, 2, 4, 5, then 3 makes five in a row with K = 4.
    let mut game = ConnectX64::new(2, 7, 4);
    game.play_list("1,1,2,2,4,4,5,5").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("3").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    assert_eq!(
        game.board_json()["winning_cells"].as_array().unwrap().len(),
        5
    );
}

#[test]
fn win_on_last_cell_is_a_win_not_a_draw() {
    // 1 row, 3 columns, K = 2: X a, O c, X b fills the board and joins a-b.
    let mut game = ConnectX64::new(1, 3, 2);
    game.play_list("1,3,2").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    // The second player too: X a, O b, X d, O c joins b-c on the last cell.
    let mut game = ConnectX64::new(1, 4, 2);
    game.play_list("1,2,4,3").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::Second)));
    // And a full board without a run is a draw: X a, O b, X d, O c on a row of 4 with K = 3.
    let mut game = ConnectX64::new(1, 4, 3);
    game.play_list("1,2,4,3").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Draw));
}

#[test]
fn k_larger_than_one_dimension() {
    // 3 rows, K = 5: no vertical run possible, horizontal still wins.
    let mut game = ConnectX64::new(3, 7, 5);
    game.play_list("1,1,1,2,2,2,3,3,3").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
    game.play_list("4,4,5").unwrap();
    assert_eq!(game.status(), Status::Ongoing, "O has no run of 5");
    let mut game = ConnectX64::new(3, 7, 5);
    game.play_list("1,1,2,2,3,3,4,4,5").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    // K larger than both sides: no such game (the course frameworks refuse it too).
    let refusal = zerosum_games::connect::spec(2, 3, 4)
        .unwrap_err()
        .to_string();
    assert!(
        refusal.contains("a run of 4 cannot fit on a 2x3 board"),
        "{refusal}"
    );
}

#[test]
fn vertical_and_diagonal_wins() {
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("1,2,1,2,1,2,1").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    // Rising diagonal for X: 1, 2, 3, 4 at heights 1, 2, 3, 4.
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("1,2,2,3,3,4,3,4,4,7,4").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    // Falling diagonal (mirror image), on the wide board too.
    let text = "7,6,6,5,5,4,5,4,4,1,4";
    let mut packed = ConnectX64::new(6, 7, 4);
    let mut wide = ConnectXWide::new(6, 7, 4);
    packed.play_list(text).unwrap();
    wide.play_list(text).unwrap();
    assert_eq!(packed.status(), Status::Over(Outcome::Win(Side::First)));
    assert_eq!(wide.status(), Status::Over(Outcome::Win(Side::First)));
    assert_eq!(
        packed.board_json()["winning_cells"],
        serde_json::json!(["d3", "e4", "f5", "g6"])
    );
}

#[test]
fn move_lists_and_bad_input() {
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("44 5,3").unwrap();
    assert_eq!(game.history(), &[3, 3, 4, 2]);
    for bad in [
        "",
        "0",
        "8",
        "a",
        "-1",
        "+3",
        "4.0",
        "é",
        "99999999999999999999999",
    ] {
        assert!(game.parse_move(bad).is_err(), "{bad:?}");
    }
    let err = game.play_list("1,2,8").unwrap_err();
    assert!(err.to_string().starts_with("move 3 of the list"), "{err}");
    assert_eq!(game.ply(), 4, "a failed list leaves the position unchanged");
    // With more than 9 columns, a run of digits is one column number.
    let mut wide = ConnectX128::new(6, 12, 4);
    wide.play_list("12,11 10").unwrap();
    assert_eq!(wide.history(), &[11, 10, 9]);
    assert!(wide.parse_move("13").is_err());
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("1212121").unwrap();
    let err = game.play_text("3").unwrap_err();
    assert!(matches!(err, MoveError::GameOver { .. }), "{err}");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
}
