//! The Connect-X solver against ground truth: Pons' 7x6 test sets and the 9x5 sets (exact
//! scores), known values of small boards, and an independent plain minimax on tiny boards.

use std::collections::HashMap;
use std::path::Path;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Status};
use zerosum_games::connect::{
    Bits, ConnectSolver, ConnectX, ConnectX128, ConnectX64, Packed, SolveError,
};

// ---------------------------------------------------------------------------------------------
// Test data

/// One line of a test file: the moves (0-based columns) and the expected score.
pub(crate) struct Case {
    pub text: String,
    pub moves: Vec<u8>,
    pub score: i32,
}

/// The lines of the repository's `data/connect4/<dir>/<name>`, read when the test runs (so an
/// edited file needs no rebuild). `first_digit` is the character of column 0 (`'1'` for Pons'
/// files).
fn cases(dir: &str, name: &str, first_digit: u8) -> Vec<Case> {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/connect4"))
        .join(dir)
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the repository's test data)", path.display()));
    let parsed = text
        .lines()
        .map(|line| {
            let mut fields = line.split_whitespace();
            let moves = fields.next().expect("a move list");
            let score = fields.next().expect("a score").parse().expect("a number");
            Case {
                text: line.to_string(),
                moves: moves.bytes().map(|b| b - first_digit).collect(),
                score,
            }
        })
        .collect();
    parsed
}

pub(crate) fn pons(name: &str) -> Vec<Case> {
    cases("pons", name, b'1')
}

pub(crate) fn nine_by_five(name: &str) -> Vec<Case> {
    cases("9x5", &format!("{name}.txt"), b'0')
}

pub(crate) fn replay<B: Bits>(
    rows: usize,
    cols: usize,
    k: usize,
    moves: &[u8],
) -> ConnectX<Packed<B>> {
    let mut game = ConnectX::new(rows, cols, k);
    for &col in moves {
        assert!(game.is_legal(col), "illegal move {col} in {moves:?}");
        game.play(col);
    }
    game
}

/// Solves every case (the table cleared before each) and checks the score, or its sign only
/// if `weak`.
fn check_cases<'a>(
    rows: usize,
    cols: usize,
    cases: impl IntoIterator<Item = &'a Case>,
    weak: bool,
) -> usize {
    let mut solver = ConnectSolver::<u64>::new(rows, cols, 4, 16);
    let mut count = 0;
    for case in cases {
        let game = replay::<u64>(rows, cols, 4, &case.moves);
        solver.reset();
        let score = solver.solve(&game, weak).unwrap();
        let expected = if weak {
            case.score.signum()
        } else {
            case.score
        };
        assert_eq!(score, expected, "{} (weak: {weak})", case.text);
        count += 1;
    }
    count
}

// ---------------------------------------------------------------------------------------------
// Pons' 7x6 test sets

#[test]
fn pons_end_easy_every_line_exact() {
    let cases = pons("Test_L3_R1");
    assert_eq!(check_cases(6, 7, &cases, false), 1000);
}

#[test]
fn pons_middle_easy_every_line_exact() {
    let cases = pons("Test_L2_R1");
    assert_eq!(check_cases(6, 7, &cases, false), 1000);
}

#[test]
fn pons_begin_easy_every_line_exact() {
    let cases = pons("Test_L1_R1");
    assert_eq!(check_cases(6, 7, &cases, false), 1000);
}

#[test]
fn pons_middle_medium_every_tenth_line_exact() {
    let cases = pons("Test_L2_R2");
    assert_eq!(check_cases(6, 7, cases.iter().step_by(10), false), 100);
}

/// Lines of Test_L1_R3 (1-based) among its first hundred that solve quickly.
const BEGIN_HARD_SAMPLE: [usize; 5] = [3, 6, 10, 11, 14];

#[test]
fn pons_begin_hard_sample_exact() {
    let cases = pons("Test_L1_R3");
    let sample = BEGIN_HARD_SAMPLE.iter().map(|&line| &cases[line - 1]);
    assert_eq!(check_cases(6, 7, sample, false), BEGIN_HARD_SAMPLE.len());
}

#[test]
fn pons_weak_signs_on_samples() {
    for (name, step) in [
        ("Test_L3_R1", 5),
        ("Test_L2_R1", 5),
        ("Test_L1_R1", 5),
        ("Test_L2_R2", 20),
    ] {
        let cases = pons(name);
        check_cases(6, 7, cases.iter().step_by(step), true);
    }
}

#[test]
#[ignore = "minutes in release, much longer in the dev profile"]
fn pons_every_file_every_line_exact() {
    for name in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R3",
    ] {
        let cases = pons(name);
        assert_eq!(check_cases(6, 7, &cases, false), 1000, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// 9x5 (5 rows, 9 columns) test sets, 0-based moves

#[test]
fn nine_by_five_endgame_every_line_exact() {
    let cases = nine_by_five("endgame_L1");
    assert_eq!(check_cases(5, 9, &cases, false), 1000);
}

#[test]
fn nine_by_five_midgame_easy_every_line_exact() {
    let cases = nine_by_five("midgame_L1");
    assert_eq!(check_cases(5, 9, &cases, false), 1000);
}

#[test]
fn nine_by_five_harder_sets_sampled_exact() {
    for (name, step, count) in [("opening_L1", 10, 100), ("midgame_L2", 50, 20)] {
        let cases = nine_by_five(name);
        assert_eq!(
            check_cases(5, 9, cases.iter().step_by(step), false),
            count,
            "{name}"
        );
    }
    // Lines (1-based) of the hardest sets that solve quickly.
    for (name, lines) in [
        ("opening_L2", &[151, 701, 801][..]),
        ("opening_L3", &[451][..]),
    ] {
        let cases = nine_by_five(name);
        let sample = lines.iter().map(|&line| &cases[line - 1]);
        assert_eq!(check_cases(5, 9, sample, false), lines.len(), "{name}");
    }
}

#[test]
fn nine_by_five_weak_signs_on_samples() {
    for (name, step) in [("endgame_L1", 5), ("midgame_L1", 10), ("opening_L1", 50)] {
        let cases = nine_by_five(name);
        check_cases(5, 9, cases.iter().step_by(step), true);
    }
}

#[test]
#[ignore = "minutes in release, much longer in the dev profile"]
fn nine_by_five_every_file_every_line_exact() {
    for name in [
        "endgame_L1",
        "midgame_L1",
        "midgame_L2",
        "opening_L1",
        "opening_L2",
        "opening_L3",
    ] {
        let cases = nine_by_five(name);
        assert_eq!(check_cases(5, 9, &cases, false), 1000, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Known values of empty boards (Connect-X, X = 4; data/known-results.md)

/// The sign of the empty board's value for the first player, strong and weak.
fn empty_board_sign(rows: usize, cols: usize) -> i32 {
    let game = ConnectX64::new(rows, cols, 4);
    let mut solver = ConnectSolver::<u64>::new(rows, cols, 4, 16);
    let weak = solver.solve(&game, true).unwrap();
    solver.reset();
    let strong = solver.solve(&game, false).unwrap();
    assert_eq!(strong.signum(), weak, "{rows}x{cols}: strong {strong}");
    weak
}

#[test]
fn small_empty_boards_match_known_values() {
    // (rows, cols, value): `=` is 0, `-` is -1.
    for (rows, cols, value) in [
        (4, 4, 0),
        (4, 5, 0),
        (4, 6, -1),
        (5, 4, 0),
        (6, 4, 0),
        (5, 5, 0),
        (4, 7, 0),
    ] {
        assert_eq!(empty_board_sign(rows, cols), value, "{rows}x{cols}");
    }
}

/// Weak values of small 7x6 positions, from known-results.md (1-based columns).
const KNOWN_POSITIONS: [(&str, i32); 3] = [("45461667", 1), ("35333571", -1), ("13333111", 0)];

fn check_known_positions(positions: &[(&str, i32)]) {
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 64);
    for &(moves, value) in positions {
        let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        let game = replay::<u64>(6, 7, 4, &columns);
        solver.reset();
        assert_eq!(solver.solve(&game, true).unwrap(), value, "{moves}");
    }
}

#[test]
fn known_connect_four_win() {
    check_known_positions(&KNOWN_POSITIONS[..1]);
}

#[test]
#[ignore = "tens of millions of positions: seconds in release"]
fn known_connect_four_loss_and_draw() {
    check_known_positions(&KNOWN_POSITIONS[1..]);
}

/// Hand-made 7x6 positions (1-based columns) where the side to move has a lone move, a block
/// of the opponent's only threat: the last stone of each makes three in a row on the bottom
/// row with one end open.
const LONE_MOVE_POSITIONS: [(&str, u8); 3] = [
    ("11111122222247556", 3),
    ("33333344444412667", 5),
    ("77777766666643221", 5),
];

#[test]
fn a_lone_move_is_worth_its_child_with_a_cold_or_warm_table() {
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
    for (moves, lone) in LONE_MOVE_POSITIONS {
        let columns: Vec<u8> = moves.bytes().map(|b| b - b'1').collect();
        let game = replay::<u64>(6, 7, 4, &columns);
        let mut child = game.clone();
        child.play(lone - 1);
        solver.reset();
        let cold = solver.solve(&game, false).unwrap();
        let child_value = solver.solve(&child, false).unwrap();
        assert_eq!(cold, -child_value, "{moves}");
        // Warm: the child's bounds are in the table, the lone move's never are.
        assert_eq!(solver.solve(&game, false), Ok(cold), "{moves}");
        let values = solver.analyze(&game, false).unwrap();
        assert_eq!(values.iter().flatten().max(), Some(&cold), "{moves}");
        // Every other column loses at once.
        for (col, value) in values.iter().enumerate() {
            if col != usize::from(lone - 1) {
                assert!(value.is_none_or(|v| v < 0 && v <= cold), "{moves}: {col}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Independent plain minimax

/// A deliberately naive Connect-X: a grid of `Vec<Vec<i8>>` (0 empty, 1 and 2 the players,
/// row 0 at the bottom), wins found by scanning the four directions from the last stone.
#[derive(Clone)]
struct Naive {
    rows: usize,
    cols: usize,
    k: usize,
    grid: Vec<Vec<i8>>,
    stones: usize,
}

impl Naive {
    fn new(rows: usize, cols: usize, k: usize) -> Self {
        Naive {
            rows,
            cols,
            k,
            grid: vec![vec![0; cols]; rows],
            stones: 0,
        }
    }

    fn free_row(&self, col: usize) -> Option<usize> {
        (0..self.rows).find(|&r| self.grid[r][col] == 0)
    }

    /// Plays `col` and tells whether it made a run of `k`.
    fn play(&mut self, col: usize) -> bool {
        let row = self.free_row(col).expect("a free cell");
        let player = (self.stones % 2 + 1) as i8;
        self.grid[row][col] = player;
        self.stones += 1;
        let at = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.grid[r as usize][c as usize] == player
        };
        [(0isize, 1isize), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| {
                let mut run = 1;
                for sign in [1, -1] {
                    let (mut r, mut c) = (row as isize + sign * dr, col as isize + sign * dc);
                    while at(r, c) {
                        run += 1;
                        r += sign * dr;
                        c += sign * dc;
                    }
                }
                run >= self.k
            })
    }

    fn undo(&mut self, col: usize) {
        let row = (0..self.rows)
            .rev()
            .find(|&r| self.grid[r][col] != 0)
            .unwrap();
        self.grid[row][col] = 0;
        self.stones -= 1;
    }

    /// The exact value for the side to move, by full minimax (memoised on the grid).
    fn value(&mut self, memo: &mut HashMap<Vec<Vec<i8>>, i32>) -> i32 {
        if let Some(&v) = memo.get(&self.grid) {
            return v;
        }
        let cells = self.rows * self.cols;
        let mut best = None;
        for col in 0..self.cols {
            if self.free_row(col).is_none() {
                continue;
            }
            let won = self.play(col);
            let value = if won {
                ((cells - self.stones) / 2 + 1) as i32
            } else if self.stones == cells {
                0
            } else {
                -self.value(memo)
            };
            self.undo(col);
            best = Some(best.map_or(value, |b: i32| b.max(value)));
        }
        let best = best.expect("the game is not over");
        memo.insert(self.grid.clone(), best);
        best
    }
}

/// Random games on a `rows` x `cols` board with runs of `k`: at every ongoing position the
/// solver (strong, weak and analyze) agrees with the naive minimax.
fn compare_with_minimax<B: Bits>(rows: usize, cols: usize, k: usize, games: usize, seed: u64) {
    let mut rng = SplitMix::new(seed);
    let mut solver = ConnectSolver::<B>::new(rows, cols, k, 1);
    let mut memo = HashMap::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut game = ConnectX::<Packed<B>>::new(rows, cols, k);
        let mut naive = Naive::new(rows, cols, k);
        while game.status() == Status::Ongoing {
            let expected = naive.value(&mut memo);
            solver.reset();
            assert_eq!(
                solver.solve(&game, false),
                Ok(expected),
                "{rows}x{cols}x{k} after {:?}",
                game.history()
            );
            assert_eq!(solver.solve(&game, true), Ok(expected.signum()));
            let analysis = solver.analyze(&game, false).unwrap();
            assert_eq!(analysis.iter().flatten().max(), Some(&expected));
            let signs = solver.analyze(&game, true).unwrap();
            let strong_signs: Vec<_> = analysis.iter().map(|v| v.map(i32::signum)).collect();
            assert_eq!(signs, strong_signs);
            checked += 1;
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            let col = legal[(rng.next_u64() % legal.len() as u64) as usize];
            game.play(col);
            naive.play(col as usize);
        }
    }
    assert!(checked >= games);
}

#[test]
fn tiny_boards_match_plain_minimax() {
    compare_with_minimax::<u64>(3, 4, 3, 30, 1);
    compare_with_minimax::<u64>(4, 4, 3, 30, 2);
    compare_with_minimax::<u64>(3, 5, 3, 20, 3);
    compare_with_minimax::<u64>(4, 3, 4, 20, 4);
}

#[test]
fn other_run_lengths_match_plain_minimax() {
    compare_with_minimax::<u64>(3, 3, 1, 5, 5);
    compare_with_minimax::<u64>(3, 3, 2, 20, 6);
    compare_with_minimax::<u64>(2, 6, 5, 20, 7);
    compare_with_minimax::<u64>(5, 2, 5, 20, 8);
    compare_with_minimax::<u64>(3, 4, 4, 5, 9);
    compare_with_minimax::<u64>(1, 7, 3, 20, 10);
}

#[test]
fn wide_u128_boards_match_plain_minimax() {
    // 3 x 17 = 68 bits and 2 x 30 = 90 bits with their sentinels: only u128 holds them.
    compare_with_minimax::<u128>(3, 3, 3, 20, 11);
    let mut rng = SplitMix::new(12);
    for (rows, cols, k, prefix) in [(3, 17, 3, 40), (2, 30, 4, 50)] {
        let mut solver = ConnectSolver::<u128>::new(rows, cols, k, 1);
        let mut memo = HashMap::new();
        for _ in 0..5 {
            // Random openings far enough in that the naive search is quick.
            let mut game = ConnectX128::new(rows, cols, k);
            let mut naive = Naive::new(rows, cols, k);
            let mut legal = Vec::new();
            while game.status() == Status::Ongoing && game.ply() < prefix {
                game.legal_moves(&mut legal);
                let col = legal[(rng.next_u64() % legal.len() as u64) as usize];
                game.play(col);
                naive.play(col as usize);
            }
            if game.status().is_over() {
                continue;
            }
            solver.reset();
            assert_eq!(solver.solve(&game, false), Ok(naive.value(&mut memo)));
        }
    }
}

#[test]
fn u64_and_u128_solvers_agree_on_connect_four() {
    let cases = pons("Test_L2_R1");
    let mut solver = ConnectSolver::<u128>::new(6, 7, 4, 16);
    for case in cases.iter().step_by(25) {
        let game = replay::<u128>(6, 7, 4, &case.moves);
        solver.reset();
        assert_eq!(solver.solve(&game, false), Ok(case.score), "{}", case.text);
    }
}

// ---------------------------------------------------------------------------------------------
// API contracts

#[test]
fn analyze_agrees_with_solve() {
    let cases = pons("Test_L2_R1");
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 16);
    for case in cases.iter().step_by(50) {
        let game = replay::<u64>(6, 7, 4, &case.moves);
        let values = solver.analyze(&game, false).unwrap();
        assert_eq!(values.len(), 7);
        for (col, value) in values.iter().enumerate() {
            assert_eq!(value.is_some(), game.is_legal(col as u8), "{}", case.text);
        }
        assert_eq!(
            values.iter().flatten().max(),
            Some(&case.score),
            "{}",
            case.text
        );
        let best = solver.best_moves(&game, false).unwrap();
        assert!(!best.is_empty());
        for col in best {
            assert_eq!(values[col as usize], Some(case.score));
        }
    }
}

#[test]
fn immediate_win_is_scored_without_search() {
    // 1-based 112233: the first player completes 4 on the bottom row with its 4th stone.
    let game = replay::<u64>(6, 7, 4, &[0, 0, 1, 1, 2, 2]);
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 1);
    assert_eq!(solver.solve(&game, false), Ok(18));
    assert_eq!(solver.solve(&game, true), Ok(1));
    let values = solver.analyze(&game, false).unwrap();
    assert_eq!(values[3], Some(18));
    assert_eq!(solver.best_moves(&game, false), Ok(vec![3]));
    assert_eq!(solver.best_moves(&game, true), Ok(vec![3]));
}

#[test]
fn finished_games_and_wrong_sizes_are_refused() {
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 1);
    let won = replay::<u64>(6, 7, 4, &[0, 1, 0, 1, 0, 1, 0]);
    assert!(won.status().is_over());
    assert_eq!(solver.solve(&won, false), Err(SolveError::GameOver));
    assert_eq!(solver.analyze(&won, true), Err(SolveError::GameOver));
    let other = ConnectX64::new(5, 9, 4);
    let error = solver.solve(&other, true).unwrap_err();
    assert_eq!(
        error,
        SolveError::WrongSize {
            solver: (6, 7, 4),
            game: (5, 9, 4)
        }
    );
    assert!(error.to_string().contains("6x7x4"));
}

#[test]
fn reset_forgets_and_nodes_count_the_last_call() {
    let cases = pons("Test_L1_R1");
    let game = replay::<u64>(6, 7, 4, &cases[0].moves);
    let mut solver = ConnectSolver::<u64>::new(6, 7, 4, 4);
    assert_eq!(solver.table_bytes(), 4 << 20);
    solver.solve(&game, false).unwrap();
    let cold = solver.nodes();
    assert!(cold > 0);
    solver.solve(&game, false).unwrap();
    assert!(solver.nodes() < cold, "the table remembers");
    solver.reset();
    solver.solve(&game, false).unwrap();
    assert_eq!(
        solver.nodes(),
        cold,
        "a reset table searches the same tree again"
    );
}
