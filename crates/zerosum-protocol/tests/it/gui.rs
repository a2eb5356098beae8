//! GTP transcripts of the commands GUIs send: GoGui's and HexGui's analysis commands, GoGui's
//! rules commands on every family (in the game's notation and in GoGui's vertices),
//! `kgs-time_settings` and `cputime`.

use std::io::Cursor;
use std::time::Duration;

use crate::support::{Behaviour, FakeEngine};
use zerosum_core::TimeBudget;
use zerosum_protocol::gtp::{serve, GtpSession, Vertices, ANALYZE_COMMANDS};

fn session(spec: &str, vertices: Vertices) -> GtpSession<FakeEngine> {
    GtpSession::new(
        FakeEngine::new(Behaviour::FirstMove),
        &spec.parse().unwrap(),
    )
    .unwrap()
    .with_vertices(vertices)
}

/// The replies to `input`, each without its closing empty line.
fn replies_of(session: &mut GtpSession<FakeEngine>, input: &str) -> Vec<String> {
    let mut output = Vec::new();
    serve(
        session,
        Cursor::new(input.as_bytes().to_vec()),
        &mut output,
        std::io::sink(),
    )
    .unwrap();
    String::from_utf8(output)
        .unwrap()
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

fn replies(spec: &str, vertices: Vertices, input: &str) -> Vec<String> {
    replies_of(&mut session(spec, vertices), input)
}

#[test]
fn both_guis_get_the_analysis_commands_and_every_command_is_listed() {
    let replies = replies(
        "hex:5",
        Vertices::Native,
        "gogui-analyze_commands\nhexgui-analyze_commands\nlist_commands\n\
         known_command gogui-rules_board\nknown_command cputime\nknown_command kgs-time_settings\n",
    );
    let expected = format!("= {}", ANALYZE_COMMANDS.join("\n"));
    assert_eq!(replies[0], expected);
    assert_eq!(replies[1], expected);
    for line in ANALYZE_COMMANDS {
        let parts: Vec<&str> = line.split('/').collect();
        assert_eq!(parts.len(), 3, "type/label/command: {line}");
        assert!(
            ["string", "var", "pspairs", "plist"].contains(&parts[0]),
            "{line}"
        );
        let command = parts[2].split(' ').next().unwrap();
        assert!(
            replies[2]
                .lines()
                .any(|l| l.trim_start_matches("= ") == command),
            "{command}"
        );
    }
    for name in [
        "gogui-analyze_commands",
        "hexgui-analyze_commands",
        "gogui-rules_game_id",
        "gogui-rules_board_size",
        "gogui-rules_board",
        "gogui-rules_legal_moves",
        "gogui-rules_side_to_move",
        "gogui-rules_final_result",
        "kgs-time_settings",
        "cputime",
    ] {
        assert!(
            replies[2]
                .lines()
                .any(|l| l.trim_start_matches("= ") == name),
            "{name}"
        );
    }
    assert_eq!(replies[3..], ["= true", "= true", "= true"]);
}

#[test]
fn rules_commands_on_mnk() {
    let replies = replies(
        "tictactoe",
        Vertices::Native,
        "play b a1\ngogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_board\n\
         gogui-rules_legal_moves\ngogui-rules_side_to_move\ngogui-rules_final_result\n\
         play w b1\nplay b a2\nplay w b2\nplay b a3\ngogui-rules_legal_moves\n\
         gogui-rules_final_result\ngogui-rules_board\n",
    );
    assert_eq!(replies[1..4], ["= Mnk", "= 3 3", "= \nX . .\n. . .\n. . ."]);
    assert_eq!(replies[4], "= b1 c1 a2 b2 c2 a3 b3 c3");
    assert_eq!(replies[5], "= white");
    assert_eq!(replies[6], "? the game is not over");
    assert_eq!(replies[11], "=");
    assert_eq!(replies[12], "= Black wins.");
    assert_eq!(replies[13], "= \nX O .\nX O .\nX . .");
}

#[test]
fn rules_commands_on_connect_x() {
    let replies = replies(
        "connectx:4x5x3",
        Vertices::Native,
        "play b 2\nplay w 2\ngogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_board\n\
         gogui-rules_legal_moves\ngogui-rules_side_to_move\n",
    );
    assert_eq!(
        replies[2..],
        [
            "= Connectx",
            "= 5 4",
            "= \n. . . . .\n. . . . .\n. O . . .\n. X . . .",
            "= 1 2 3 4 5",
            "= black",
        ]
    );
}

#[test]
fn rules_commands_on_hex_follow_the_swap() {
    let replies = replies(
        "hex:3:swap-sides",
        Vertices::Native,
        "play b a1\ngogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_legal_moves\n\
         play w swap-sides\ngogui-rules_side_to_move\ngogui-rules_board\n\
         play w b2\nplay b c1\nplay w a2\nplay b a3\nplay w c2\ngogui-rules_legal_moves\n\
         gogui-rules_final_result\n",
    );
    assert_eq!(replies[1..3], ["= Hex", "= 3 3 hex"]);
    assert_eq!(replies[3], "= b1 c1 a2 b2 c2 a3 b3 c3 swap-sides");
    // After swap-sides the first player has White and moves again.
    assert_eq!(replies[5], "= white");
    assert_eq!(replies[6], "= \nX . .\n. . .\n. . .");
    assert!(replies[7..12].iter().all(|r| r == "="), "{replies:?}");
    // White (the first player since the swap) joined left and right with a2 b2 c2.
    assert_eq!(replies[12], "=");
    assert_eq!(replies[13], "= White wins.");
}

#[test]
fn rules_commands_on_atoll_mark_the_water() {
    let replies = replies(
        "atoll:rhombus4",
        Vertices::Native,
        "gogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_board\n\
         gogui-rules_side_to_move\ngogui-rules_legal_moves\n",
    );
    assert_eq!(replies[0..2], ["= Atoll", "= 6 6 hex"]);
    let board: Vec<&str> = replies[2].lines().skip(1).collect();
    assert_eq!(board.len(), 6);
    assert!(
        board[0].starts_with("? ") && board[0].ends_with(" ?"),
        "{board:?}"
    );
    assert!(
        board[5].starts_with("? ") && board[5].ends_with(" ?"),
        "{board:?}"
    );
    assert_eq!(board[1].matches('.').count(), 4, "{board:?}");
    assert_eq!(replies[3], "= black");
    assert_eq!(replies[4].split(' ').count(), 1 + 16, "{}", replies[4]);
}

#[test]
fn rules_commands_on_unstable_show_the_owners() {
    let replies = replies(
        "unstable:3x4",
        Vertices::Native,
        "play b A1\nplay w C4\ngogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_board\n\
         gogui-rules_side_to_move\ngogui-rules_legal_moves\n",
    );
    assert_eq!(
        replies[2..6],
        [
            "= Unstable",
            "= 4 3",
            "= \nX . . .\n. . . .\n. . . O",
            "= black",
        ]
    );
    assert!(!replies[6].contains("C4"), "{}", replies[6]);
    assert!(replies[6].contains("A1"), "{}", replies[6]);
}

#[test]
fn gogui_vertices_count_rows_from_the_bottom_and_skip_i() {
    let replies = replies(
        "mnk:10x10x5",
        Vertices::GoGui,
        "play b A1\nplay w J10\nplay b a10\nplay w I5\ngenmove w\ngogui-rules_board\n\
         all_legal_moves\n",
    );
    assert_eq!(replies[0..3], ["=", "=", "="]);
    assert_eq!(
        replies[3],
        "? illegal move: white I5 (`I5` is not a point of the board)"
    );
    // The fake engine plays the first legal move: b1 in the game's notation, B10 for GoGui.
    assert_eq!(replies[4], "= B10");
    let board: Vec<&str> = replies[5].lines().skip(1).collect();
    assert_eq!(board[0], "X O . . . . . . O .");
    assert_eq!(board[9], "X . . . . . . . . .");
    assert!(replies[6].starts_with("= C10 D10"), "{}", replies[6]);
}

#[test]
fn gogui_vertices_on_connect_x_and_the_swap_as_pass() {
    let connect = replies(
        "connect4",
        Vertices::GoGui,
        "play b D1\nplay w D1\nplay w D2\ngogui-rules_legal_moves\ngenmove b\n",
    );
    assert_eq!(connect[0], "=");
    assert!(
        connect[1].starts_with("? illegal move: white D1"),
        "{}",
        connect[1]
    );
    assert_eq!(connect[2], "=");
    assert_eq!(connect[3], "= A1 B1 C1 D3 E1 F1 G1");
    assert_eq!(connect[4], "= A1");

    let replies = replies(
        "hex:4:swap-pieces",
        Vertices::GoGui,
        "gogui-rules_legal_moves\nplay b pass\nplay b B3\ngogui-rules_legal_moves\n\
         play w pass\ngogui-rules_board\ngogui-rules_side_to_move\n",
    );
    assert!(!replies[0].contains("pass"), "{}", replies[0]);
    assert!(
        replies[1].starts_with("? illegal move: black pass (no swap"),
        "{}",
        replies[1]
    );
    assert_eq!(replies[2], "=");
    assert!(replies[3].ends_with(" pass"), "{}", replies[3]);
    assert_eq!(replies[4], "=");
    // swap-pieces mirrors b2 to b2 and makes it White; Black moves.
    assert_eq!(replies[5], "= \n. . . .\n. O . .\n. . . .\n. . . .");
    assert_eq!(replies[6], "= black");
}

#[test]
fn analysis_commands_show_the_evaluation_line_and_solution() {
    let native = replies(
        "hex:5",
        Vertices::Native,
        "play b c3\nzerosum-evaluate\nzerosum-pv\nzerosum-solve\nzerosum-solve-moves\n",
    );
    assert_eq!(
        native[1..],
        [
            "= score +12 depth 3 nodes 99 pv a1 b1",
            "= a1 b1",
            "= white wins (win-in-3 for white to move), best: a1",
            "= a1 W3",
        ]
    );
    let gogui = replies(
        "connect4",
        Vertices::GoGui,
        "zerosum-evaluate\nzerosum-pv\nzerosum-solve-moves\n",
    );
    assert_eq!(
        gogui,
        [
            "= score +12 depth 3 nodes 99 pv A1 A2",
            "= A1 A2",
            "= A1 W3"
        ]
    );
    let over = replies(
        "tictactoe",
        Vertices::Native,
        "play b a1\nplay w b1\nplay b a2\nplay w b2\nplay b a3\nzerosum-evaluate\nzerosum-solve\n",
    );
    assert_eq!(over[5], "? cannot analyse: the game is over (black won)");
    assert_eq!(over[6], "? cannot solve: the game is over (black won)");
}

#[test]
fn kgs_time_settings_set_the_budget() {
    let mut session = session("hex:5", Vertices::Native);
    let budgets = session.engine().budgets.clone();
    let replies = replies_of(
        &mut session,
        "kgs-time_settings absolute 100\ngenmove b\nkgs-time_settings canadian 0 10 5\n\
         genmove w\nkgs-time_settings byoyomi 0 3 5\ngenmove b\nkgs-time_settings none\n\
         genmove w\nkgs-time_settings fischer 1\nkgs-time_settings absolute -1\n\
         kgs-time_settings canadian 1 2\ncputime\n",
    );
    assert_eq!(replies[0], "=");
    assert_eq!(replies[2], "=");
    assert_eq!(replies[4], "=");
    assert_eq!(replies[6], "=");
    for bad in &replies[8..11] {
        assert!(bad.starts_with("? syntax error"), "{bad}");
    }
    let seconds: f64 = replies[11].trim_start_matches("= ").parse().unwrap();
    assert!(seconds >= 0.0, "{}", replies[11]);
    // The controller's share of a move, less the protocol's overhead.
    let served = |seconds| {
        TimeBudget::new(Duration::from_secs_f64(seconds))
            .served()
            .duration()
    };
    assert_eq!(
        *budgets.lock().unwrap(),
        [
            Some(served(5.0)),
            Some(served(2.0)),
            Some(served(3.0)),
            None
        ]
    );
}

#[test]
fn loadsgf_loads_hexgui_and_exported_files() {
    let dir = std::env::temp_dir().join(format!("zerosum-protocol-loadsgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hexgui = dir.join("hexgui.sgf");
    std::fs::write(
        &hexgui,
        "(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[4]\n;B[b2];W[swap-pieces]\n;B[c3])\n",
    )
    .unwrap();
    let atoll = dir.join("atoll.sgf");
    std::fs::write(
        &atoll,
        "(;FF[4]GM[11]SZ[6]ZS[atoll:rhombus4:pie]\n;B[d3];W[swap-sides];W[c2])\n",
    )
    .unwrap();
    let bad = dir.join("bad.sgf");
    std::fs::write(&bad, "(;GM[11]SZ[4]\n;B[b2]\n;B[c3])").unwrap();
    let input = format!(
        "loadsgf {hexgui}\ngogui-rules_board\ngogui-rules_side_to_move\nloadsgf {hexgui} 2\n\
         gogui-rules_board\nloadsgf {atoll}\nzerosum-game\ngogui-rules_side_to_move\n\
         loadsgf {bad}\nloadsgf {missing}\nloadsgf {hexgui} 0\nzerosum-game\n",
        hexgui = hexgui.display(),
        atoll = atoll.display(),
        bad = bad.display(),
        missing = dir.join("missing.sgf").display(),
    );
    let replies = replies("hex:4:swap-pieces", Vertices::Native, &input);
    assert_eq!(replies[0], "=");
    // b2 became White's b2 by the swap, then Black played c3.
    assert_eq!(replies[1], "= \n. . . .\n. O . .\n. . X .\n. . . .");
    assert_eq!(replies[2], "= white");
    assert_eq!(replies[3], "=");
    assert_eq!(replies[4], "= \n. . . .\n. X . .\n. . . .\n. . . .");
    assert_eq!(replies[5], "=");
    assert_eq!(replies[6], "= atoll:rhombus4:pie");
    // After the swap the first player has White and played c2; Black is to move.
    assert_eq!(replies[7], "= black");
    assert!(
        replies[8].starts_with(&format!("? cannot load {}: line 3: move 2", bad.display())),
        "{}",
        replies[8]
    );
    assert!(replies[9].starts_with("? cannot load "), "{}", replies[9]);
    assert!(
        replies[10].starts_with("? syntax error: move number `0`"),
        "{}",
        replies[10]
    );
    // A failed load leaves the game as it was.
    assert_eq!(replies[11], "= atoll:rhombus4:pie");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gogui_boardsize_of_the_width_keeps_the_board() {
    // GoGui's synchroniser sends `boardsize WIDTH` then `clear_board`.
    let connect = replies(
        "connect4",
        Vertices::GoGui,
        "play b D1\nboardsize 7\nclear_board\ngogui-rules_board_size\nzerosum-game\n\
         boardsize 8\nzerosum-game\n",
    );
    assert_eq!(connect[1..5], ["=", "=", "= 7 6", "= connectx:6x7x4"]);
    assert_eq!(connect[5..], ["=", "= connectx:8x8x4"]);
    let atoll = replies(
        "atoll:rhombus4",
        Vertices::GoGui,
        "boardsize 6\nzerosum-game\nboardsize 5\n",
    );
    assert_eq!(atoll[0..2], ["=", "= atoll:rhombus4"]);
    assert!(atoll[2].starts_with("? unacceptable size"), "{}", atoll[2]);
}

#[test]
fn board_gfx_shows_atoms_and_the_winning_line() {
    let unstable = replies(
        "unstable:3x4",
        Vertices::GoGui,
        "gogui-rules_board_gfx\nplay b A3\nplay w D1\nplay b B2\nplay w D1\ngogui-rules_board_gfx\n",
    );
    assert_eq!(unstable[0], "=");
    // Unstable's A1 (top-left, GoGui's A3) and B2 hold a Black atom each; White's corner C4
    // (GoGui's D1) exploded at its second atom into B4 (D2) and C3 (C1).
    assert_eq!(unstable[5], "= LABEL A3 1 B2 1 D2 1 C1 1");
    let mnk = replies(
        "tictactoe",
        Vertices::Native,
        "play b a1\nplay w b1\nplay b a2\nplay w b2\nplay b a3\ngogui-rules_board_gfx\n",
    );
    assert_eq!(mnk[5], "= MARK a1 a2 a3");
    let connect = replies(
        "connectx:4x4x3",
        Vertices::GoGui,
        "play b A1\nplay w B1\nplay b A2\nplay w B2\nplay b A3\ngogui-rules_board_gfx\n",
    );
    assert_eq!(connect[5], "= MARK A3 A2 A1");
}
