//! Unstable (two-player Chain Reaction): conformance playouts, perft and whole positions
//! against a naive re-implementation, and named edge cases.

use zerosum_core::conformance::{check_playouts, Checks, SplitMix};
use zerosum_core::{perft, Game, MoveError, Outcome, Side, Status};
use zerosum_games::{
    new_game, unstable::Unstable, visit_game, EvaluatedGame, GameSpec, GameVisitor,
};

// ---------------------------------------------------------------------------------------------
// A deliberately naive re-implementation: a grid of i32, neighbours found by bounds checks, the
// explosion queue a plain Vec scanned for duplicates, every move played on a copy.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Naive {
    grid: Vec<Vec<i32>>,
    ply: usize,
    /// `Some(+1)` once Black has won, `Some(-1)` once White has won.
    winner: Option<i32>,
}

impl Naive {
    fn new(rows: usize, cols: usize) -> Naive {
        Naive {
            grid: vec![vec![0; cols]; rows],
            ply: 0,
            winner: None,
        }
    }

    fn rows(&self) -> usize {
        self.grid.len()
    }

    fn cols(&self) -> usize {
        self.grid[0].len()
    }

    /// North, west, east, south, skipping those off the board.
    fn neighbours(&self, r: usize, c: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if r > 0 {
            out.push((r - 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if c + 1 < self.cols() {
            out.push((r, c + 1));
        }
        if r + 1 < self.rows() {
            out.push((r + 1, c));
        }
        out
    }

    fn critical(&self, r: usize, c: usize) -> i32 {
        self.neighbours(r, c).len() as i32
    }

    fn mover_sign(&self) -> i32 {
        match self.ply % 2 {
            0 => 1,
            _ => -1,
        }
    }

    /// Atoms of the side of sign `sign`.
    fn atoms_of(&self, sign: i32) -> i32 {
        let mut total = 0;
        for row in &self.grid {
            for &v in row {
                if v * sign > 0 {
                    total += v.abs();
                }
            }
        }
        total
    }

    /// Legal moves as (row, col), row by row.
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                if self.grid[r][c] * self.mover_sign() >= 0 {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn play(&mut self, r: usize, c: usize) {
        let sign = self.mover_sign();
        let both_have_moved = self.ply >= 1;
        self.ply += 1;
        self.grid[r][c] += sign;
        let mut queue = Vec::new();
        let mut head = 0;
        if self.grid[r][c].abs() >= self.critical(r, c) {
            queue.push((r, c));
        }
        while head < queue.len() {
            let (r, c) = queue[head];
            head += 1;
            let k = self.critical(r, c);
            if self.grid[r][c].abs() < k {
                continue;
            }
            self.grid[r][c] -= sign * k;
            for (nr, nc) in self.neighbours(r, c) {
                self.grid[nr][nc] = sign * (self.grid[nr][nc].abs() + 1);
                if self.grid[nr][nc].abs() >= self.critical(nr, nc)
                    && !queue[head..].contains(&(nr, nc))
                {
                    queue.push((nr, nc));
                }
            }
            if self.grid[r][c].abs() >= k && !queue[head..].contains(&(r, c)) {
                queue.push((r, c));
            }
            if both_have_moved && self.atoms_of(-sign) == 0 {
                break;
            }
        }
        if both_have_moved && self.atoms_of(-sign) == 0 {
            self.winner = Some(sign);
        }
    }

    /// Positions after exactly `depth` moves, a finished game never continued; the last ply
    /// counts the moves without playing them.
    fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.moves().len() as u64;
        }
        let mut total = 0;
        for (r, c) in self.moves() {
            let mut child = self.clone();
            child.play(r, c);
            total += child.perft(depth - 1);
        }
        total
    }
}

/// Asserts that the fast game and the naive one hold the same position.
fn assert_same_position(game: &Unstable, naive: &Naive, context: &str) {
    let flat: Vec<i16> = naive.grid.iter().flatten().map(|&v| v as i16).collect();
    assert_eq!(game.counts(), &flat[..], "{context}");
    assert_eq!(game.ply(), naive.ply, "{context}");
    let expected_status = match naive.winner {
        None => Status::Ongoing,
        Some(1) => Status::Over(Outcome::Win(Side::First)),
        Some(_) => Status::Over(Outcome::Win(Side::Second)),
    };
    assert_eq!(game.status(), expected_status, "{context}");
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The non-empty cells as (name, count), in cell order.
fn occupied(game: &Unstable) -> Vec<(String, i16)> {
    (0..game.num_cells() as u16)
        .filter(|&cell| game.count(cell) != 0)
        .map(|cell| (game.format_move(cell), game.count(cell)))
        .collect()
}

fn named(cells: &[(&str, i16)]) -> Vec<(String, i16)> {
    cells
        .iter()
        .map(|&(name, count)| (name.to_string(), count))
        .collect()
}

fn played(rows: usize, cols: usize, moves: &str) -> Unstable {
    let mut game = Unstable::new(rows, cols);
    game.play_list(moves).expect("legal moves");
    game
}

fn cell(game: &Unstable, name: &str) -> u16 {
    game.parse_move(name).expect("a cell name")
}

/// Family invariants checked at every position of the conformance playouts.
fn invariant(game: &Unstable) -> Result<(), String> {
    let mut atoms = [0usize; 2];
    let mut cells = [0usize; 2];
    for (index, &count) in game.counts().iter().enumerate() {
        let cell = index as u16;
        let owner = game.owner(cell);
        if count != 0 {
            let side = owner.ok_or(format!("cell {index} holds {count} but has no owner"))?;
            if (count > 0) != (side == Side::First) {
                return Err(format!("cell {index} holds {count} but is owned by {side}"));
            }
            atoms[side.index()] += count.unsigned_abs() as usize;
            cells[side.index()] += 1;
        } else if owner.is_some() {
            return Err(format!("empty cell {index} has an owner"));
        }
    }
    for side in Side::BOTH {
        if game.atoms(side) != atoms[side.index()] || game.cells(side) != cells[side.index()] {
            return Err(format!("the totals of {side} disagree with the board"));
        }
    }
    if atoms[0] + atoms[1] != game.ply() {
        return Err(format!(
            "{} atoms on the board after {} plies",
            atoms[0] + atoms[1],
            game.ply()
        ));
    }
    if game.ply() > game.max_plies() {
        return Err(format!(
            "{} plies, more than {}",
            game.ply(),
            game.max_plies()
        ));
    }
    match game.status() {
        Status::Ongoing => {
            for index in 0..game.num_cells() as u16 {
                if game.count(index).abs() >= game.critical_mass(index) {
                    return Err(format!("cell {index} is critical after the cascade"));
                }
            }
            if game.ply() >= 2 && (atoms[0] == 0 || atoms[1] == 0) {
                return Err("a side is wiped out but the game goes on".into());
            }
        }
        Status::Over(Outcome::Win(winner)) => {
            if winner != game.to_move().opponent() {
                return Err("the winner is not the side that moved last".into());
            }
            if game.atoms(winner.opponent()) != 0 || game.ply() < 2 {
                return Err("a win without the loser wiped out after both moved".into());
            }
        }
        Status::Over(Outcome::Draw) => return Err("Unstable has no draws".into()),
    }
    Ok(())
}

fn conformance(rows: usize, cols: usize, games: usize, all_moves_every: usize) {
    let start = Unstable::new(rows, cols);
    let max_plies = start.max_plies() + 1;
    let stats = check_playouts(
        &start,
        Checks {
            games,
            seed: (rows * 1000 + cols) as u64,
            max_plies,
            all_moves_every,
        },
        invariant,
    )
    .unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
    assert_eq!(stats.games, games);
    assert_eq!(stats.draws, 0, "{rows}x{cols}: no draws");
    assert_eq!(stats.first_wins + stats.second_wins, games);
    assert!(
        stats.longest <= start.max_plies(),
        "{rows}x{cols}: {stats:?}"
    );
    assert!(stats.longest >= 3, "{rows}x{cols}: {stats:?}");
}

// ---------------------------------------------------------------------------------------------
// Conformance playouts
// ---------------------------------------------------------------------------------------------

#[test]
fn conformance_10x6() {
    conformance(10, 6, 300, 5);
}

#[test]
fn conformance_small_boards() {
    conformance(2, 2, 300, 1);
    conformance(2, 3, 300, 1);
    conformance(3, 3, 300, 1);
    conformance(5, 5, 100, 3);
}

#[test]
fn conformance_20x20() {
    conformance(20, 20, 4, 97);
}

#[test]
fn max_plies_is_the_stable_capacity_plus_one() {
    // 10x6: 4 corners (1 each), 2 * (8 + 4) edge cells (2 each), 8 * 4 inner cells (3 each).
    assert_eq!(Unstable::new(10, 6).max_plies(), 4 + 2 * 24 + 3 * 32 + 1);
    assert_eq!(Unstable::new(2, 2).max_plies(), 5);
    assert_eq!(
        Unstable::new(100, 100).max_plies(),
        4 + 2 * 4 * 98 + 3 * 98 * 98 + 1
    );
}

// ---------------------------------------------------------------------------------------------
// Against the naive implementation
// ---------------------------------------------------------------------------------------------

fn assert_perft(rows: usize, cols: usize, depth: usize) {
    let mut game = Unstable::new(rows, cols);
    let naive = Naive::new(rows, cols);
    for d in 1..=depth {
        assert_eq!(
            perft(&mut game, d),
            naive.perft(d),
            "{rows}x{cols} depth {d}"
        );
    }
    assert_eq!(
        game,
        Unstable::new(rows, cols),
        "perft restores the position"
    );
}

#[test]
fn perft_matches_naive_on_10x6() {
    assert_perft(10, 6, 4);
}

#[test]
fn perft_matches_naive_on_3x3() {
    assert_perft(3, 3, 6);
}

#[test]
fn perft_matches_naive_on_2x2() {
    let mut game = Unstable::new(2, 2);
    assert_perft(2, 2, 8);
    // Hand count of the first plies: 4 cells, then 3 free cells for White.
    assert_eq!(perft(&mut game, 1), 4);
    assert_eq!(perft(&mut game, 2), 12);
}

#[test]
fn perft_matches_naive_on_other_small_boards() {
    assert_perft(2, 3, 7);
    assert_perft(4, 4, 5);
    assert_perft(3, 5, 5);
}

#[test]
fn random_games_match_naive_positions() {
    let mut rng = SplitMix::new(42);
    let mut moves = Vec::new();
    let mut wins = [0usize; 2];
    for (rows, cols, games) in [
        (2, 2, 200),
        (2, 3, 200),
        (3, 3, 200),
        (4, 7, 100),
        (10, 6, 100),
        (20, 20, 2),
    ] {
        for game_number in 0..games {
            let mut game = Unstable::new(rows, cols);
            let mut naive = Naive::new(rows, cols);
            while !game.status().is_over() {
                game.legal_moves(&mut moves);
                let naive_moves: Vec<u16> = naive
                    .moves()
                    .into_iter()
                    .map(|(r, c)| (r * cols + c) as u16)
                    .collect();
                assert_eq!(moves, naive_moves, "{rows}x{cols} game {game_number}");
                let mv = moves[rng.below(moves.len())];
                game.play(mv);
                naive.play(mv as usize / cols, mv as usize % cols);
                let context = format!("{rows}x{cols} game {game_number} ply {}", game.ply());
                assert_same_position(&game, &naive, &context);
                assert!(game.ply() <= game.max_plies(), "{context}");
            }
            game.legal_moves(&mut moves);
            assert!(moves.is_empty() && naive.moves().is_empty());
            wins[game.status().winner().expect("a winner").index()] += 1;
        }
    }
    assert!(
        wins[0] > 0 && wins[1] > 0,
        "both sides win some games: {wins:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Named edge cases
// ---------------------------------------------------------------------------------------------

#[test]
fn first_move_does_not_win() {
    let game = played(10, 6, "A1");
    assert_eq!(game.status(), Status::Ongoing);
    assert_eq!(game.atoms(Side::Second), 0);
    assert_eq!(game.cells(Side::Second), 0);
    assert_eq!(game.to_move(), Side::Second);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 59);
    // White's first move cannot wipe Black out either: the game goes on with one atom each.
    let game = played(2, 2, "A1 B2");
    assert_eq!(game.status(), Status::Ongoing);
    assert_eq!((game.atoms(Side::First), game.atoms(Side::Second)), (1, 1));
}

#[test]
fn placing_on_opponent_cell_is_illegal() {
    let mut game = played(10, 6, "A1");
    let a1 = cell(&game, "A1");
    let before = game.clone();
    assert_eq!(game.illegal_reason(a1), Some("opponent's cell"));
    assert!(!game.is_legal(a1));
    assert_eq!(
        game.try_play(a1),
        Err(MoveError::Illegal {
            mv: "A1".into(),
            reason: "opponent's cell"
        })
    );
    assert_eq!(game, before, "a refused move changes nothing");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(!moves.contains(&a1));
    // Black may add to its own cell, White to its own.
    game.play_list("B1 E3 B1").unwrap();
    assert_eq!(game.count(cell(&game, "B1")), -2);
}

#[test]
fn corner_explodes_at_two() {
    let game = played(10, 6, "A1 J6 A1");
    for corner in ["A1", "A6", "J1", "J6"] {
        assert_eq!(game.critical_mass(cell(&game, corner)), 2, "{corner}");
    }
    assert_eq!(occupied(&game), named(&[("A2", 1), ("B1", 1), ("J6", -1)]));
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn edge_explodes_at_three() {
    let mut game = played(10, 6, "A3 J6 A3 J5");
    for edge in ["A3", "E1", "E6", "J3"] {
        assert_eq!(game.critical_mass(cell(&game, edge)), 3, "{edge}");
    }
    assert_eq!(game.count(cell(&game, "A3")), 2, "two atoms do not explode");
    game.play_text("A3").unwrap();
    assert_eq!(
        occupied(&game),
        named(&[("A2", 1), ("A4", 1), ("B3", 1), ("J5", -1), ("J6", -1)])
    );
}

#[test]
fn centre_explodes_at_four() {
    let mut game = played(10, 6, "E3 J6 E3 J5 E3 J4");
    assert_eq!(game.critical_mass(cell(&game, "E3")), 4);
    assert_eq!(
        game.count(cell(&game, "E3")),
        3,
        "three atoms do not explode"
    );
    game.play_text("E3").unwrap();
    assert_eq!(
        occupied(&game),
        named(&[
            ("D3", 1),
            ("E2", 1),
            ("E4", 1),
            ("F3", 1),
            ("J4", -1),
            ("J5", -1),
            ("J6", -1)
        ])
    );
}

#[test]
fn explosion_converts_neighbours() {
    // Black's A1 explodes into White's A2 (1 atom): A2 becomes Black's with 2 atoms.
    let mut game = played(10, 6, "A1 A2 E3 J6 A1");
    assert_eq!(
        occupied(&game),
        named(&[("A2", 2), ("B1", 1), ("E3", 1), ("J6", -1)])
    );
    assert_eq!((game.atoms(Side::Second), game.cells(Side::Second)), (1, 1));
    assert_eq!((game.atoms(Side::First), game.cells(Side::First)), (4, 3));
    assert_eq!(game.status(), Status::Ongoing);
    game.undo();
    assert_eq!(game.count(cell(&game, "A2")), -1);

    // White's A2 with 2 atoms becomes Black's with 3, its critical mass, and explodes in turn.
    let game = played(10, 6, "A1 A2 E3 A2 J5 J1 A1");
    assert_eq!(
        occupied(&game),
        named(&[
            ("A1", 1),
            ("A3", 1),
            ("B1", 1),
            ("B2", 1),
            ("E3", 1),
            ("J1", -1),
            ("J5", 1)
        ])
    );
    assert_eq!((game.atoms(Side::First), game.atoms(Side::Second)), (6, 1));
}

#[test]
fn chain_reaction_cascades() {
    let mut game = played(10, 6, "A2 J6 A2 J5 A3 J4 A3 J3 A1 J2");
    assert_eq!(
        occupied(&game),
        named(&[
            ("A1", 1),
            ("A2", 2),
            ("A3", 2),
            ("J2", -1),
            ("J3", -1),
            ("J4", -1),
            ("J5", -1),
            ("J6", -1)
        ])
    );
    // A1 explodes into A2, which explodes into A3, which explodes too.
    game.play_text("A1").unwrap();
    assert_eq!(
        occupied(&game),
        named(&[
            ("A1", 1),
            ("A2", 1),
            ("A4", 1),
            ("B1", 1),
            ("B2", 1),
            ("B3", 1),
            ("J2", -1),
            ("J3", -1),
            ("J4", -1),
            ("J5", -1),
            ("J6", -1)
        ])
    );
    assert_eq!(game.status(), Status::Ongoing);
    assert_eq!(game.hash(), game.recompute_hash());
}

#[test]
fn cascade_stops_when_opponent_wiped_out() {
    // 10x6: Black's A1 explodes into White's only cell A2 (2 atoms), which becomes Black's with
    // 3 atoms: its critical mass. White is gone, so A2 does not explode.
    let game = played(10, 6, "A1 A2 B1 A2 A1");
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    assert_eq!(occupied(&game), named(&[("A2", 3), ("B1", 2)]));
    assert_eq!(
        game.count(cell(&game, "A2")),
        game.critical_mass(cell(&game, "A2"))
    );
    assert_eq!(game.hash(), game.recompute_hash());
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());

    // 2x2 (every cell explodes at 2): White's B2 explodes into A2 and B1, both Black's; the
    // first explosion wipes Black out and leaves both at critical mass, where a full cascade
    // would go on and on.
    let mut game = played(2, 2, "A1 B2 A1");
    assert_eq!(occupied(&game), named(&[("A2", 1), ("B1", 1), ("B2", -1)]));
    game.play_text("B2").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::Second)));
    assert_eq!(occupied(&game), named(&[("A2", -2), ("B1", -2)]));
    assert_eq!(game.ply(), 4);
    assert_eq!(game.atoms(Side::First), 0);
    assert_eq!(
        game.try_play(0),
        Err(MoveError::GameOver {
            mv: "A1".into(),
            status: "second player wins".into()
        })
    );
    game.undo();
    assert_eq!(game.status(), Status::Ongoing);
    assert_eq!(occupied(&game), named(&[("A2", 1), ("B1", 1), ("B2", -1)]));
}

#[test]
fn undo_restores_after_big_cascade() {
    let mut rng = SplitMix::new(7);
    let mut moves = Vec::new();
    let mut biggest = 0;
    for _ in 0..20 {
        let mut game = Unstable::new(10, 6);
        while !game.status().is_over() {
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            let before = game.clone();
            game.play(mv);
            let changed = before
                .counts()
                .iter()
                .zip(game.counts())
                .filter(|(a, b)| a != b)
                .count();
            biggest = biggest.max(changed);
            if changed >= 10 {
                let mut undone = game.clone();
                undone.undo();
                assert_eq!(undone, before);
                assert_eq!(undone.hash(), before.hash());
                assert_eq!(undone.hash(), undone.recompute_hash());
                undone.play(mv);
                assert_eq!(undone, game, "replaying gives the same cascade");
            }
        }
        while game.ply() > 0 {
            game.undo();
        }
        assert_eq!(
            game,
            Unstable::new(10, 6),
            "undoing every move restores the start"
        );
        assert_eq!(game.hash(), 0);
    }
    assert!(
        biggest >= 20,
        "some cascade changed {biggest} cells at most"
    );
}

#[test]
fn transposed_moves_give_the_same_hash() {
    let a = played(10, 6, "A1 J6 C3 F4");
    let b = played(10, 6, "C3 F4 A1 J6");
    assert_eq!(a.counts(), b.counts());
    assert_eq!(a.hash(), b.hash());
    let c = played(10, 6, "C3 J6 A1 F4");
    assert_eq!(a.hash(), c.hash());
    assert_ne!(a.hash(), played(10, 6, "A1 J6 C3").hash());
    assert_ne!(
        a.hash(),
        played(10, 6, "A1 J6 F4 C3").hash(),
        "colours swapped"
    );
}

#[test]
fn garbage_cell_names_are_errors() {
    let game = Unstable::new(10, 6);
    for text in [
        "", " ", "A", "1", "1A", "A1B", "A-1", "A+1", "é1", "Aé", "A 1", "A1.5", "-", "💥",
        "A\u{0}1",
    ] {
        assert!(
            matches!(game.parse_move(text), Err(MoveError::Syntax { .. })),
            "{text:?}: {:?}",
            game.parse_move(text)
        );
    }
    for text in [
        "A0",
        "A7",
        "K1",
        "Z1",
        "AA1",
        "J99999999999999999999999",
        "ZZZZZZZZZZZZ1",
        "a18446744073709551617",
    ] {
        assert!(
            matches!(game.parse_move(text), Err(MoveError::OffBoard { .. })),
            "{text:?}: {:?}",
            game.parse_move(text)
        );
    }
    assert_eq!(game.parse_move("j6"), Ok(59));
    assert_eq!(game.parse_move(" a1 "), Ok(0));
    assert_eq!(game.illegal_reason(60), Some("off the board"));
    assert_eq!(game.illegal_reason(u16::MAX), Some("off the board"));
    let mut copy = game.clone();
    assert!(copy.play_text("K1").is_err());
    assert!(copy.play_list("A1 B2 Q9").is_err());
    assert_eq!(copy, game, "a failed list leaves the position as it was");
}

#[test]
fn parse_print_round_trip_on_every_cell_of_100x100() {
    let game = Unstable::new(100, 100);
    let mut all = Vec::new();
    game.all_moves(&mut all);
    assert_eq!(all.len(), 10_000);
    for &mv in &all {
        let text = game.format_move(mv);
        assert_eq!(game.parse_move(&text), Ok(mv), "{text}");
        assert_eq!(game.parse_move(&text.to_lowercase()), Ok(mv), "{text}");
        assert_eq!(text, text.to_uppercase());
    }
    assert_eq!(game.format_move(0), "A1");
    assert_eq!(game.format_move(26 * 100), "AA1");
    assert_eq!(game.format_move(9_999), "CV100");
    let small = Unstable::new(10, 6);
    assert_eq!(small.format_move(0), "A1");
    assert_eq!(small.format_move(59), "J6");
    assert_eq!(small.format_move(small.cell(1, 2)), "B3");
    assert_eq!(small.row_col(small.cell(9, 5)), (9, 5));
}

#[test]
fn critical_masses_and_neighbours() {
    let game = Unstable::new(10, 6);
    let total: i32 = (0..60).map(|c| game.critical_mass(c) as i32).sum();
    assert_eq!(total, 4 * 2 + 24 * 3 + 32 * 4);
    let names = |name: &str| -> Vec<String> {
        game.neighbours(cell(&game, name))
            .iter()
            .map(|&n| game.format_move(n))
            .collect()
    };
    assert_eq!(names("A1"), ["A2", "B1"]);
    assert_eq!(names("E3"), ["D3", "E2", "E4", "F3"]);
    assert_eq!(names("J4"), ["I4", "J3", "J5"]);
}

#[test]
fn spec_builds_the_game() {
    struct Describe;
    impl GameVisitor for Describe {
        type Output = (String, usize);
        fn visit<G: EvaluatedGame>(self, game: G) -> (String, usize) {
            let mut moves = Vec::new();
            game.all_moves(&mut moves);
            (game.spec().to_string(), moves.len())
        }
    }
    let spec: GameSpec = "unstable".parse().unwrap();
    assert_eq!(
        visit_game(&spec, Describe).unwrap(),
        ("unstable:10x6".into(), 60)
    );
    let spec: GameSpec = "unstable:3x100".parse().unwrap();
    assert_eq!(
        visit_game(&spec, Describe).unwrap(),
        ("unstable:3x100".into(), 300)
    );
    let mut dynamic = new_game(&"chain-reaction".parse().unwrap()).unwrap();
    assert_eq!(dynamic.play("a1").unwrap(), "A1");
    dynamic.play_list("J6 A1").unwrap();
    let json = dynamic.to_json();
    assert_eq!(json["family"], "unstable");
    assert_eq!(json["board"]["last_move"], "A1");
    assert_eq!(json["board"]["cells"][0][1], 1);
}

#[test]
fn render_shows_counts_and_coordinates() {
    // A1 exploded into A2 and B1, C3 into B3 and C2; C1 is a corner one atom short.
    let game = played(3, 3, "A1 B2 A1 B2 C3 C1 C3");
    assert_eq!(
        game.render(),
        "   1   2   3\n\
         A  .  +1   .\n\
         B +1  -2  +1\n\
         C -1* +1   .\n\
         Black (+) 4 atoms in 4 cells, White (-) 3 atoms in 2 cells; * one atom short of exploding\n"
    );
    // One of a kind is singular.
    let first = played(3, 3, "A1").render();
    assert!(
        first.contains("Black (+) 1 atom in 1 cell, White (-) 0 atoms in 0 cells;"),
        "{first}"
    );
    let big = played(10, 6, "A1 J6 A1 J6").render();
    let lines: Vec<&str> = big.lines().collect();
    assert_eq!(lines.len(), 1 + 10 + 1);
    assert_eq!(lines[0], "   1   2   3   4   5   6");
    assert_eq!(lines[9], "I  .   .   .   .   .  -1", "{big}");
    assert_eq!(lines[10], "J  .   .   .   .  -1   .", "{big}");
    let over = played(2, 2, "A1 B2 A1 B2").render();
    assert!(
        over.contains("B -2   .") && over.contains("Black (+) 0 atoms in 0 cells"),
        "{over}"
    );
    let wide = Unstable::new(100, 100).render();
    assert!(
        wide.lines().nth(1).unwrap().starts_with("A    .    ."),
        "{wide}"
    );
    assert!(
        wide.lines().nth(100).unwrap().starts_with("CV   ."),
        "{wide}"
    );
}

#[test]
fn board_json_lists_cells_and_critical_masses() {
    let game = played(2, 3, "A1 B3");
    let json = game.board_json();
    assert_eq!(json["rows"], 2);
    assert_eq!(json["cols"], 3);
    assert_eq!(json["cells"], serde_json::json!([[1, 0, 0], [0, 0, -1]]));
    assert_eq!(json["critical"], serde_json::json!([[2, 3, 2], [2, 3, 2]]));
    assert_eq!(json["last_move"], "B3");
    assert_eq!(json["winning_cells"], serde_json::json!([]));
    assert_eq!(json["atoms"], serde_json::json!({"first": 1, "second": 1}));
    let start = Unstable::new(2, 3).board_json();
    assert_eq!(start["last_move"], serde_json::Value::Null);
    let won = played(2, 2, "A1 B2 A1 B2").board_json();
    assert_eq!(won["winning_cells"], serde_json::json!(["A2", "B1"]));
}
