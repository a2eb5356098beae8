//! `zerosum tournament` and `zerosum match`: the arena on the command line (`play` has its
//! own module).

use std::collections::HashSet;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use zerosum_arena::clock::{parse_clock, parse_seconds};
use zerosum_arena::{
    preset, EngineList, Format, GameRecord, OpeningOrder, OpeningSettings, Openings,
    RecordFileError, RecordWriter, Scoring, Shard, SprtParams, TimeControl, Tournament,
    TournamentEvent, TournamentSettings, PRESETS,
};

use zerosum_core::TimeBudget;
use zerosum_games::GameSpec;
use zerosum_web::TournamentFeed;

use super::game_output::{GameOutput, GameOutputArgs};
use super::parse_spec;
use super::results::{print_standings, MatchJudge};
use super::under_way::UnderWay;

/// The time control options shared by `play`, `match` and `tournament`.
#[derive(Args, Debug)]
pub struct TimeArgs {
    /// Seconds per move (the default: 1, or the preset's).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    st: Option<String>,
    /// Game clock, as cutechess spells it: BASE+INC seconds (60+0.6), MIN:SEC+INC (1:00+1) or
    /// MOVES/TIME[+INC], the time given again every MOVES moves (40/60).
    #[arg(long, value_name = "[MOVES/]TIME[+INC]")]
    tc: Option<String>,
    /// Lateness forgiven on every move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = TimeBudget::REFEREE_MARGIN.as_millis() as u64)]
    timemargin: u64,
    /// Extra seconds on each player's first move.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "0",
        allow_negative_numbers = true
    )]
    first_move_grace: String,
    /// Seconds the referee waits for an untimed or late player before giving up on it.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "60",
        allow_negative_numbers = true
    )]
    watchdog: String,
}

impl TimeArgs {
    /// The time control, with `default_st` seconds per move when neither --st nor --tc is given.
    pub fn control(&self, default_st: f64) -> Result<TimeControl> {
        let per_move = match (&self.st, &self.tc) {
            (Some(st), _) => Some(parse_seconds(st, "--st")?),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs_f64(default_st)),
        };
        let clock = self
            .tc
            .as_deref()
            .map(parse_clock)
            .transpose()
            .context("--tc")?;
        let control = TimeControl {
            per_move,
            base: clock.map(|c| c.base),
            increment: clock.map_or(Duration::ZERO, |c| c.increment),
            moves_per_period: clock.and_then(|c| c.moves),
            margin: Duration::from_millis(self.timemargin.min(3_600_000)),
            first_move_grace: parse_seconds(&self.first_move_grace, "--first-move-grace")?,
            watchdog: parse_seconds(&self.watchdog, "--watchdog")?,
        };
        control.validate()?;
        Ok(control)
    }
}

/// Options of `zerosum tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// A ready-made tournament: quick (the default when no --games), cx-course,
    /// cx-course-alt, mnk-course.
    #[arg(long)]
    preset: Option<String>,
    /// Players: random, quasi, engine[:time=S,depth=D,nodes=N,hash=MB,algo=A,threads=N],
    /// human, cmd=PROGRAM,proto=gtp|gomocup[,init=CMD;CMD,margin=MS] (values may be quoted),
    /// java:CLASS,cp=PATH (a course MNKPlayer or CXPlayer); each with an optional name=.
    #[arg(long, num_args = 1.., value_name = "PLAYER")]
    players: Vec<String>,
    /// Game specs, comma-separated or repeated (e.g. connect4,tictactoe,hex:7).
    #[arg(long, num_args = 1.., value_delimiter = ',', value_name = "SPEC")]
    games: Vec<String>,
    /// Times each pair plays each configuration in both colours.
    #[arg(long)]
    rounds: Option<usize>,
    /// A gauntlet: the first player against each other player (not every pair), as
    /// cutechess's `-tournament gauntlet`.
    #[arg(long)]
    gauntlet: bool,
    #[command(flatten)]
    common: CommonArgs,
    /// Continue the tournament of this record file: finished games are kept, the others
    /// played; its settings are those the record was started with.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["preset", "players", "games", "rounds", "gauntlet", "scoring", "sprt", "seed", "record", "maxmoves", "adjudicate_nodes", "engines", "st", "tc", "openings", "shard"])]
    resume: Option<PathBuf>,
    /// Also serve the page on this machine, where a browser watches the tournament live
    /// (standings, crosstable and the game under way, move by move).
    #[arg(long)]
    serve: bool,
    /// The port of --serve (0 picks a free one).
    #[arg(long, default_value_t = 8080, requires = "serve")]
    port: u16,
}

/// Options of `zerosum match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Game spec.
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    spec: Option<String>,
    /// The first player (first in odd-numbered games).
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    player1: Option<String>,
    /// The second player.
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    player2: Option<String>,
    /// Number of games, colours alternating.
    #[arg(long, default_value_t = 2)]
    games: usize,
    #[command(flatten)]
    common: CommonArgs,
    /// Continue the match of this record file (its game, players and settings are those
    /// the record was started with).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scoring", "sprt", "seed", "record", "maxmoves", "adjudicate_nodes", "engines", "st", "tc", "openings", "shard"])]
    resume: Option<PathBuf>,
}

/// Options `match` and `tournament` share.
#[derive(Args, Debug)]
pub struct CommonArgs {
    #[command(flatten)]
    time: TimeArgs,
    /// Scoring: cx (win 3, draw 1, forfeit 3 to the opponent) or mnk (win as first 2, as
    /// second 3, by forfeit 2, draw 1).
    #[arg(long)]
    scoring: Option<String>,
    /// Stop a two-player match once the test decides: elo0=0,elo1=5,alpha=0.05,beta=0.05
    /// (logistic Elo, the scale of the Elo column; pentanomial: the games are played and counted
    /// in colour-swapped pairs). The match ends with a verdict line.
    #[arg(long)]
    sprt: Option<String>,
    /// Adjudicate a draw after this many moves.
    #[arg(long)]
    maxmoves: Option<usize>,
    /// End a game as soon as an exact solver proves its result within this many nodes per
    /// position (e.g. 200000).
    #[arg(long, value_name = "NODES")]
    adjudicate_nodes: Option<u64>,
    /// Seed of the players' randomness (default: from the clock; printed, and kept in the
    /// record).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default 1; a resumed run plays as many as its record says).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Play only shard K of N (K from 0 to N-1, as Slurm numbers array tasks): whole
    /// colour-swapped pairs, the shards balanced by expected time; needs --seed. `zerosum
    /// merge` reads the shards' records as one tournament.
    #[arg(long, value_name = "K/N", requires = "seed")]
    shard: Option<Shard>,
    /// A JSON file of external engines to name as players:
    /// {"engines": [{"name": "mybot", "cmd": "/path/to/mybot", "proto": "gtp"}]}.
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// The JSON-lines record to write (default: a new
    /// zerosum-runs/zerosum-<kind>-<date>-<time>-<ms>.jsonl), its ranking next to it.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// An opening suite (`zerosum openings` writes them): one move list per line; each pair of
    /// games starts from one opening, played twice with colours swapped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order the pairs take the openings in: random (shuffled by the seed) or sequential.
    #[arg(
        long,
        value_name = "ORDER",
        requires = "openings",
        default_value = "random"
    )]
    order: String,
    /// Play only the first N moves of each opening.
    #[arg(long, value_name = "N", requires = "openings")]
    plies: Option<usize>,
    #[command(flatten)]
    output: GameOutputArgs,
}

impl CommonArgs {
    /// The settings of `players` over `games` as `format` under `time`, with the move limit,
    /// adjudication, SPRT and seed (the clock's when not given) of these options.
    fn settings(
        &self,
        players: Vec<String>,
        games: Vec<String>,
        format: Format,
        time: TimeControl,
    ) -> TournamentSettings {
        let seed = self.seed.unwrap_or_else(clock_seed);
        TournamentSettings::new(players, games, format, time, seed)
            .max_moves(self.maxmoves)
            .adjudicate_nodes(self.adjudicate_nodes)
            .sprt(self.sprt.clone())
    }

    /// The opening suite of --openings, --order and --plies, its file read and checked for
    /// `games` (one game spec).
    fn openings(&self, games: &[String]) -> Result<Option<OpeningSettings>> {
        let Some(path) = &self.openings else {
            return Ok(None);
        };
        let order: OpeningOrder = self.order.parse().map_err(|e: String| anyhow!(e))?;
        let [spec] = games else {
            bail!(
                "--openings is for one game, but the tournament plays {}",
                games.len()
            );
        };
        let (_, checksum) = Openings::load(path, &parse_spec(spec)?, self.plies)?;
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        Ok(Some(OpeningSettings {
            file: file.display().to_string(),
            order,
            plies: self.plies,
            checksum,
        }))
    }
}

/// `zerosum tournament`.
pub fn tournament(args: &TournamentArgs) -> Result<()> {
    if let Some(path) = &args.resume {
        return resume(path, &args.common, args.serve.then_some(args.port));
    }
    let (settings, label) = tournament_settings(args)?;
    start(
        settings,
        &args.common,
        label,
        args.serve.then_some(args.port),
    )
}

/// The settings of a new tournament, and the label of its record's default name.
fn tournament_settings(args: &TournamentArgs) -> Result<(TournamentSettings, &'static str)> {
    let chosen = match (&args.preset, args.games.is_empty()) {
        (Some(name), _) => Some(preset(name).ok_or_else(|| {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            anyhow!("unknown preset `{name}` (expected {})", names.join(", "))
        })?),
        (None, true) => preset("quick"),
        (None, false) => None,
    };
    let games = if args.games.is_empty() {
        chosen.map(|p| p.games().into_iter().map(String::from).collect())
    } else {
        None
    }
    .unwrap_or_else(|| args.games.clone());
    let engines = engine_list(&args.common)?;
    let players = if args.players.is_empty() {
        chosen
            .map(|p| p.players.iter().map(|s| s.to_string()).collect())
            .unwrap_or_else(|| vec!["engine".to_string(), "quasi".to_string()])
    } else {
        args.players.iter().map(|p| engines.resolve(p)).collect()
    };
    let rounds = args.rounds.or(chosen.map(|p| p.rounds)).unwrap_or(1);
    let format = if args.gauntlet {
        Format::Gauntlet { rounds }
    } else {
        Format::RoundRobin { rounds }
    };
    let time = (args.common.time).control(chosen.map_or(1.0, |p| p.seconds_per_move))?;
    let scoring = (args.common.scoring.clone())
        .or(chosen.map(|p| p.scoring.to_string()))
        .unwrap_or_else(|| "cx".into());
    let openings = args.common.openings(&games)?;
    let settings = args
        .common
        .settings(players, games, format, time)
        .scoring(scoring)
        .openings(openings);
    Ok((settings, chosen.map_or("tournament", |p| p.name)))
}

/// `zerosum match`.
pub fn play_match(args: &MatchArgs) -> Result<()> {
    if let Some(path) = &args.resume {
        return resume(path, &args.common, None);
    }
    start(match_settings(args)?, &args.common, "match", None)
}

/// The settings of a new match.
fn match_settings(args: &MatchArgs) -> Result<TournamentSettings> {
    // The command line has them unless it resumes (see `MatchArgs`).
    let (Some(spec), Some(player1), Some(player2)) = (&args.spec, &args.player1, &args.player2)
    else {
        bail!("a new match needs a game spec and two players");
    };
    let engines = engine_list(&args.common)?;
    let players = vec![engines.resolve(player1), engines.resolve(player2)];
    let games = vec![parse_spec(spec)?.to_string()];
    let format = Format::Match { games: args.games };
    let time = args.common.time.control(1.0)?;
    let openings = args.common.openings(&games)?;
    let mut settings = args.common.settings(players, games, format, time);
    if let Some(scoring) = &args.common.scoring {
        settings = settings.scoring(scoring.clone());
    }
    Ok(settings.openings(openings))
}

/// A `tournament` or `match` command line, as `zerosum slurm` runs it in shards.
#[derive(clap::Parser)]
#[command(name = "zerosum")]
enum ShardedRun {
    Tournament(TournamentArgs),
    Match(MatchArgs),
}

/// What `zerosum slurm` needs to know of the `tournament` or `match` command line it shards.
pub struct ShardPlan {
    /// The settings it starts, checked as its start checks them.
    pub settings: TournamentSettings,
    /// Its --concurrency.
    pub concurrency: usize,
    /// Whether it gave --seed (else the seed of `settings` is the clock's, and every shard
    /// must be given it).
    pub seeded: bool,
}

/// Reads and checks `args` (`tournament ...` or `match ...`, without the program's name) for
/// shards: refused with --resume, --record, --shard or --serve (the shards' records and numbers
/// are set for them) and with game files (export them from the merged record).
pub fn shard_plan(args: &[String]) -> Result<ShardPlan> {
    let run = <ShardedRun as clap::Parser>::try_parse_from(
        std::iter::once("zerosum".to_string()).chain(args.iter().cloned()),
    )
    .map_err(|error| {
        let text = error.to_string();
        anyhow!(
            "{}",
            text.lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
        )
    })?;
    let (settings, common, resume, serve) = match &run {
        ShardedRun::Tournament(args) => (
            tournament_settings(args)?.0,
            &args.common,
            &args.resume,
            args.serve,
        ),
        ShardedRun::Match(args) => (match_settings(args)?, &args.common, &args.resume, false),
    };
    let output = &common.output;
    let refused = [
        (resume.is_some(), "--resume"),
        (common.record.is_some(), "--record"),
        (common.shard.is_some(), "--shard"),
        (serve, "--serve"),
        (output.is_set(), "--pgnout, --sgfout and --psqout"),
    ];
    if let Some((_, option)) = refused.iter().find(|(given, _)| *given) {
        bail!(
            "{option}: not for a sharded run (each shard gets its record and resumes it; write \
             game files from the merged record with `zerosum export`)"
        );
    }
    let concurrency = common.concurrency.unwrap_or(1);
    settings.prepare(concurrency)?;
    Ok(ShardPlan {
        seeded: common.seed.is_some(),
        concurrency,
        settings,
    })
}

/// The engine list of --engines, or an empty one.
fn engine_list(common: &CommonArgs) -> Result<EngineList> {
    Ok(match &common.engines {
        Some(path) => EngineList::load(path)?,
        None => EngineList::default(),
    })
}

/// A seed from the clock, for runs given none.
pub(super) fn clock_seed() -> u64 {
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

/// The folder default records (and their rankings) go to, in the working directory.
pub const RUNS_DIR: &str = "zerosum-runs";

/// Creates the record of a new run: `path` if given, else a new file
/// `zerosum-runs/zerosum-LABEL-YYYYMMDD-HHMMSS-mmm.jsonl`, with `-2`, `-3`... added when another
/// run took that name (the file is created only if it does not exist, so two runs never share
/// one).
fn create_record(
    path: Option<&Path>,
    label: &str,
    settings: &TournamentSettings,
    shard: Option<Shard>,
    concurrency: usize,
) -> Result<RecordWriter> {
    let concurrency = Some(concurrency);
    if let Some(path) = path {
        return Ok(RecordWriter::create(path, settings, shard, concurrency)?);
    }
    std::fs::create_dir_all(RUNS_DIR).with_context(|| format!("cannot create {RUNS_DIR}/"))?;
    let stem = format!("zerosum-{label}-{}", timestamp());
    for attempt in 1..=1000 {
        let name = match attempt {
            1 => format!("{stem}.jsonl"),
            n => format!("{stem}-{n}.jsonl"),
        };
        match RecordWriter::create(
            &Path::new(RUNS_DIR).join(name),
            settings,
            shard,
            concurrency,
        ) {
            Err(RecordFileError::Exists(_)) => continue,
            created => return Ok(created?),
        }
    }
    bail!("cannot find a free record name {RUNS_DIR}/{stem}-N.jsonl")
}

/// Checks the settings, creates the record and runs, serving the page on `serve`'s port if
/// given.
fn start(
    settings: TournamentSettings,
    common: &CommonArgs,
    label: &str,
    serve: Option<u16>,
) -> Result<()> {
    let concurrency = common.concurrency.unwrap_or(1);
    let mut tournament = settings.prepare(concurrency)?;
    let scoring = settings.scoring_scheme()?;
    let sprt = settings.sprt_params()?;
    let games = specs(&settings)?;
    let writer = create_record(
        common.record.as_deref(),
        label,
        &settings,
        common.shard,
        concurrency,
    )?;
    let path = writer.path().to_path_buf();
    let output = GameOutput::open(&common.output, &games, &path).inspect_err(|_| {
        // Nothing was played: the record of this failed start goes.
        let _ = std::fs::remove_file(&path);
    })?;
    errln!(
        "{} games, {} players, {}, seed {}; record {} (resume with --resume {})",
        tournament.games.len(),
        tournament.entrants.len(),
        settings.time,
        settings.seed,
        path.display(),
        path.display()
    );
    let feed = serve
        .map(|port| serve_tournament(&settings, &mut tournament, scoring, &[], port))
        .transpose()?;
    run(
        &mut tournament,
        (scoring, sprt),
        (writer, output),
        Vec::new(),
        feed,
        common.shard,
    )
}

/// Continues the tournament a record file holds (with the game files of `common`, and its
/// concurrency if given, else the record's), serving the page on `serve`'s port if given.
fn resume(path: &Path, common: &CommonArgs, serve: Option<u16>) -> Result<()> {
    let (writer, contents) = RecordWriter::resume::<TournamentSettings>(path)?;
    let settings = contents.settings;
    let concurrency = common.concurrency.or(contents.concurrency).unwrap_or(1);
    let mut tournament = settings
        .prepare(concurrency)
        .with_context(|| format!("the settings in {}", path.display()))?;
    let scoring = settings.scoring_scheme()?;
    let sprt = settings.sprt_params()?;
    for record in &contents.games {
        tournament
            .check_played(record)
            .map_err(|error| anyhow!("{}: {error}", path.display()))?;
    }
    for note in &contents.notes {
        errln!("warning: {}: {note}", path.display());
    }
    errln!(
        "resuming {}: {} of {} games already played; {concurrency} at a time",
        path.display(),
        contents.games.len(),
        tournament.games.len()
    );
    let feed = serve
        .map(|port| serve_tournament(&settings, &mut tournament, scoring, &contents.games, port))
        .transpose()?;
    let output = GameOutput::open(&common.output, &specs(&settings)?, path)?;
    run(
        &mut tournament,
        (scoring, sprt),
        (writer, output),
        contents.games,
        feed,
        contents.shard,
    )
}

/// The game specs of `settings`.
fn specs(settings: &TournamentSettings) -> Result<Vec<GameSpec>> {
    settings.games.iter().map(|spec| parse_spec(spec)).collect()
}

/// Serves the page on `port`, showing `tournament` (of which `played` are over) live: the
/// feed it shows and its address.
fn serve_tournament(
    settings: &TournamentSettings,
    tournament: &mut Tournament,
    scoring: Scoring,
    played: &[GameRecord],
    port: u16,
) -> Result<(TournamentFeed, String)> {
    let names = tournament.entrants.iter().map(|e| e.name.clone()).collect();
    let feed = TournamentFeed::new(
        names,
        scoring,
        tournament.games.len(),
        &settings.time,
        played.to_vec(),
    );
    tournament.observer = Some(feed.observer());
    let url = super::web::serve_in_background(feed.clone(), port)?;
    Ok((feed, url))
}

/// Plays what is left (of `shard`, if given), printing each finished game and writing it to
/// the record and the game files of `output`, and prints the standings; under an SPRT,
/// stops once the test decides (a record whose test had decided plays nothing more) and always
/// ends with the verdict line. A shard plays all its games: the test is the merged shards'.
/// With a page (`--serve`: its feed and address), keeps serving the final standings until
/// Ctrl-C. A game that goes on for long gets a line on standard error ([`UnderWay`]).
fn run(
    tournament: &mut Tournament,
    (scoring, sprt): (Scoring, Option<SprtParams>),
    (mut writer, output): (RecordWriter, GameOutput),
    mut records: Vec<GameRecord>,
    page: Option<(TournamentFeed, String)>,
    shard: Option<Shard>,
) -> Result<()> {
    let (feed, page_url) = page.unzip();
    let names: Vec<String> = tournament.entrants.iter().map(|e| e.name.clone()).collect();
    let mut done: HashSet<usize> = records.iter().map(|r| r.game).collect();
    let mut total = tournament.games.len();
    if let Some(shard) = shard {
        let ours = tournament.shard_games(shard);
        if let Some(record) = records.iter().find(|r| !ours.contains(&r.game)) {
            bail!(
                "{}: game {} is not one of its shard {shard}",
                writer.path().display(),
                record.game + 1
            );
        }
        errln!(
            "shard {shard}: {} of the {total} games of the schedule",
            ours.len()
        );
        done.extend((0..total).filter(|game| !ours.contains(game)));
        total = ours.len();
    }
    // The match so far, game by game in the order they finished (the record's order), and
    // the first decision of its test, if it reached one.
    let mut judge = MatchJudge::new(names.len(), sprt.filter(|_| shard.is_none()), scoring);
    for record in &records {
        judge.add(record);
    }
    let already_decided = judge.decided.is_some();
    if already_decided {
        // The test had decided: the games not played are not played now.
        done.extend(tournament.games.iter().map(|game| game.game));
    }
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, eta {eta}")
            .expect("a valid template"),
    );
    bar.set_position(records.len() as u64);
    // The bar is hidden when standard error is not a terminal (a log, CI): a plain line then.
    let mut plain =
        (!std::io::stderr().is_terminal()).then(|| PlainProgress::new(total, records.len()));
    let under_way = UnderWay::new(tournament, bar.clone());
    tournament.observer = Some(under_way.observer(tournament.observer.take()));
    let tournament = &*tournament;
    let mut failure = None;
    tournament.run(&done, |event| {
        if let Some(feed) = &feed {
            feed.report(&event);
        }
        let record = match event {
            TournamentEvent::Started(scheduled) => {
                let line = tournament.started_line(scheduled);
                bar.suspend(|| outln!("{line}"));
                under_way.started(scheduled.game);
                return ControlFlow::Continue(());
            }
            TournamentEvent::Finished(record) => record,
        };
        under_way.finished(record.game);
        if let Err(error) = writer
            .append(&record)
            .map_err(anyhow::Error::from)
            .and_then(|()| output.write(&record))
        {
            failure = Some(error);
            return ControlFlow::Break(());
        }
        bar.inc(1);
        if let Some(plain) = &mut plain {
            plain.game_finished();
        }
        let line = record.finished_line();
        let status = judge.add(&record);
        records.push(*record);
        bar.suspend(|| {
            outln!("{line}");
            if let Some(tally) = &judge.tally {
                outln!("{}", tally.summary(&names, scoring));
            }
            if let Some(status) = status {
                outln!("{status}");
            }
        });
        if judge.decided.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish_and_clear();
    if let Some(feed) = &feed {
        feed.finish();
    }
    if let Some(error) = failure {
        bail!("{error}; the games finished so far are in the record, resume to continue");
    }
    records.sort_by_key(|r| r.game);
    let standings = print_standings(&names, &records, scoring)?;
    if let Some(status) = judge.verdict() {
        if already_decided {
            outln!("(the test had decided before the resume: no game was played)");
        }
        outln!("{}", status.verdict());
    }
    if let Some(shard) = shard {
        outln!(
            "(the games of shard {shard} only: `zerosum merge` the records of all shards for \
             the tournament's standings{})",
            if sprt.is_some() { " and its SPRT" } else { "" }
        );
    }
    // The course tournaments publish points alone: that ranking goes next to the record.
    let ranking = writer.path().with_extension("ranking.txt");
    std::fs::write(&ranking, standings.course_ranking())
        .with_context(|| format!("cannot write {}", ranking.display()))?;
    outln!("record: {}", writer.path().display());
    outln!("ranking: {}", ranking.display());
    if let Some(url) = page_url {
        super::web::keep_serving(&url);
    }
    Ok(())
}

/// The progress of a run as a plain line on standard error every few games,
/// `[12/40 games, 2:31 elapsed]`, for logs where the progress bar is not drawn.
struct PlainProgress {
    total: usize,
    done: usize,
    /// A line after every this many games (and after the last).
    every: usize,
    started: Instant,
}

impl PlainProgress {
    /// Progress of a run of `total` games, `done` of them already played; a line about every
    /// tenth of the run, at least every 50 games.
    fn new(total: usize, done: usize) -> Self {
        PlainProgress {
            total,
            done,
            every: (total / 10).clamp(1, 50),
            started: Instant::now(),
        }
    }

    /// Counts a finished game, printing the line when it is due.
    fn game_finished(&mut self) {
        self.done += 1;
        if self.done.is_multiple_of(self.every) || self.done == self.total {
            let seconds = self.started.elapsed().as_secs();
            errln!(
                "[{}/{} games, {}:{:02} elapsed]",
                self.done,
                self.total,
                seconds / 60,
                seconds % 60
            );
        }
    }
}
