//! Hex: conformance playouts checked against a naive flood-fill referee, perft against a naive
//! brute force, and the rule edge cases.

use zerosum_core::conformance::{check_playouts, Checks, SplitMix};
use zerosum_core::{perft, Evaluator, Game, MoveError, Outcome, Side, Status};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::{Hex, HexEvaluator, HexSpec, SwapRule};
use zerosum_games::{
    hex::connected::virtually_connected, hex::inferior::is_dead, EvaluatedGame, GameSpec,
};

// ---------------------------------------------------------------------------------------------
// A deliberately naive model: a grid of colours, flood fill from one edge to the other.

const EMPTY: i8 = 0;
const BLACK: i8 = 1;
const WHITE: i8 = 2;

/// `grid[row][column]`.
type Grid = Vec<Vec<i8>>;

fn touching(grid: &Grid, column: usize, row: usize) -> Vec<(usize, usize)> {
    let (rows, columns) = (grid.len() as i64, grid[0].len() as i64);
    let mut out = Vec::new();
    for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (-1, 1)] {
        let (c, r) = (column as i64 + dc, row as i64 + dr);
        if c >= 0 && r >= 0 && c < columns && r < rows {
            out.push((c as usize, r as usize));
        }
    }
    out
}

/// True if `colour` joins its two edges: Black top to bottom, White left to right.
fn connects(grid: &Grid, colour: i8) -> bool {
    let (rows, columns) = (grid.len(), grid[0].len());
    let mut seen = vec![vec![false; columns]; rows];
    let mut stack = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            let start = if colour == BLACK { r == 0 } else { c == 0 };
            if start && grid[r][c] == colour {
                seen[r][c] = true;
                stack.push((c, r));
            }
        }
    }
    while let Some((c, r)) = stack.pop() {
        let end = if colour == BLACK {
            r == rows - 1
        } else {
            c == columns - 1
        };
        if end {
            return true;
        }
        for (nc, nr) in touching(grid, c, r) {
            if !seen[nr][nc] && grid[nr][nc] == colour {
                seen[nr][nc] = true;
                stack.push((nc, nr));
            }
        }
    }
    false
}

/// Replays a game's moves on a naive grid: the grid and whether the colours were exchanged.
fn replay(
    width: usize,
    height: usize,
    rule: Option<SwapRule>,
    moves: &[StoneMove],
) -> (Grid, bool) {
    let mut grid = vec![vec![EMPTY; width]; height];
    let mut exchanged = false;
    for (ply, &mv) in moves.iter().enumerate() {
        match mv {
            StoneMove::Place(cell) => {
                let (c, r) = (cell as usize % width, cell as usize / width);
                let black_to_play = (ply % 2 == 0) != exchanged;
                grid[r][c] = if black_to_play { BLACK } else { WHITE };
            }
            StoneMove::Swap => match rule {
                Some(SwapRule::Sides) => exchanged = true,
                Some(SwapRule::Pieces) => {
                    let StoneMove::Place(first) = moves[0] else {
                        panic!("swap first")
                    };
                    let (c, r) = (first as usize % width, first as usize / width);
                    grid[r][c] = EMPTY;
                    grid[c][r] = WHITE;
                }
                None => panic!("swap without a rule"),
            },
        }
    }
    (grid, exchanged)
}

/// The status the naive referee gives.
fn naive_status(grid: &Grid, exchanged: bool) -> Result<Status, String> {
    let black = connects(grid, BLACK);
    let white = connects(grid, WHITE);
    let owner = |colour_is_black: bool| {
        if colour_is_black != exchanged {
            Side::First
        } else {
            Side::Second
        }
    };
    match (black, white) {
        (true, true) => Err("both colours connect".into()),
        (true, false) => Ok(Status::Over(Outcome::Win(owner(true)))),
        (false, true) => Ok(Status::Over(Outcome::Win(owner(false)))),
        (false, false) => Ok(Status::Ongoing),
    }
}

fn agrees_with_naive_referee(game: &Hex) -> Result<(), String> {
    let (grid, exchanged) = replay(
        game.width(),
        game.height(),
        game.swap_rule(),
        game.history(),
    );
    let expected = naive_status(&grid, exchanged)?;
    if game.status() != expected {
        return Err(format!(
            "status {:?}, naive referee says {expected:?}",
            game.status()
        ));
    }
    for (r, row) in grid.iter().enumerate() {
        for (c, &colour) in row.iter().enumerate() {
            let stone = match colour {
                BLACK => Stone::Black,
                WHITE => Stone::White,
                _ => Stone::Empty,
            };
            if game.stone(game.cell(c, r)) != stone {
                return Err(format!("cell ({c}, {r}) differs from the naive replay"));
            }
        }
    }
    Ok(())
}

fn hex(spec: &str) -> Hex {
    let spec = spec.parse::<GameSpec>().unwrap();
    match spec.params::<HexSpec>() {
        Some(&HexSpec {
            width,
            height,
            swap,
            ..
        }) => Hex::new(width, height, swap),
        None => panic!("not hex: {spec}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Conformance.

#[test]
fn conformance_playouts_match_the_naive_referee() {
    let cases = [
        ("hex:1", 20, 1),
        ("hex:2", 300, 1),
        ("hex:3", 300, 1),
        ("hex:5", 300, 1),
        ("hex:11", 100, 10),
        ("hex:7x5", 300, 3),
        ("hex:5x8", 200, 3),
        ("hex:5:swap-pieces", 300, 1),
        ("hex:5:swap-sides", 300, 1),
        ("hex:2:swap-pieces", 200, 1),
        ("hex:3x4:swap-sides", 200, 1),
    ];
    for (spec, games, all_moves_every) in cases {
        let start = hex(spec);
        let cells = start.width() * start.height();
        let checks = Checks {
            games,
            seed: 11,
            max_plies: cells + 1,
            all_moves_every,
        };
        let stats = check_playouts(&start, checks, agrees_with_naive_referee)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(stats.draws, 0, "{spec}: Hex has no draws");
        assert_eq!(stats.first_wins + stats.second_wins, games, "{spec}");
        if cells > 1 {
            assert!(
                stats.first_wins > 0 && stats.second_wins > 0,
                "{spec}: {stats:?}"
            );
        }
    }
}

#[test]
fn random_full_boards_have_exactly_one_connection() {
    let mut rng = SplitMix::new(5);
    for (width, height) in [(1, 1), (2, 2), (3, 3), (4, 7), (7, 4), (11, 11), (13, 9)] {
        for _ in 0..300 {
            let grid: Grid = (0..height)
                .map(|_| {
                    (0..width)
                        .map(|_| if rng.below(2) == 0 { BLACK } else { WHITE })
                        .collect()
                })
                .collect();
            let (black, white) = (connects(&grid, BLACK), connects(&grid, WHITE));
            assert!(black != white, "{width}x{height}: {grid:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Perft against a naive brute force.

/// Positions after exactly `depth` moves, a finished game not continued (as `perft`).
fn naive_perft(
    width: usize,
    height: usize,
    rule: Option<SwapRule>,
    moves: &mut Vec<StoneMove>,
    depth: usize,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (now, exchanged) = replay(width, height, rule, moves);
    if naive_status(&now, exchanged).unwrap() != Status::Ongoing {
        return 0;
    }
    let mut total = 0;
    for (r, row) in now.iter().enumerate() {
        for (c, &colour) in row.iter().enumerate() {
            if colour == EMPTY {
                moves.push(StoneMove::Place((r * width + c) as u16));
                total += naive_perft(width, height, rule, moves, depth - 1);
                moves.pop();
            }
        }
    }
    if rule.is_some() && moves.len() == 1 {
        moves.push(StoneMove::Swap);
        total += naive_perft(width, height, rule, moves, depth - 1);
        moves.pop();
    }
    total
}

#[test]
fn perft_matches_the_naive_brute_force() {
    let cases = [
        ("hex:1", 1),
        ("hex:2", 4),
        ("hex:3", 9),
        ("hex:4", 5),
        ("hex:3x2", 6),
        ("hex:2:swap-sides", 5),
        ("hex:2:swap-pieces", 5),
        ("hex:3:swap-sides", 3),
        ("hex:3:swap-pieces", 3),
        ("hex:4:swap-pieces", 4),
    ];
    for (spec, full_depth) in cases {
        let mut game = hex(spec);
        let (width, height, rule) = (game.width(), game.height(), game.swap_rule());
        for depth in 0..=full_depth {
            let fast = perft(&mut game, depth);
            let naive = naive_perft(width, height, rule, &mut Vec::new(), depth);
            assert_eq!(fast, naive, "{spec} depth {depth}");
        }
        assert_eq!(game, hex(spec), "perft restores the position");
    }
    // A few values to pin down: every first move on 2x2, then no win before ply 3.
    assert_eq!(perft(&mut hex("hex:2"), 2), 12);
    assert_eq!(perft(&mut hex("hex:2:swap-sides"), 2), 16);
}

// ---------------------------------------------------------------------------------------------
// Edge cases.

fn name_set(game: &Hex, cells: impl Iterator<Item = usize>) -> Vec<String> {
    let mut names: Vec<String> = cells
        .map(|cell| game.format_move(StoneMove::Place(cell as u16)))
        .collect();
    names.sort();
    names
}

#[test]
fn hex_c1_touches_b2() {
    let game = hex("hex:3");
    let c1 = game.cell(2, 0);
    assert_eq!(name_set(&game, game.neighbours(c1)), ["b1", "b2", "c2"]);
    assert_eq!(
        name_set(&game, game.neighbours(game.cell(1, 1))),
        ["a2", "a3", "b1", "b3", "c1", "c2"]
    );
    // On a board two rows high, c1 and b2 join top to bottom; a1 and b2 do not touch.
    let mut game = hex("hex:3x2");
    game.play_list("c1 a2 b2").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    let mut game = hex("hex:3x2");
    game.play_list("a1 c2 b2").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn hex_a_column_joins_top_to_bottom_on_3x3() {
    let mut game = hex("hex:3");
    game.play_list("a1 b1 a2 b2").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("a3").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    let json = game.board_json();
    assert_eq!(json["winning_cells"], serde_json::json!(["a1", "a2", "a3"]));
    assert_eq!(json["last_move"], "a3");
    assert_eq!(json["cells"][0], serde_json::json!(["B", "W", "."]));
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // White's row joins left to right.
    let mut game = hex("hex:3");
    game.play_list("a1 a2 c1 b2 b3 c2").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::Second)));
    assert_eq!(
        game.board_json()["winning_cells"],
        serde_json::json!(["a2", "b2", "c2"])
    );
}

#[test]
fn hex_full_board_has_exactly_one_winner() {
    let mut rng = SplitMix::new(99);
    for (width, height) in [(3, 3), (5, 5), (6, 4), (11, 11)] {
        for _ in 0..100 {
            // Shuffle the cells, colour them alternately, and fill a naive grid completely.
            let mut order: Vec<usize> = (0..width * height).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut grid = vec![vec![EMPTY; width]; height];
            for (ply, &cell) in order.iter().enumerate() {
                grid[cell / width][cell % width] = if ply % 2 == 0 { BLACK } else { WHITE };
            }
            let black = connects(&grid, BLACK);
            assert!(
                black != connects(&grid, WHITE),
                "exactly one colour connects"
            );
            // The game played in that order stops at the first connection, which is the one
            // the full board shows.
            let mut game = Hex::new(width, height, None);
            for &cell in &order {
                if game.status().is_over() {
                    break;
                }
                game.play(StoneMove::Place(cell as u16));
            }
            let winner = if black { Side::First } else { Side::Second };
            assert_eq!(game.status(), Status::Over(Outcome::Win(winner)));
        }
    }
}

#[test]
fn hex_swap_sides_exchanges_colours() {
    let mut game = hex("hex:3:swap-sides");
    game.play_text("a1").unwrap();
    let before = game.hash();
    let swap = game.play_text("swap").unwrap();
    assert_eq!(swap, StoneMove::Swap);
    assert_eq!(game.format_move(swap), "swap-sides");
    assert_ne!(game.hash(), before);
    assert_eq!(game.stone(game.cell(0, 0)), Stone::Black, "the stone stays");
    assert_eq!(game.to_move(), Side::First);
    assert_eq!(game.colour_of(Side::First), Stone::White);
    assert_eq!(game.colour_of(Side::Second), Stone::Black);
    let json = game.board_json();
    assert_eq!(json["colours"]["first"], "white");
    assert_eq!(json["swap"], "swap-sides");
    // The first player now plays White stones and wins left to right.
    game.play_list("a2 c1 b2 b1").unwrap();
    assert_eq!(game.stone(game.cell(0, 1)), Stone::White);
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("c2").unwrap();
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    let text = game.render();
    assert!(
        text.contains("[W") && text.contains("White (first player) joins left and right"),
        "{text}"
    );
    // Undo restores the colours.
    while game.ply() > 1 {
        game.undo();
    }
    assert_eq!(game.colour_of(Side::First), Stone::Black);
    assert_eq!(game.hash(), before);
}

#[test]
fn hex_swap_pieces_mirrors_the_stone() {
    let mut game = hex("hex:5:swap-pieces");
    game.play_list("c1 swap-pieces").unwrap();
    assert_eq!(game.stone(game.cell(2, 0)), Stone::Empty);
    assert_eq!(
        game.stone(game.cell(0, 2)),
        Stone::White,
        "c1 mirrors to a3"
    );
    assert_eq!(game.to_move(), Side::First);
    assert_eq!(
        game.colour_of(Side::First),
        Stone::Black,
        "colours unchanged"
    );
    assert_eq!(game.format_move(StoneMove::Swap), "swap-pieces");
    assert_eq!(game.hash(), game.recompute_hash());
    game.play_text("c1").unwrap();
    assert_eq!(game.stone(game.cell(2, 0)), Stone::Black);
    // A stone on the long diagonal changes colour in place.
    let mut game = hex("hex:5:swap-pieces");
    game.play_list("c3 swap").unwrap();
    assert_eq!(game.stone(game.cell(2, 2)), Stone::White);
    game.undo();
    assert_eq!(game.stone(game.cell(2, 2)), Stone::Black);
    game.undo();
    assert_eq!(game, hex("hex:5:swap-pieces"));
}

#[test]
fn hex_swap_only_on_second_move() {
    let mut game = hex("hex:5:swap-sides");
    let err = game.play_text("swap").unwrap_err();
    assert!(
        err.to_string().contains("swap only as the second move"),
        "{err}"
    );
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(!moves.contains(&StoneMove::Swap));
    game.play_text("b2").unwrap();
    game.legal_moves(&mut moves);
    assert!(moves.contains(&StoneMove::Swap));
    game.play_text("c3").unwrap();
    assert_eq!(
        game.illegal_reason(StoneMove::Swap),
        Some("swap only as the second move")
    );
    let mut plain = hex("hex:5");
    plain.play_text("b2").unwrap();
    assert_eq!(
        plain.illegal_reason(StoneMove::Swap),
        Some("the swap rule is not in force")
    );
    assert_eq!(plain.illegal_reason(StoneMove::Place(6)), Some("occupied"));
    plain.all_moves(&mut moves);
    assert_eq!(moves.len(), 25, "no swap among the moves without the rule");
}

#[test]
fn garbage_cell_names_are_errors_not_panics() {
    let game = hex("hex:11");
    for text in [
        "",
        " ",
        "a",
        "1",
        "a0",
        "1a",
        "a1b",
        "a-1",
        "é1",
        "a1é",
        "💥",
        "a99999999999999999999",
        "zzzzzzzzzzzzzzzz1",
        "swapp",
        "swap-",
        "pie",
        "a 1",
        ",",
        "a+1",
    ] {
        match game.parse_move(text) {
            Err(MoveError::Syntax { .. }) => {}
            other => panic!("`{text}`: {other:?}"),
        }
    }
    for text in ["l1", "a12", "k12", "aa1", "zz99", "a999999"] {
        match game.parse_move(text) {
            Err(MoveError::OffBoard { .. }) => {}
            other => panic!("`{text}`: {other:?}"),
        }
    }
    assert_eq!(game.parse_move(" K11 "), Ok(StoneMove::Place(120)));
}

#[test]
fn every_cell_of_hex_100_round_trips() {
    let game = hex("hex:100:swap-pieces");
    let mut moves = Vec::new();
    game.all_moves(&mut moves);
    assert_eq!(moves.len(), 10_001);
    for &mv in &moves {
        let text = game.format_move(mv);
        assert_eq!(game.parse_move(&text), Ok(mv), "{text}");
        assert_eq!(game.parse_move(&text.to_uppercase()), Ok(mv), "{text}");
    }
    assert_eq!(game.format_move(StoneMove::Place(9_999)), "cv100");
    assert_eq!(game.parse_move("swap-sides"), Ok(StoneMove::Swap));
}

#[test]
fn spec_dispatch_builds_hex() {
    let game = zerosum_games::new_game(&"hex:4x3:swap-sides".parse().unwrap()).unwrap();
    assert_eq!(game.spec().to_string(), "hex:4x3:swap-sides");
    assert_eq!(game.legal_moves().len(), 12);
    let json = game.to_json();
    assert_eq!(json["board"]["rows"], 3);
    assert_eq!(json["board"]["cols"], 4);
    assert_eq!(hex("hex:7x5").spec().to_string(), "hex:7x5");
}

// ---------------------------------------------------------------------------------------------
// Inferior cells: dead cells, on hand-made boards and against exhaustive completion.

/// `spec` after `moves` (alternating, Black first).
fn position(spec: &str, moves: &str) -> Hex {
    let mut game = hex(spec);
    game.play_list(moves).unwrap();
    game
}

fn cell_of(game: &Hex, name: &str) -> usize {
    match game.parse_move(name).unwrap() {
        StoneMove::Place(cell) => cell as usize,
        StoneMove::Swap => panic!("not a cell"),
    }
}

#[test]
fn a_cell_between_one_arc_of_each_colour_is_dead() {
    // Around c3: b3 c2 d2 Black, d3 c4 b4 White.
    let game = position("hex:5", "b3 d3 c2 c4 d2 b4");
    assert!(is_dead(&game, cell_of(&game, "c3")));
    // An occupied cell is not dead, nor a cell with an empty neighbour.
    assert!(!is_dead(&game, cell_of(&game, "b3")));
    assert!(!is_dead(&game, cell_of(&game, "c5")));
}

#[test]
fn a_cell_joining_two_arcs_of_a_colour_is_not_dead() {
    // Around c3: b3 and d3 Black (two arcs), c2 d2 c4 b4 White: Black on c3 joins them.
    let game = position("hex:5", "b3 c2 d3 d2 a1 c4 a5 b4");
    assert!(!is_dead(&game, cell_of(&game, "c3")));
}

#[test]
fn edges_count_as_their_colours_stones() {
    // a1 touches the top edge (Black) and the left edge (White); b1 and a2 Black close it.
    let game = position("hex:5", "b1 e5 a2");
    assert!(is_dead(&game, cell_of(&game, "a1")));
    // e1 (the acute corner) touches the outer corner, which has no colour.
    let game = position("hex:5", "d1 a5 d2 a4 e2");
    assert!(!is_dead(&game, cell_of(&game, "e1")));
}

#[test]
fn candidate_moves_leave_out_dead_cells() {
    let game = position("hex:5", "b3 d3 c2 c4 d2 b4");
    let mut moves = Vec::new();
    HexEvaluator::new(5, 5).candidate_moves(&game, &mut moves);
    let dead = StoneMove::Place(cell_of(&game, "c3") as u16);
    assert!(!moves.contains(&dead));
    assert_eq!(moves.len(), 25 - 7);
}

/// The winner of `grid` full (every cell a colour).
fn full_board_winner(grid: &Grid) -> i8 {
    if connects(grid, BLACK) {
        BLACK
    } else {
        WHITE
    }
}

#[test]
fn dead_cells_never_decide_any_completion_of_the_board() {
    let mut rng = SplitMix::new(19);
    let mut checked = 0;
    for round in 0..600 {
        let size = 3 + round % 3;
        let mut game = hex(&format!("hex:{size}"));
        let stones = size * size - 7 + rng.below(4);
        while game.ply() < stones && !game.status().is_over() {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            game.play(moves[rng.below(moves.len())]);
        }
        let empties: Vec<usize> = (0..size * size)
            .filter(|&c| game.stone(c) == Stone::Empty)
            .collect();
        for &dead in empties.iter().filter(|&&c| is_dead(&game, c)) {
            let others: Vec<usize> = empties.iter().copied().filter(|&c| c != dead).collect();
            for colouring in 0..1u32 << others.len() {
                let mut grid: Grid = (0..size)
                    .map(|r| {
                        (0..size)
                            .map(|c| game.stone(game.cell(c, r)) as i8)
                            .collect()
                    })
                    .collect();
                for (i, &cell) in others.iter().enumerate() {
                    let (c, r) = game.coordinates(cell);
                    grid[r][c] = if colouring >> i & 1 == 1 {
                        BLACK
                    } else {
                        WHITE
                    };
                }
                let (c, r) = game.coordinates(dead);
                grid[r][c] = BLACK;
                let with_black = full_board_winner(&grid);
                grid[r][c] = WHITE;
                assert_eq!(
                    with_black,
                    full_board_winner(&grid),
                    "{} is not dead in\n{}",
                    game.format_move(StoneMove::Place(dead as u16)),
                    game.render()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} dead cells met");
}

// ---------------------------------------------------------------------------------------------
// Virtual connections: a proof of the win before the board shows it.

#[test]
fn bridges_and_edge_templates_with_disjoint_carriers_connect() {
    // Black b2 (template to the top through b1/c1), b2-c3 bridged through c2/b3, c3-b5
    // bridged through c4/b4, b5 on the last row.
    let game = position("hex:5", "b2 e1 c3 e2 b5");
    assert!(virtually_connected(&game, Stone::Black));
    assert!(!virtually_connected(&game, Stone::White));
    // White intrudes b3 (a carrier of b2-c3): Black is no longer joined until it answers c2.
    let mut game = position("hex:5", "b2 e1 c3 e2 b5 b3");
    assert!(!virtually_connected(&game, Stone::Black));
    game.play_text("c2").unwrap();
    assert!(virtually_connected(&game, Stone::Black));
}

#[test]
fn an_intrusion_into_an_edge_template_breaks_the_connection() {
    // Black b2 on 3x3: templates to the top (b1, c1) and to the bottom (b3, a3); White on b1
    // breaks the first.
    let game = position("hex:3", "b2");
    assert!(virtually_connected(&game, Stone::Black));
    let game = position("hex:3", "b2 b1");
    assert!(!virtually_connected(&game, Stone::Black));
}

#[test]
fn white_connects_left_to_right_in_its_own_view() {
    // White b2 on 3x3: templates to the left (a2, a3) and to the right (c1, c2).
    let game = position("hex:3", "a1 b2");
    assert!(virtually_connected(&game, Stone::White));
    let game = position("hex:3", "c3 b2 a2");
    assert!(!virtually_connected(&game, Stone::White));
}

#[test]
fn a_virtual_connection_wins_against_every_defence() {
    let mut rng = SplitMix::new(23);
    let mut proved = 0;
    for round in 0..600 {
        let size = 4 + round % 2;
        let mut game = hex(&format!("hex:{size}"));
        let stones = size * size - 7 - rng.below(3);
        while game.ply() < stones && !game.status().is_over() {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            game.play(moves[rng.below(moves.len())]);
        }
        if game.status().is_over() {
            continue;
        }
        // The connected colour must win even with its opponent to move.
        let defender = game.colour_of(game.to_move());
        let attacker = if defender == Stone::Black {
            Stone::White
        } else {
            Stone::Black
        };
        if virtually_connected(&game, attacker) {
            proved += 1;
            assert!(
                !wins(&mut game, defender),
                "a false connection of {attacker:?} in\n{}",
                game.render()
            );
        }
    }
    assert!(proved > 20, "only {proved} connections met");
}

/// Whether `colour` wins `game` with best play (plain minimax over every move).
fn wins(game: &mut Hex, colour: Stone) -> bool {
    if let Status::Over(Outcome::Win(winner)) = game.status() {
        return game.colour_of(winner) == colour;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let to_move = game.colour_of(game.to_move()) == colour;
    let mut result = !to_move;
    for mv in moves {
        game.play(mv);
        let won = wins(game, colour);
        game.undo();
        if won == to_move {
            result = to_move;
            break;
        }
    }
    result
}
