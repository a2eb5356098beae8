//! Game files: every game of a 100-game record of each family, exported with `zerosum
//! export` and read back, has the same moves and result; `show --file` loads them; bad files
//! get one line naming the file, the line and the problem.

use std::path::Path;

use zerosum_arena::{merge_records, GameRecord};
use zerosum_formats::Format;

use crate::support::{scratch, text, zerosum};

/// The games of the record at `path`, in schedule order, as `zerosum export` reads them.
fn read_records(path: &Path) -> Vec<GameRecord> {
    merge_records(&[path.to_path_buf()]).unwrap().games
}

/// Plays `games` games of random players on `spec`, recorded in `dir/NAME.jsonl`.
fn record(dir: &Path, name: &str, spec: &str, games: usize) -> Vec<GameRecord> {
    let path = dir.join(format!("{name}.jsonl"));
    let output = zerosum(&[
        "match",
        spec,
        "random",
        "random",
        "--games",
        &games.to_string(),
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let records = read_records(&path);
    assert_eq!(records.len(), games);
    records
}

/// Exports the record `name` in `format` and reads every game back, comparing it with the
/// record.
fn round_trip(dir: &Path, name: &str, records: &[GameRecord], format: Format) {
    let out = dir.join(format.name());
    let output = zerosum(&[
        "export",
        dir.join(format!("{name}.jsonl")).to_str().unwrap(),
        "--format",
        format.name(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let pgn = (format == Format::Pgn)
        .then(|| std::fs::read_to_string(out.join(format!("{name}.pgn"))).unwrap());
    let pgn_games: Vec<&str> = pgn
        .as_deref()
        .map(|text| text.split("[Event ").skip(1).collect())
        .unwrap_or_default();
    for (index, record) in records.iter().enumerate() {
        let spec = record.spec.parse().unwrap();
        let file_text = match format {
            Format::Pgn => format!("[Event {}", pgn_games[index]),
            _ => std::fs::read_to_string(out.join(format!(
                "{name}-{}.{}",
                record.game + 1,
                format.name()
            )))
            .unwrap(),
        };
        // Read back without the spec where the file names its game (SGF, PGN), with it (PSQ).
        let given = (format == Format::Psq).then_some(&spec);
        let game = format.read(&file_text, given).unwrap();
        assert_eq!(game.spec, spec, "{file_text}");
        assert_eq!(game.moves, record.moves, "{file_text}");
        assert_eq!(game.result().unwrap(), Some(record.outcome), "{file_text}");
        if format != Format::Sgf {
            assert_eq!(game.move_ms, record.move_ms, "{file_text}");
        }
        if format == Format::Pgn {
            assert_eq!(game.reason.as_deref(), Some(record.reason.as_str()));
            assert_eq!(game.first_name.as_deref(), Some(record.first_name.as_str()));
        }
    }
}

#[test]
fn every_family_round_trips_through_its_formats() {
    let dir = scratch("game_files", "round_trip");
    for (name, spec, formats) in [
        ("mnk", "mnk:9x9x5", &[Format::Psq, Format::Pgn][..]),
        ("connect", "connectx:5x6x4", &[Format::Pgn]),
        ("hex", "hex:5:swap-sides", &[Format::Sgf, Format::Pgn]),
        ("hexpieces", "hex:4:swap-pieces", &[Format::Sgf]),
        ("atoll", "atoll:rhombus4:pie", &[Format::Sgf, Format::Pgn]),
        ("unstable", "unstable:4x4", &[Format::Pgn]),
    ] {
        let records = record(&dir, name, spec, 100);
        for &format in formats {
            round_trip(&dir, name, &records, format);
        }
    }
}

#[test]
fn show_loads_a_position_from_a_file() {
    let dir = scratch("game_files", "show");
    let records = record(&dir, "hex", "hex:5", 2);
    let output = zerosum(&[
        "export",
        dir.join("hex.jsonl").to_str().unwrap(),
        "--format",
        "sgf",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let file = dir.join("hex-1.sgf");
    let output = zerosum(&["show", "hex:5", "--file", file.to_str().unwrap(), "--json"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["moves"], serde_json::json!(records[0].moves));
    // HexGui's own file, swap included.
    let hexgui = dir.join("hexgui.sgf");
    std::fs::write(
        &hexgui,
        "(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[5]\n;B[c3];W[swap-sides];W[b2])\n",
    )
    .unwrap();
    let output = zerosum(&[
        "show",
        "hex:5:swap-sides",
        "--file",
        hexgui.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("moves: c3,swap-sides,b2"));
    // A Piskvork file.
    let psq = dir.join("game.psq");
    std::fs::write(&psq, "Piskvorky 15x15, 11:11, 0\n8,8,100\n9,9,100\n-1\n").unwrap();
    let output = zerosum(&["show", "gomoku", "--file", psq.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("moves: h8,i9"));
}

#[test]
fn bad_files_get_one_line_naming_the_file_and_line() {
    let dir = scratch("game_files", "bad");
    let cases = [
        (
            "a.sgf",
            "hex:5",
            "(;GM[11]SZ[5]\n;B[c3]\n;B[d4])",
            "a.sgf: line 3: move 2 is White's turn",
        ),
        (
            "b.sgf",
            "hex:7",
            "(;GM[11]SZ[5];B[c3])",
            "b.sgf: line 1: the board is 5x5 but hex:7 is 7x7",
        ),
        (
            "c.psq",
            "gomoku",
            "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n",
            "c.psq: line 3: move 2 (h8)",
        ),
        (
            "d.pgn",
            "tictactoe",
            "[Spec \"tictactoe\"]\n\n1. a1 b2 {x} *\n",
            "d.pgn: line 3: `{x}` is not a time",
        ),
        (
            "e.txt",
            "tictactoe",
            "",
            "e.txt: the name must end in .sgf, .psq or .pgn",
        ),
    ];
    for (name, spec, contents, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        let output = zerosum(&["show", spec, "--file", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let stderr = text(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    let missing = zerosum(&[
        "export",
        dir.join("none.jsonl").to_str().unwrap(),
        "--format",
        "pgn",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    let corrupt = dir.join("corrupt.jsonl");
    std::fs::write(
        &corrupt,
        "{\"zerosum_record\":1,\"settings\":{}}\n{\"game\":0}\n",
    )
    .unwrap();
    let output = zerosum(&["export", corrupt.to_str().unwrap(), "--format", "pgn"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("corrupt.jsonl, line 2: not a game record"),
        "{}",
        text(&output.stderr)
    );
    let bad_format = zerosum(&["export", "x.jsonl", "--format", "doc"]);
    assert!(text(&bad_format.stderr).contains("--format must be sgf, psq or pgn"));
    // A record of Connect Four has nothing SGF can hold.
    record(&dir, "connect", "connect4", 1);
    let output = zerosum(&[
        "export",
        dir.join("connect.jsonl").to_str().unwrap(),
        "--format",
        "sgf",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("SGF holds Hex and Atoll games, not connectx:6x7x4"));
}

#[test]
fn match_and_tournament_write_each_game_as_it_finishes() {
    let dir = scratch("game_files", "written_as_played");
    let record = dir.join("hex.jsonl");
    let pgn = dir.join("all.pgn");
    let sgf = dir.join("sgf");
    let output = zerosum(&[
        "match",
        "hex:5",
        "random",
        "random",
        "--games",
        "4",
        "--record",
        record.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
        "--sgfout",
        sgf.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let records = read_records(&record);
    assert_eq!(records.len(), 4);
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let pgn_games: Vec<String> = pgn_text
        .split("[Event ")
        .skip(1)
        .map(|game| format!("[Event {game}"))
        .collect();
    assert_eq!(pgn_games.len(), 4, "{pgn_text}");
    for record in &records {
        let sgf_text =
            std::fs::read_to_string(sgf.join(format!("hex-{}.sgf", record.game + 1))).unwrap();
        let from_sgf = Format::Sgf.read(&sgf_text, None).unwrap();
        assert_eq!(from_sgf.moves, record.moves, "{sgf_text}");
        // The PGN games are in the order they finished: find this one by its moves.
        assert!(
            pgn_games.iter().any(|game| {
                let game = Format::Pgn.read(game, None).unwrap();
                game.moves == record.moves && game.result().unwrap() == Some(record.outcome)
            }),
            "game {} is not in {pgn_text}",
            record.game + 1
        );
    }
    // A tournament on m,n,k writes Piskvork's files.
    let psq = dir.join("psq");
    let output = zerosum(&[
        "tournament",
        "--players",
        "random",
        "quasi",
        "--games",
        "tictactoe",
        "--record",
        dir.join("mnk.jsonl").to_str().unwrap(),
        "--psqout",
        psq.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    for game in 1..=2 {
        assert!(psq.join(format!("mnk-{game}.psq")).is_file());
    }
}

#[test]
fn a_format_that_cannot_hold_the_game_stops_the_run_before_the_first_game() {
    let dir = scratch("game_files", "unheld_format");
    let record = dir.join("c4.jsonl");
    let output = zerosum(&[
        "match",
        "connect4",
        "random",
        "random",
        "--record",
        record.to_str().unwrap(),
        "--sgfout",
        dir.join("sgf").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert_eq!(
        stderr.trim(),
        "error: --sgfout: SGF files hold Hex and Atoll games, not connectx:6x7x4"
    );
    assert!(!record.exists(), "no game was played");
}
