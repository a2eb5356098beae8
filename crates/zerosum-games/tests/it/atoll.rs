//! Atoll: conformance playouts checked against a naive flood-fill referee, perft against a
//! naive brute force, full boards, and the rule edge cases.

use std::collections::{HashMap, HashSet};

use zerosum_core::conformance::{check_playouts, Checks, SplitMix};
use zerosum_core::{perft, Game, MoveError, Outcome, Side, Status};
use zerosum_games::atoll::{Atoll, AtollBoard, AtollSpec, BOARDS};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::{EvaluatedGame, GameSpec};

// ---------------------------------------------------------------------------------------------
// A deliberately naive model: a map from grid coordinates to colours, the islands as lists of
// grid coordinates, adjacency recomputed from the coordinates, flood fill between islands.

const BLACK: i8 = 1;
const WHITE: i8 = 2;

struct NaiveIsland {
    colour: i8,
    cells: Vec<(i64, i64)>,
    opposite: usize,
}

struct Naive {
    /// Every cell of the board by grid `(column, row)`: 0 empty, `BLACK` or `WHITE`.
    cells: HashMap<(i64, i64), i8>,
    islands: Vec<NaiveIsland>,
    /// The cells that are not island cells, in the board's index order.
    playable: Vec<(i64, i64)>,
}

fn colour_code(stone: Stone) -> i8 {
    match stone {
        Stone::Black => BLACK,
        Stone::White => WHITE,
        Stone::Empty => 0,
    }
}

impl Naive {
    /// The board's starting position, read from the board's data (cells and islands only).
    fn new(board: &AtollBoard) -> Naive {
        let grid = |cell: usize| {
            let (c, r) = board.coordinates(cell);
            (c as i64, r as i64)
        };
        let mut cells: HashMap<(i64, i64), i8> = (0..board.cell_count())
            .map(|cell| (grid(cell), 0))
            .collect();
        let islands: Vec<NaiveIsland> = board
            .islands()
            .iter()
            .map(|island| NaiveIsland {
                colour: colour_code(island.colour),
                cells: island.cells.iter().map(|&c| grid(c as usize)).collect(),
                opposite: island.opposite.unwrap(),
            })
            .collect();
        for island in &islands {
            for place in &island.cells {
                cells.insert(*place, island.colour);
            }
        }
        let island_cells: Vec<(i64, i64)> = islands.iter().flat_map(|i| i.cells.clone()).collect();
        let playable = (0..board.cell_count())
            .map(grid)
            .filter(|place| !island_cells.contains(place))
            .collect();
        Naive {
            cells,
            islands,
            playable,
        }
    }

    /// True if `colour` joins two opposite islands of its colour.
    fn connects(&self, colour: i8) -> bool {
        for island in &self.islands {
            if island.colour != colour {
                continue;
            }
            let target = &self.islands[island.opposite].cells;
            let mut seen: HashSet<(i64, i64)> = island.cells.iter().copied().collect();
            let mut stack = island.cells.clone();
            while let Some((c, r)) = stack.pop() {
                if target.contains(&(c, r)) {
                    return true;
                }
                for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (-1, 1)] {
                    let next = (c + dc, r + dr);
                    if self.cells.get(&next) == Some(&colour) && seen.insert(next) {
                        stack.push(next);
                    }
                }
            }
        }
        false
    }

    fn is_full(&self) -> bool {
        self.playable.iter().all(|place| self.cells[place] != 0)
    }

    /// The status by the rules: a connection wins; a full board without one is a draw.
    fn status(&self, exchanged: bool) -> Result<Status, String> {
        let owner = |colour: i8| {
            if (colour == BLACK) != exchanged {
                Side::First
            } else {
                Side::Second
            }
        };
        match (self.connects(BLACK), self.connects(WHITE)) {
            (true, true) => Err("both colours connect".into()),
            (true, false) => Ok(Status::Over(Outcome::Win(owner(BLACK)))),
            (false, true) => Ok(Status::Over(Outcome::Win(owner(WHITE)))),
            (false, false) if self.is_full() => Ok(Status::Over(Outcome::Draw)),
            (false, false) => Ok(Status::Ongoing),
        }
    }
}

/// Replays a game's moves (as text) on the naive model; also says whether colours exchanged.
fn replay(game: &Atoll) -> (Naive, bool) {
    let mut naive = Naive::new(game.board());
    let mut exchanged = false;
    for (ply, &mv) in game.history().iter().enumerate() {
        let text = game.format_move(mv);
        if text == "swap" {
            exchanged = true;
            continue;
        }
        let place = parse_name(&text);
        let black_to_play = (ply % 2 == 0) != exchanged;
        naive
            .cells
            .insert(place, if black_to_play { BLACK } else { WHITE });
    }
    (naive, exchanged)
}

/// `c3` -> (2, 2), naively.
fn parse_name(text: &str) -> (i64, i64) {
    let split = text.find(|ch: char| ch.is_ascii_digit()).unwrap();
    let column = text[..split]
        .bytes()
        .fold(0i64, |n, b| n * 26 + (b - b'a') as i64 + 1)
        - 1;
    (column, text[split..].parse::<i64>().unwrap() - 1)
}

fn agrees_with_naive_referee(game: &Atoll) -> Result<(), String> {
    let (naive, exchanged) = replay(game);
    let expected = naive.status(exchanged)?;
    if game.status() != expected {
        return Err(format!(
            "status {:?}, naive referee says {expected:?}",
            game.status()
        ));
    }
    Ok(())
}

fn atoll(spec: &str) -> Atoll {
    let spec = spec.parse::<GameSpec>().unwrap();
    match spec.params::<AtollSpec>() {
        Some(AtollSpec { board, pie, .. }) => Atoll::new(board, *pie).unwrap(),
        None => panic!("not atoll: {spec}"),
    }
}

fn cell(game: &Atoll, name: &str) -> usize {
    match game.parse_move(name) {
        Ok(StoneMove::Place(cell)) => cell as usize,
        other => panic!("{name}: {other:?}"),
    }
}

/// Plays Black's cells with White's in between (Black first, Black last), checking that the
/// game goes on before every move.
fn play_alternately(game: &mut Atoll, black: &[&str], white: &[&str]) {
    assert!(white.len() + 1 >= black.len(), "enough white moves");
    let mut order = Vec::new();
    for (i, name) in black.iter().enumerate() {
        order.push(*name);
        if i + 1 < black.len() {
            order.push(white[i]);
        }
    }
    for name in order {
        assert_eq!(game.status(), Status::Ongoing, "before {name}");
        game.play_text(name).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Conformance.

#[test]
fn conformance_playouts_match_the_naive_referee() {
    let cases = [
        ("atoll:standard", 60, 5),
        ("atoll:standard:pie", 60, 5),
        ("atoll:hexhex2", 300, 1),
        ("atoll:hexhex2:pie", 300, 1),
        ("atoll:hexhex4", 200, 2),
        ("atoll:hexhex4:pie", 200, 2),
        ("atoll:hexhex6", 60, 5),
        ("atoll:rhombus2", 300, 1),
        ("atoll:rhombus3:pie", 300, 1),
    ];
    for (spec, games, all_moves_every) in cases {
        let start = atoll(spec);
        let checks = Checks {
            games,
            seed: 23,
            max_plies: start.board().playable().len() + 1,
            all_moves_every,
        };
        let stats = check_playouts(&start, checks, agrees_with_naive_referee)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(
            stats.first_wins > 0 && stats.second_wins > 0,
            "{spec}: {stats:?}"
        );
        if start.board().islands().len() == 8 {
            assert_eq!(stats.draws, 0, "{spec}: 8 islands never draw");
        }
    }
}

/// Fills every playable cell of a naive board at random.
fn random_full_board(board: &AtollBoard, rng: &mut SplitMix) -> Naive {
    let mut naive = Naive::new(board);
    for place in naive.playable.clone() {
        naive
            .cells
            .insert(place, if rng.below(2) == 0 { BLACK } else { WHITE });
    }
    naive
}

#[test]
fn random_full_boards_have_exactly_one_opposite_connection_with_8_islands() {
    let mut rng = SplitMix::new(3);
    for name in [
        "standard",
        "rhombus2",
        "rhombus3",
        "rhombus4",
        "rhombus6",
        "rhombus13",
    ] {
        let board = AtollBoard::named(name).unwrap();
        for _ in 0..200 {
            let naive = random_full_board(&board, &mut rng);
            assert!(
                naive.connects(BLACK) != naive.connects(WHITE),
                "{name}: exactly one colour joins opposite islands"
            );
        }
    }
}

#[test]
fn random_full_boards_have_at_most_one_opposite_connection_with_12_islands() {
    let mut rng = SplitMix::new(4);
    for name in ["hexhex2", "hexhex4", "hexhex6", "hexhex8"] {
        let board = AtollBoard::named(name).unwrap();
        let mut nobody = 0;
        for _ in 0..200 {
            let naive = random_full_board(&board, &mut rng);
            let (black, white) = (naive.connects(BLACK), naive.connects(WHITE));
            assert!(!(black && white), "{name}: both colours connect");
            nobody += usize::from(!black && !white);
        }
        assert!(
            nobody < 40,
            "{name}: {nobody} of 200 full boards without a winner"
        );
    }
}

#[test]
fn atoll_twelve_island_full_board_can_be_a_draw() {
    // Random games to the end on hexhex4 include full boards where nobody joins opposite
    // islands (see the `board` module documentation); the game then ends in a draw.
    let start = atoll("atoll:hexhex4");
    let mut rng = SplitMix::new(1);
    let mut moves = Vec::new();
    let drawn = (0..2_000)
        .find_map(|_| {
            let mut game = start.clone();
            loop {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            (game.status() == Status::Over(Outcome::Draw)).then_some(game)
        })
        .expect("a drawn game on hexhex4");
    assert_eq!(drawn.ply(), drawn.board().playable().len());
    let (naive, _) = replay(&drawn);
    assert!(naive.is_full() && !naive.connects(BLACK) && !naive.connects(WHITE));
    assert!(!drawn.render().contains('['), "a draw frames no chain");
    assert_eq!(drawn.board_json()["winning_cells"], serde_json::json!([]));
}

// ---------------------------------------------------------------------------------------------
// Perft against a naive brute force.

fn naive_perft(game_board: &AtollBoard, pie: bool, moves: &mut Vec<String>, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Replay from scratch on the naive model.
    let mut naive = Naive::new(game_board);
    let mut exchanged = false;
    for (ply, text) in moves.iter().enumerate() {
        if text == "swap" {
            exchanged = true;
        } else {
            let black_to_play = (ply % 2 == 0) != exchanged;
            naive
                .cells
                .insert(parse_name(text), if black_to_play { BLACK } else { WHITE });
        }
    }
    if naive.status(exchanged).unwrap() != Status::Ongoing {
        return 0;
    }
    let mut total = 0;
    for &(c, r) in &naive.playable {
        if naive.cells[&(c, r)] == 0 {
            let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
            moves.push(name);
            total += naive_perft(game_board, pie, moves, depth - 1);
            moves.pop();
        }
    }
    if pie && moves.len() == 1 {
        moves.push("swap".to_string());
        total += naive_perft(game_board, pie, moves, depth - 1);
        moves.pop();
    }
    total
}

#[test]
fn perft_matches_the_naive_brute_force() {
    for (spec, full_depth) in [
        ("atoll:hexhex2", 7),
        ("atoll:hexhex2:pie", 5),
        ("atoll:rhombus2", 4),
        ("atoll:rhombus3:pie", 5),
        ("atoll:hexhex4", 3),
        ("atoll:standard", 2),
    ] {
        let mut game = atoll(spec);
        let pie = game.pie_rule();
        for depth in 0..=full_depth {
            let fast = perft(&mut game, depth);
            let naive = naive_perft(game.board(), pie, &mut Vec::new(), depth);
            assert_eq!(fast, naive, "{spec} depth {depth}");
        }
        assert_eq!(game, atoll(spec), "perft restores the position");
    }
    assert_eq!(perft(&mut atoll("atoll:standard"), 2), 81 * 80);
    assert_eq!(perft(&mut atoll("atoll:standard:pie"), 2), 81 * 81);
}

// ---------------------------------------------------------------------------------------------
// Edge cases, on the standard board:
//
//    a b c d e f g h i j k
//  1   b b b b w w w w w          islands: 0 b1-e1 (black), 1 f1-j1 (white),
//  2  w . . . . . . . . . b                2 k2-k6 (black), 3 k7-k10 (white),
//  3   w . . . . . . . . . b               4 j11-g11 (black), 5 f11-b11 (white),
//  ...                                     6 a10-a6 (black), 7 a5-a2 (white);
// 10          b . . . . . . . . . w        opposite: 0-4, 1-5, 2-6, 3-7.
// 11             w w w w w b b b b

/// Harmless white moves on the standard board: they touch only White's islands 5 and 7
/// (not opposite) and stay off row 2 and column j.
const WHITE_FILLER: [&str; 14] = [
    "b5", "b6", "b7", "b8", "b9", "b10", "c6", "c7", "c8", "c9", "c10", "d8", "d9", "d10",
];

/// Black's row 2, joining island 0 (b1-e1) to island 2 (k2-k6).
const ROW_TWO: [&str; 9] = ["b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "j2"];

#[test]
fn atoll_adjacent_islands_do_not_win() {
    let mut game = atoll("atoll:standard");
    play_alternately(&mut game, &ROW_TWO, &WHITE_FILLER);
    assert_eq!(game.ply(), 17);
    assert_eq!(game.status(), Status::Ongoing);
    let (naive, _) = replay(&game);
    assert!(!naive.connects(BLACK));
    // The chain does join islands 0 and 2, which are both black but not opposite.
    let board = game.board();
    let j2 = cell(&game, "j2");
    assert!(board.neighbours(j2).any(|n| board.island_of(n) == Some(2)));
    let b2 = cell(&game, "b2");
    assert!(board.neighbours(b2).any(|n| board.island_of(n) == Some(0)));
}

#[test]
fn atoll_opposite_islands_win() {
    // Island 0 (top, b1-e1) down column e, along row 3 to column h, down to island 4
    // (bottom, g11-j11).
    let black = [
        "e2", "e3", "f3", "g3", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10",
    ];
    let mut game = atoll("atoll:standard");
    play_alternately(&mut game, &black, &WHITE_FILLER);
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    assert_eq!(game.format_move(*game.history().last().unwrap()), "h10");
    let json = game.board_json();
    let chain: Vec<String> = serde_json::from_value(json["winning_cells"].clone()).unwrap();
    assert_eq!(chain.first().map(String::as_str), Some("e1"));
    assert_eq!(chain.last().map(String::as_str), Some("h11"));
    assert_eq!(chain.len(), black.len() + 2);
    // White connected its islands 5 and 7, which are not opposite.
    let (naive, _) = replay(&game);
    assert!(!naive.connects(WHITE));
}

#[test]
fn atoll_three_island_chain_wins() {
    // Row 2 joins islands 0 and 2; then j7-j10 joins island 2 (k2-k6) to island 4 (g11-j11),
    // which is opposite island 0.
    let mut black: Vec<&str> = ROW_TWO.to_vec();
    black.extend(["j7", "j8", "j9", "j10"]);
    let mut game = atoll("atoll:standard");
    // Checks before every move that the game goes on: islands 0 and 2 alone do not win.
    play_alternately(&mut game, &black, &WHITE_FILLER);
    assert_eq!(game.format_move(*game.history().last().unwrap()), "j10");
    assert_eq!(game.status(), Status::Over(Outcome::Win(Side::First)));
    let chain: Vec<String> =
        serde_json::from_value(game.board_json()["winning_cells"].clone()).unwrap();
    for through_island_2 in ["k2", "k6"] {
        assert!(chain.iter().any(|c| c == through_island_2), "{chain:?}");
    }
    // The board frames the chain; its lines say who plays Black.
    let text = game.render();
    assert!(
        text.contains("[B") && text.contains("Black (first player) joins"),
        "{text}"
    );
}

#[test]
fn atoll_island_cells_are_not_moves() {
    for spec in ["atoll:standard:pie", "atoll:hexhex4", "atoll:rhombus5"] {
        let mut game = atoll(spec);
        let board = game.board().clone();
        let mut moves = Vec::new();
        game.all_moves(&mut moves);
        let expected = board.playable().len() + usize::from(game.pie_rule());
        assert_eq!(moves.len(), expected, "{spec}");
        for &mv in &moves {
            if let StoneMove::Place(cell) = mv {
                assert_eq!(board.island_of(cell as usize), None, "{spec}");
            }
        }
        for island in board.islands() {
            for &cell in &island.cells {
                let name = board.cell_name(cell as usize);
                let mv = game.parse_move(&name).unwrap();
                assert_eq!(mv, StoneMove::Place(cell));
                assert_eq!(
                    game.illegal_reason(mv),
                    Some("island cells hold fixed stones")
                );
                let err = game.play_text(&name).unwrap_err();
                assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
                assert_eq!(game.stone(cell as usize), island.colour);
            }
        }
    }
    // The corners of the standard frame are water.
    let game = atoll("atoll:standard");
    for corner in ["a1", "k1", "a11", "k11"] {
        assert!(matches!(
            game.parse_move(corner),
            Err(MoveError::OffBoard { .. })
        ));
    }
}

#[test]
fn atoll_pie_rule() {
    // hexhex2: islands are single cells; c1 (island 0) and c5 (island 6) are opposite and
    // black, joined by c2, c3, c4.
    let mut game = atoll("atoll:hexhex2:pie");
    game.play_text("c3").unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.contains(&StoneMove::Swap));
    assert_eq!(game.play_text("pie"), Ok(StoneMove::Swap));
    assert_eq!(game.format_move(StoneMove::Swap), "swap");
    assert_eq!(
        game.stone(cell(&game, "c3")),
        Stone::Black,
        "the stone stays black"
    );
    assert_eq!(game.to_move(), Side::First);
    assert_eq!(game.colour_of(Side::First), Stone::White);
    assert_eq!(game.board_json()["colours"]["second"], "black");
    assert_eq!(game.hash(), game.recompute_hash());
    game.play_text("b3").unwrap();
    assert_eq!(
        game.stone(cell(&game, "b3")),
        Stone::White,
        "first player plays white"
    );
    assert_eq!(
        game.illegal_reason(StoneMove::Swap),
        Some("the pie rule applies only to the second move")
    );
    game.play_list("c2 b4").unwrap();
    assert_eq!(game.status(), Status::Ongoing);
    game.play_text("c4").unwrap();
    assert_eq!(
        game.status(),
        Status::Over(Outcome::Win(Side::Second)),
        "black stones now belong to the second player"
    );
    let text = game.render();
    assert!(
        text.contains("[B") && text.contains("Black (second player) joins"),
        "{text}"
    );
    // Without the rule, and not on the first move.
    let mut plain = atoll("atoll:hexhex2");
    assert_eq!(
        plain.illegal_reason(StoneMove::Swap),
        Some("the pie rule is not in force")
    );
    plain.play_text("c3").unwrap();
    plain.legal_moves(&mut moves);
    assert!(!moves.contains(&StoneMove::Swap));
    let mut pie = atoll("atoll:hexhex2:pie");
    assert!(pie.play_text("swap").is_err());
}

#[test]
fn atoll_unknown_board_is_a_clear_error() {
    let err = Atoll::new("moon", false).unwrap_err().to_string();
    assert!(err.contains("unknown Atoll board `moon`"), "{err}");
    for (name, _) in BOARDS {
        assert!(err.contains(name), "{err} lists {name}");
    }
    let err = Atoll::new("hexhex5", false).unwrap_err().to_string();
    assert!(err.contains("even radius"), "{err}");
    let spec: GameSpec = "atoll:moon:pie".parse().unwrap();
    let err = zerosum_games::new_game(&spec).err().unwrap().to_string();
    assert!(err.contains("unknown Atoll board"), "{err}");
    let game = zerosum_games::new_game(&"atoll".parse().unwrap()).unwrap();
    assert_eq!(game.spec().to_string(), "atoll:standard");
    assert_eq!(game.legal_moves().len(), 81);
}

#[test]
fn garbage_cell_names_are_errors_not_panics() {
    let game = atoll("atoll:hexhex4:pie");
    for text in [
        "",
        " ",
        "a",
        "5",
        "a0",
        "5a",
        "a1b",
        "a-1",
        "é1",
        "💥",
        "a99999999999999999999",
        "zzzzzzzzzzzzzzz1",
        "swapp",
        "pi",
        "a 1",
        ",",
    ] {
        match game.parse_move(text) {
            Err(MoveError::Syntax { .. }) => {}
            other => panic!("`{text}`: {other:?}"),
        }
    }
    // Off the grid, or a grid position without a cell.
    for text in ["j1", "a10", "a1", "d1", "i9", "zz99"] {
        match game.parse_move(text) {
            Err(MoveError::OffBoard { .. }) => {}
            other => panic!("`{text}`: {other:?}"),
        }
    }
    assert_eq!(game.parse_move(" PIE "), Ok(StoneMove::Swap));
}

#[test]
fn every_cell_of_every_board_round_trips() {
    let mut names = vec!["standard".to_string()];
    names.extend((2..=20).step_by(2).map(|r| format!("hexhex{r}")));
    names.extend([2, 3, 9, 30, 98].map(|n| format!("rhombus{n}")));
    for name in names {
        let game = Atoll::new(&name, true).unwrap();
        let board = game.board();
        for cell in 0..board.cell_count() {
            let mv = StoneMove::Place(cell as u16);
            let text = game.format_move(mv);
            assert_eq!(game.parse_move(&text), Ok(mv), "{name}: {text}");
            assert_eq!(text, board.cell_name(cell));
        }
        assert_eq!(
            game.parse_move(&game.format_move(StoneMove::Swap)),
            Ok(StoneMove::Swap)
        );
        assert_eq!(game.spec().to_string(), format!("atoll:{name}:pie"));
    }
}
