//! The winning line or chain of a finished game, framed on its text board (`[X X X X]`,
//! `[B]` on each row of a chain), one test per game family; Unstable has none to frame (the
//! winner holds every cell), its board counts the loser's atoms instead.

use zerosum_core::Status;
use zerosum_games::{new_game, DynGame};

fn played(spec: &str, moves: &str) -> Box<dyn DynGame> {
    let mut game = new_game(&spec.parse().unwrap()).unwrap();
    game.play_list(moves).unwrap();
    game
}

/// The glyphs framed on the board lines of `text` (lines that name the players are not the
/// board's), in reading order.
fn framed(text: &str) -> Vec<char> {
    let mut glyphs = Vec::new();
    for line in text.lines().filter(|line| !line.contains("player")) {
        let mut inside = false;
        for c in line.chars() {
            match c {
                '[' => inside = true,
                ']' => inside = false,
                ' ' => {}
                _ if inside => glyphs.push(c),
                _ => {}
            }
        }
    }
    glyphs
}

/// Plays `spec` from the start with a fixed, varied choice of moves (no swap) until it ends.
fn played_out(spec: &str, seed: usize) -> Box<dyn DynGame> {
    let mut game = played(spec, "");
    while game.status() == Status::Ongoing {
        let legal: Vec<String> = game
            .legal_moves()
            .into_iter()
            .filter(|mv| !mv.starts_with("swap"))
            .collect();
        let pick = (game.ply() * 7 + seed * 13) % legal.len();
        game.play(&legal[pick]).unwrap();
    }
    game
}

#[test]
fn mnk_frames_the_run() {
    let diagonal = played("tictactoe", "a1,b1,b2,c1,c3");
    assert_eq!(diagonal.render(), "  a b c\n1[X]O O\n2 .[X].\n3 . .[X]\n");
    let row = played("mnk:5x7x5", "b3,a1,c3,a2,d3,a3,e3,a4,f3");
    assert!(row.render().contains("3 O[X X X X X]."), "{}", row.render());
    // A run longer than K is framed whole.
    let long = played("mnk:3x8x3", "a1,a3,b1,b3,d1,d3,c1");
    assert!(long.render().contains("1[X X X X]"), "{}", long.render());
    // Nothing is framed while the game goes on.
    assert!(framed(&played("tictactoe", "a1,b1,b2").render()).is_empty());
}

#[test]
fn connect_frames_the_four() {
    let column = played("connect4", "1212121");
    let text = column.render();
    assert_eq!(text.matches("[X]").count(), 4, "{text}");
    assert!(text.contains("[X]O . . . . ."), "{text}");
    let row = played("connect4", "1122334");
    let text = row.render();
    assert!(text.contains("\n[X X X X]. . .\n"), "{text}");
    assert_eq!(framed(&text), ['X'; 4]);
    // Wide boards (three characters a column) frame the same way.
    let wide = played("connectx:6x12x4", "1,1,2,2,3,3,4");
    assert!(wide.render().contains("[X  X  X  X]"), "{}", wide.render());
}

#[test]
fn hex_frames_the_chain() {
    let game = played("hex:4", "a1,b1,a2,b2,a3,b3,a4");
    assert_eq!(
        game.render(),
        "  a b c d\n\
         1[B]W . .\n\
         2 [B]W . .\n\
         3  [B]W . .\n\
         4   [B]. . .\n\
         Black (first player) joins top and bottom\n\
         White (second player) joins left and right\n"
    );
    for seed in 0..5 {
        let game = played_out("hex:7", seed);
        let chain = game.to_json()["board"]["winning_cells"]
            .as_array()
            .unwrap()
            .len();
        let glyphs = framed(&game.render());
        assert_eq!(glyphs.len(), chain, "{}", game.render());
        assert!(glyphs.windows(2).all(|w| w[0] == w[1]), "{}", game.render());
    }
}

#[test]
fn atoll_frames_the_chain_between_islands() {
    for seed in 0..5 {
        let game = played_out("atoll:standard", seed);
        let chain = game.to_json()["board"]["winning_cells"]
            .as_array()
            .unwrap()
            .len();
        let glyphs = framed(&game.render());
        assert_eq!(glyphs.len(), chain, "{}", game.render());
        // One colour: the winner's stones and the islands they join.
        let colour = glyphs[0].to_ascii_uppercase();
        assert!(
            glyphs.iter().all(|g| g.to_ascii_uppercase() == colour),
            "{}",
            game.render()
        );
    }
}

#[test]
fn unstable_frames_nothing_and_counts_the_loser_out() {
    let game = played("unstable:2x2", "A1,B2,A1,B2");
    let text = game.render();
    assert!(framed(&text).is_empty(), "{text}");
    assert!(text.contains("Black (+) 0 atoms in 0 cells"), "{text}");
}
