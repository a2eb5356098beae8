//! A tournament run, the one way the command line (`match`, `tournament`, their shards) and the
//! web page play a tournament: started anew ([`Run::start`]: its record created, with a
//! default name under [`RUNS_DIR`] unless given), resumed from its record ([`Run::resume`]: the
//! finished games kept, the others played with the record's settings), or unrecorded
//! ([`Run::unrecorded`], the page's). [`Run::play`] plays the games left (of its shard, if it
//! plays one), writes each finished game to the record and the game files the moment it ends,
//! hands the run's events to a [`RunReport`], and stops a two-player match once its SPRT
//! decides. What a run prints, and how, is its caller's: the library only reports.
//!
//! ```no_run
//! use zerosum_arena::run::{Run, RunOptions, RunReport};
//! use zerosum_arena::{Format, TimeControl, TournamentSettings};
//!
//! struct Quiet;
//! impl RunReport for Quiet {}
//!
//! let players = vec!["quasi".to_string(), "random".to_string()];
//! let games = vec!["tictactoe".to_string()];
//! let settings = TournamentSettings::new(
//!     players,
//!     games,
//!     Format::Match { games: 2 },
//!     TimeControl::per_move(0.1),
//!     7,
//! );
//! let run = Run::start(settings, &RunOptions::default())?;
//! let played = run.play(&mut Quiet)?;
//! assert_eq!(played.records.len(), 2);
//! // Killed before its end, it resumes from its record:
//! Run::resume(played.record.as_deref().unwrap(), &RunOptions::default())?;
//! # Ok::<(), zerosum_arena::run::RunError>(())
//! ```

use std::collections::HashSet;
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use thiserror::Error;
use zerosum_games::GameSpec;

use crate::players::{PlayerKind, PlayerSpec};
use crate::records::game_files::{GameFileOptions, GameFiles, GameFilesError};
use crate::records::record::GameRecord;
use crate::records::record_file::{RecordFileError, RecordWriter};
use crate::shard::Shard;
use crate::statistics::judge::MatchJudge;
use crate::statistics::scoring::Scoring;
use crate::statistics::sprt::{SprtParams, SprtStatus};
use crate::statistics::standings::Standings;
use crate::tournament::settings::{SettingsError, TournamentSettings};
use crate::tournament::{
    GameObserver, PlayerFactory, ScheduleError, ScheduledGame, Tournament, TournamentEvent,
};

/// The folder default records (and their rankings) go to, in the working directory.
pub const RUNS_DIR: &str = "zerosum-runs";

/// Why a run cannot start, resume or go on.
#[derive(Debug, Error)]
pub enum RunError {
    /// The settings cannot be played.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The settings a record holds cannot be played.
    #[error("the settings in {}: {error}", path.display())]
    RecordSettings { path: PathBuf, error: SettingsError },
    /// The record cannot be created, read or written.
    #[error(transparent)]
    Record(#[from] RecordFileError),
    /// A game of the record does not belong to its schedule.
    #[error("{}: {error}", path.display())]
    NotScheduled { path: PathBuf, error: ScheduleError },
    /// A game of a shard's record is not one of its shard (numbered from 1).
    #[error("{}: game {game} is not one of its shard {shard}", path.display())]
    NotOfShard {
        path: PathBuf,
        game: u128,
        shard: Shard,
    },
    /// The game files cannot be written.
    #[error(transparent)]
    GameFiles(#[from] GameFilesError),
    /// The folder of default records cannot be created.
    #[error("cannot create {RUNS_DIR}/")]
    RunsDir(#[source] io::Error),
    /// Every default name of this millisecond is taken.
    #[error("cannot find a free record name {RUNS_DIR}/{stem}-N.jsonl")]
    NoFreeName { stem: String },
    /// A finished game could not be written (the message says why): the run stopped, the
    /// games finished before it are in the record.
    #[error("{0}; the games finished so far are in the record, resume to continue")]
    Unfinished(String),
    /// The ranking next to the record cannot be written.
    #[error("cannot write {}", path.display())]
    Ranking {
        path: PathBuf,
        #[source]
        error: io::Error,
    },
}

/// How a run plays and where its games go.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Games played at once (a new run: 1 when not given; a resumed one: as many as its record
    /// says when not given).
    pub concurrency: Option<usize>,
    /// The record of a new run (else a new file under [`RUNS_DIR`], see [`Run::start`]).
    pub record: Option<PathBuf>,
    /// The label of a new run's default record name (`tournament` when empty).
    pub label: String,
    /// The part of the schedule a new run plays (a resumed run plays its record's).
    pub shard: Option<Shard>,
    /// The game files written as the games finish.
    pub game_files: GameFileOptions,
}

/// What a run tells whoever watches it, on the thread that called [`Run::play`], in the order
/// things happen. Every method does nothing unless implemented.
pub trait RunReport {
    /// Game `game` of `tournament`'s schedule starts.
    fn started(&mut self, _tournament: &Tournament, _game: &ScheduledGame) {}

    /// Game `record` has ended and is written to the record and the game files. `judge` has
    /// counted it (its tally is the match so far, two players only); `status` is the SPRT's
    /// state after it, under an SPRT.
    fn finished(&mut self, _record: &GameRecord, _judge: &MatchJudge, _status: Option<SprtStatus>) {
    }

    /// Whether no further game should start (asked after every event): the games under way
    /// are played out and reported.
    fn stopped(&self) -> bool {
        false
    }
}

/// A tournament ready to play its games left.
pub struct Run {
    settings: TournamentSettings,
    tournament: Tournament,
    scoring: Scoring,
    sprt: Option<SprtParams>,
    /// The record and the game files, when the run is recorded.
    output: Option<(RecordWriter, GameFiles)>,
    /// The games over before this run, in the order they finished.
    played: Vec<GameRecord>,
    shard: Option<Shard>,
    /// Schedule indexes of the games not to play: played, another shard's, or all of them
    /// once the test had decided.
    done: HashSet<usize>,
    /// The games of the run (those of its shard), played or not.
    total: usize,
    judge: MatchJudge,
    /// Whether the record's games had already decided the test.
    decided_before: bool,
    /// What reading the record dropped (a repeated line, an unfinished last one).
    notes: Vec<String>,
}

/// A run played out (or stopped by its SPRT or its report).
pub struct Played {
    /// Every game over, before and during the run, in schedule order.
    pub records: Vec<GameRecord>,
    /// Under an SPRT (not in a shard: the test is the merged shards'), the verdict to print:
    /// the decision when the test reached one, else its state now.
    pub verdict: Option<SprtStatus>,
    /// Whether the test had decided before a resume (no game was then played).
    pub decided_before: bool,
    /// The shard the run played, if it played one.
    pub shard: Option<Shard>,
    /// The record, when the run is recorded.
    pub record: Option<PathBuf>,
}

impl Run {
    /// Checks `settings` for `options.concurrency` games at once (1 if not given) and creates
    /// the record: `options.record` if given, else a new file
    /// `zerosum-runs/zerosum-LABEL-YYYYMMDD-HHMMSS-mmm.jsonl` (`-2`, `-3`... added when another
    /// run took that name; a file is created only if it does not exist, so two runs never
    /// share one). Opens the game files; when they cannot be written, the record of this start
    /// is removed (nothing was played).
    pub fn start(settings: TournamentSettings, options: &RunOptions) -> Result<Run, RunError> {
        let concurrency = options.concurrency.unwrap_or(1);
        let tournament = settings.prepare(concurrency)?;
        let scoring = settings.scoring_scheme()?;
        let sprt = settings.sprt_params()?;
        let games = specs(&settings)?;
        let label = match options.label.as_str() {
            "" => "tournament",
            label => label,
        };
        let writer = create_record(
            options.record.as_deref(),
            label,
            &settings,
            options.shard,
            concurrency,
        )?;
        let path = writer.path().to_path_buf();
        let files = GameFiles::open(&options.game_files, &games, &path).inspect_err(|_| {
            // Nothing was played: the record of this failed start goes.
            let _ = std::fs::remove_file(&path);
        })?;
        let parts = Parts {
            settings,
            tournament,
            scoring,
            sprt,
            output: Some((writer, files)),
            played: Vec::new(),
            shard: options.shard,
            notes: Vec::new(),
        };
        Ok(parts.into_run())
    }

    /// Continues the run of the record at `path`, with its settings and its shard, as many
    /// games at once as `options.concurrency` says (else as the record says, else 1) and the
    /// game files of `options` (its record, label and shard are the record's). Every game of
    /// the record is checked against the schedule (and its shard's part of it) and replayed;
    /// a repeated line or an unfinished last one is dropped with a note ([`Run::notes`]).
    pub fn resume(path: &Path, options: &RunOptions) -> Result<Run, RunError> {
        let (writer, contents) = RecordWriter::resume::<TournamentSettings>(path)?;
        let settings = contents.settings;
        let concurrency = options.concurrency.or(contents.concurrency).unwrap_or(1);
        let tournament =
            settings
                .prepare(concurrency)
                .map_err(|error| RunError::RecordSettings {
                    path: path.to_path_buf(),
                    error,
                })?;
        let scoring = settings.scoring_scheme()?;
        let sprt = settings.sprt_params()?;
        for record in &contents.games {
            tournament
                .check_played(record)
                .map_err(|error| RunError::NotScheduled {
                    path: path.to_path_buf(),
                    error,
                })?;
        }
        if let Some(shard) = contents.shard {
            let ours = tournament.shard_games(shard);
            if let Some(record) =
                (contents.games.iter()).find(|record| !ours.contains(&record.game))
            {
                return Err(RunError::NotOfShard {
                    path: path.to_path_buf(),
                    game: record.game as u128 + 1,
                    shard,
                });
            }
        }
        let files = GameFiles::open(&options.game_files, &specs(&settings)?, path)?;
        let parts = Parts {
            settings,
            tournament,
            scoring,
            sprt,
            output: Some((writer, files)),
            played: contents.games,
            shard: contents.shard,
            notes: contents.notes,
        };
        Ok(parts.into_run())
    }

    /// A run of `settings`, checked for `concurrency` games at once, that writes no record and
    /// no game file (the page's tournaments: watched, not kept).
    pub fn unrecorded(settings: TournamentSettings, concurrency: usize) -> Result<Run, RunError> {
        let tournament = settings.prepare(concurrency)?;
        let scoring = settings.scoring_scheme()?;
        let sprt = settings.sprt_params()?;
        let parts = Parts {
            settings,
            tournament,
            scoring,
            sprt,
            output: None,
            played: Vec::new(),
            shard: None,
            notes: Vec::new(),
        };
        Ok(parts.into_run())
    }

    /// The settings the run plays (a resumed run's: its record's).
    pub fn settings(&self) -> &TournamentSettings {
        &self.settings
    }

    /// The tournament: its entrants and its whole schedule.
    pub fn tournament(&self) -> &Tournament {
        &self.tournament
    }

    /// The entrants' names, indexed as the records' players.
    pub fn names(&self) -> Vec<String> {
        self.tournament
            .entrants
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }

    /// The scoring scheme of the settings.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The SPRT of the settings, if any.
    pub fn sprt(&self) -> Option<SprtParams> {
        self.sprt
    }

    /// The games over before this run (a resumed run's), in the order they finished.
    pub fn played(&self) -> &[GameRecord] {
        &self.played
    }

    /// The shard the run plays, if it plays one.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// How many games the run holds (its shard's, if it plays one), played or not.
    pub fn total(&self) -> usize {
        self.total
    }

    /// What reading a resumed run's record dropped (a repeated line, an unfinished last one).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The record, when the run is recorded.
    pub fn record(&self) -> Option<&Path> {
        self.output.as_ref().map(|(writer, _)| writer.path())
    }

    /// Seats the player `factory` builds (one per game) at entrant `index` (from 0), whose
    /// spec in the settings must be a guest (`guest`, `guest:name=NAME`): a player the program
    /// running the tournament brings itself, such as a Python function. The record keeps the
    /// guest's spec; resumed elsewhere, an empty guest seat forfeits its games.
    pub fn seat_guest(&mut self, index: usize, factory: PlayerFactory) -> Result<(), RunError> {
        let spec = self.settings.players.get(index).ok_or_else(|| {
            SettingsError(format!(
                "no player {} to seat: the tournament has {}",
                index + 1,
                self.settings.players.len()
            ))
        })?;
        let kind = spec.parse::<PlayerSpec>().map(|spec| spec.kind);
        if kind != Ok(PlayerKind::Guest) {
            return Err(SettingsError(format!(
                "player {} (`{spec}`) is not a guest seat",
                index + 1
            ))
            .into());
        }
        self.tournament.entrants[index].factory = factory;
        Ok(())
    }

    /// Sets the hook that watches every game's start and moves ([`Tournament::observer`]),
    /// called on the thread that plays the game.
    pub fn observe(&mut self, observer: GameObserver) {
        self.tournament.observer = Some(observer);
    }

    /// Plays the games left, in schedule order, as many at once as the run's concurrency, and
    /// tells `report` of each start and each finished game (written first to the record and
    /// the game files). No further game starts once `report` says it has stopped, or once the
    /// SPRT of a two-player match decides (a run whose record had decided the test plays
    /// nothing); the games under way are played out. A game that cannot be written stops the
    /// run ([`RunError::Unfinished`]) with the games before it in the record.
    pub fn play(self, report: &mut dyn RunReport) -> Result<Played, RunError> {
        let Run {
            tournament,
            mut output,
            mut played,
            shard,
            done,
            mut judge,
            decided_before,
            ..
        } = self;
        let mut failure = None;
        tournament.run(&done, |event| {
            let record = match event {
                TournamentEvent::Started(scheduled) => {
                    report.started(&tournament, scheduled);
                    return stop_if(report.stopped());
                }
                TournamentEvent::Finished(record) => record,
            };
            if let Some((writer, files)) = &mut output {
                let written = (writer.append(&record).map_err(RunError::from))
                    .and_then(|()| files.write(&record).map_err(RunError::from));
                if let Err(error) = written {
                    failure = Some(error);
                    return ControlFlow::Break(());
                }
            }
            let status = judge.add(&record);
            report.finished(&record, &judge, status);
            played.push(*record);
            stop_if(judge.decided.is_some() || report.stopped())
        });
        if let Some(error) = failure {
            return Err(RunError::Unfinished(error.to_string()));
        }
        played.sort_by_key(|record| record.game);
        Ok(Played {
            records: played,
            verdict: judge.verdict(),
            decided_before,
            shard,
            record: output.map(|(writer, _)| writer.path().to_path_buf()),
        })
    }
}

/// What a run is made of, before its schedule is cut to its shard and its judge has counted
/// the games already played.
struct Parts {
    settings: TournamentSettings,
    tournament: Tournament,
    scoring: Scoring,
    sprt: Option<SprtParams>,
    output: Option<(RecordWriter, GameFiles)>,
    played: Vec<GameRecord>,
    shard: Option<Shard>,
    notes: Vec<String>,
}

impl Parts {
    /// The run: its games to play (its shard's, the played ones left out) and the SPRT's state
    /// after the games played (a test that had decided plays nothing more). A shard plays all
    /// its games: the test is the merged shards'.
    fn into_run(self) -> Run {
        let Parts {
            settings,
            tournament,
            scoring,
            sprt,
            output,
            played,
            shard,
            notes,
        } = self;
        let mut done: HashSet<usize> = played.iter().map(|record| record.game).collect();
        let mut total = tournament.games.len();
        if let Some(shard) = shard {
            let ours = tournament.shard_games(shard);
            done.extend((0..total).filter(|game| !ours.contains(game)));
            total = ours.len();
        }
        // The match so far, game by game in the order they finished (the record's order).
        let names = tournament.entrants.len();
        let mut judge = MatchJudge::new(names, sprt.filter(|_| shard.is_none()), scoring);
        for record in &played {
            judge.add(record);
        }
        let decided_before = judge.decided.is_some();
        if decided_before {
            // The test had decided: the games not played are not played now.
            done.extend(tournament.games.iter().map(|game| game.game));
        }
        Run {
            settings,
            tournament,
            scoring,
            sprt,
            output,
            played,
            shard,
            done,
            total,
            judge,
            decided_before,
            notes,
        }
    }
}

fn stop_if(stop: bool) -> ControlFlow<()> {
    if stop {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The game specs of `settings`.
fn specs(settings: &TournamentSettings) -> Result<Vec<GameSpec>, SettingsError> {
    (settings.games.iter())
        .map(|spec| spec.parse().map_err(|e| SettingsError(format!("{e}"))))
        .collect()
}

/// Creates the record of a new run (see [`Run::start`]).
fn create_record(
    path: Option<&Path>,
    label: &str,
    settings: &TournamentSettings,
    shard: Option<Shard>,
    concurrency: usize,
) -> Result<RecordWriter, RunError> {
    let concurrency = Some(concurrency);
    if let Some(path) = path {
        return Ok(RecordWriter::create(path, settings, shard, concurrency)?);
    }
    std::fs::create_dir_all(RUNS_DIR).map_err(RunError::RunsDir)?;
    let stem = format!("zerosum-{label}-{}", timestamp());
    for attempt in 1..=1000 {
        let name = match attempt {
            1 => format!("{stem}.jsonl"),
            n => format!("{stem}-{n}.jsonl"),
        };
        let path = Path::new(RUNS_DIR).join(name);
        match RecordWriter::create(&path, settings, shard, concurrency) {
            Err(RecordFileError::Exists(_)) => continue,
            created => return Ok(created?),
        }
    }
    Err(RunError::NoFreeName { stem })
}

/// Writes the ranking of `standings` (points alone, as the course tournaments publish them)
/// next to the record `record`, as `RECORD.ranking.txt`; returns its path.
pub fn write_ranking(record: &Path, standings: &Standings) -> Result<PathBuf, RunError> {
    let path = record.with_extension("ranking.txt");
    match std::fs::write(&path, standings.course_ranking()) {
        Ok(()) => Ok(path),
        Err(error) => Err(RunError::Ranking { path, error }),
    }
}

/// A seed from the clock, for runs given none.
pub fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}

/// `YYYYMMDD-HHMMSS-mmm` in UTC (to the millisecond), for default file names.
pub fn timestamp() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = now.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}-{:03}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        now.subsec_millis()
    )
}
