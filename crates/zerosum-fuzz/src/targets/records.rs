//! Tournament records (zerosum-arena `record`, `record_file`): one game line, and a whole
//! record file read for `--resume`, with the standings and schedule computed from it.

use std::fs;
use std::path::{Path, PathBuf};

use zerosum_arena::records::record_file::RecordWriter;
use zerosum_arena::{GameRecord, MatchSummary, Scoring, Standings, TournamentSettings};

use super::{corpus_of, Target, Verdict};

const HEADER: &str = r#"{"zerosum_record":1,"settings":{"players":["quasi","random"],"games":["tictactoe","connect4"],"format":{"round_robin":{"rounds":1}},"time":{"per_move":{"secs":1,"nanos":0},"base":null,"increment":{"secs":0,"nanos":0},"margin":{"secs":0,"nanos":50000000},"first_move_grace":{"secs":0,"nanos":0},"watchdog":{"secs":60,"nanos":0}},"max_moves":null,"adjudicate_nodes":null,"scoring":"cx","sprt":null,"seed":7}}"#;

const GAME: &str = r#"{"game":0,"round":0,"pair":0,"spec":"mnk:3x3x3","first":0,"second":1,"first_name":"quasi","second_name":"random","moves":["b2","a1","c3"],"move_ms":[1,0,2],"outcome":"first","termination":"normal","reason":"first player completes a line","seed":11}"#;

const GAME_2: &str = r#"{"game":1,"round":0,"pair":0,"spec":"connectx:6x7x4","first":1,"second":0,"first_name":"random","second_name":"quasi","moves":["4"],"move_ms":[1],"outcome":"draw","termination":"time_forfeit","reason":"second player timed out: answered after 1.31 s, limit 1.00 s","seed":12}"#;

const TOKENS: &[&str] = &[
    r#""game""#,
    r#""round""#,
    r#""pair""#,
    r#""first""#,
    r#""second""#,
    r#""draw""#,
    r#""outcome""#,
    r#""termination""#,
    r#""normal""#,
    r#""time_forfeit""#,
    r#""illegal_move""#,
    r#""crash""#,
    r#""adjudication""#,
    r#""moves""#,
    r#""move_ms""#,
    r#""rounds""#,
    r#""match""#,
    r#""games""#,
    r#""players""#,
    "null",
    "[]",
    "{}",
    "\n",
];

/// One game line.
pub const RECORD_LINE: Target = Target {
    name: "record-line",
    about:
        "a record's game line (zerosum-arena GameRecord); an accepted line prints back to itself",
    corpus: || corpus_of(&[GAME, GAME_2]),
    tokens: TOKENS,
    share: 1,
    run: |input| {
        let record = serde_json::from_slice::<GameRecord>(input);
        if let Ok(record) = &record {
            let _ = (
                record.result_text(),
                record.winner(),
                record.finished_line(),
            );
            let printed = serde_json::to_string(record).expect("a record prints");
            let again: GameRecord = serde_json::from_str(&printed).expect("a printed record reads");
            assert_eq!(&again, record, "the record prints as `{printed}`");
            let names = ["a", "b", "c"];
            let records = std::slice::from_ref(record);
            let _ = Standings::compute(&names, records, Scoring::Cx);
            let _ = MatchSummary::compute(&names[..2], records, Scoring::Mnk);
            // As every reader of records checks a game: its moves replayed.
            if let Ok(spec) = record.spec.parse() {
                let _ = record.check_moves(&spec, &[]);
            }
        }
        Verdict::of(&record)
    },
};

/// A record file, resumed.
pub const RECORD_FILE: Target = Target {
    name: "record-file",
    about: "a record file read for --resume (RecordWriter::resume), its settings checked and its games scored",
    corpus: || {
        corpus_of(&[
            &format!("{HEADER}\n{GAME}\n{GAME_2}\n"),
            &format!("{HEADER}\n{GAME}\n{GAME_2}"),
            // The header as it is written now: with the games played at once.
            &format!(
                "{}\n{GAME}\n",
                HEADER.replacen(r#""zerosum_record":1,"#, r#""zerosum_record":1,"concurrency":2,"#, 1)
            ),
            &format!("{HEADER}\n"),
            &format!("{HEADER}\n\n{GAME}\n{GAME}\n"),
            &format!("{HEADER}\n{}\n", scheduled_game()),
        ])
    },
    tokens: TOKENS,
    share: 1,
    run: |input| {
        let path = scratch_file("record.jsonl");
        fs::write(&path, input).expect("a scratch file");
        let resumed = RecordWriter::resume::<TournamentSettings>(&path);
        if let Ok((_, contents)) = &resumed {
            let settings = &contents.settings;
            let _ = settings.scoring_scheme();
            let _ = settings.sprt_params();
            // Java players are checked by starting a JDK: not a parser's business.
            if !settings.players.iter().any(|p| p.trim().starts_with("java:")) {
                // As --resume does: the record's games at once, checked by `prepare`, each
                // game checked against the schedule and replayed.
                if let Ok(tournament) = settings.prepare(contents.concurrency.unwrap_or(1)) {
                    for record in &contents.games {
                        let _ = tournament.check_played(record);
                    }
                }
            }
            let _ = Standings::compute(&settings.players, &contents.games, Scoring::Cx);
            let _ = MatchSummary::compute(&settings.players, &contents.games, Scoring::Mnk);
        }
        let _ = fs::remove_file(&path);
        Verdict::of(&resumed)
    },
};

/// Game 0 of the schedule of [`HEADER`], as its record line: a legal game to its end, so
/// that the input reaches the replay of its moves.
fn scheduled_game() -> String {
    let header: serde_json::Value = serde_json::from_str(HEADER).expect("a header");
    let settings: TournamentSettings =
        serde_json::from_value(header["settings"].clone()).expect("settings");
    let tournament = settings.prepare_for_records().expect("a tournament");
    let scheduled = &tournament.games[0];
    let record = GameRecord {
        game: 0,
        round: scheduled.round,
        pair: scheduled.pair,
        spec: scheduled.spec.to_string(),
        first: scheduled.first,
        second: scheduled.second,
        first_name: "quasi".into(),
        second_name: "random".into(),
        moves: ["a1", "a2", "b1", "b2", "c1"].map(String::from).to_vec(),
        move_ms: vec![1; 5],
        outcome: zerosum_core::Outcome::Win(zerosum_core::Side::First),
        termination: zerosum_arena::Termination::Normal,
        reason: "first player completes a line".into(),
        seed: scheduled.seed,
        opening: None,
    };
    serde_json::to_string(&record).expect("a record prints")
}

/// A file of this process's own in memory (`/dev/shm`) where there is such a place, else in
/// the temporary directory.
pub(super) fn scratch_file(name: &str) -> PathBuf {
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("zerosum-fuzz-{}-{name}", std::process::id()))
}
