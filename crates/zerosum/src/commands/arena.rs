//! `zerosum tournament` and `zerosum match`: the arena on the command line (`play` has its
//! own module).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use zerosum_arena::run::{clock_seed, write_ranking, Played, Run, RunOptions, RunReport};
use zerosum_arena::statistics::judge::MatchJudge;
use zerosum_arena::{
    preset, EngineList, Format, GameRecord, OpeningOrder, OpeningSettings, ScheduledGame, Scoring,
    Shard, SprtStatus, TimeControl, Tournament, TournamentSettings, PRESETS,
};
use zerosum_web::TournamentFeed;

use super::game_output::GameOutputArgs;
use super::parse_spec;
use super::results::print_standings;
use super::time_args::TimeArgs;
use super::under_way::UnderWay;

/// Options of `zerosum tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// A ready-made tournament: quick (the default when no --games), cx-course,
    /// cx-course-alt, mnk-course.
    #[arg(long)]
    preset: Option<String>,
    /// Players: random, quasi, engine[:time=S,depth=D,nodes=N,hash=MB,algo=A,threads=N,oracle=on|off],
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
        Ok(Some(OpeningSettings::read(
            path,
            &parse_spec(spec)?,
            order,
            self.plies,
        )?))
    }
}

/// `zerosum tournament`.
pub fn tournament(args: &TournamentArgs) -> Result<()> {
    let serve = args.serve.then_some(args.port);
    if let Some(path) = &args.resume {
        return resume(path, &args.common, serve);
    }
    let (settings, label) = tournament_settings(args)?;
    start(settings, &args.common, label, serve)
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
    let refused = [
        (resume.is_some(), "--resume"),
        (common.record.is_some(), "--record"),
        (common.shard.is_some(), "--shard"),
        (serve, "--serve"),
        (
            common.output.options().is_set(),
            "--pgnout, --sgfout and --psqout",
        ),
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

/// The options of a run of `common`, its default record named with `label`.
fn run_options(common: &CommonArgs, label: &str) -> RunOptions {
    RunOptions {
        concurrency: common.concurrency,
        record: common.record.clone(),
        label: label.to_string(),
        shard: common.shard,
        game_files: common.output.options(),
    }
}

/// Starts the run of `settings` (its record and game files as `common` says), serving the page
/// on `serve`'s port if given.
fn start(
    settings: TournamentSettings,
    common: &CommonArgs,
    label: &str,
    serve: Option<u16>,
) -> Result<()> {
    let mut run = Run::start(settings, &run_options(common, label))?;
    let path = run.record().map(Path::to_path_buf).unwrap_or_default();
    errln!(
        "{} games, {} players, {}, seed {}; record {} (resume with --resume {})",
        run.tournament().games.len(),
        run.tournament().entrants.len(),
        run.settings().time,
        run.settings().seed,
        path.display(),
        path.display()
    );
    let page = serve.map(|port| serve_run(&mut run, port)).transpose()?;
    play(run, page)
}

/// Continues the run a record file holds (with the game files of `common`, and its
/// concurrency if given, else the record's), serving the page on `serve`'s port if given.
fn resume(path: &Path, common: &CommonArgs, serve: Option<u16>) -> Result<()> {
    let mut run = Run::resume(path, &run_options(common, ""))?;
    for note in run.notes() {
        errln!("warning: {}: {note}", path.display());
    }
    errln!(
        "resuming {}: {} of {} games already played; {} at a time",
        path.display(),
        run.played().len(),
        run.tournament().games.len(),
        run.tournament().concurrency
    );
    let page = serve.map(|port| serve_run(&mut run, port)).transpose()?;
    play(run, page)
}

/// Serves the page on `port`, showing `run` live: the feed it shows and its address.
fn serve_run(run: &mut Run, port: u16) -> Result<(TournamentFeed, String)> {
    let feed = TournamentFeed::of_run(run);
    run.observe(feed.observer());
    let url = super::web::serve_in_background(feed.clone(), port)?;
    Ok((feed, url))
}

/// Plays `run`, printing each game's start and end (and a two-player match's score and SPRT
/// state after each game), then the standings; under an SPRT, always ends with the verdict
/// line. With a page (`--serve`: its feed and address), keeps serving the final standings
/// until Ctrl-C. A game that goes on for long gets a line on standard error ([`UnderWay`]).
fn play(mut run: Run, page: Option<(TournamentFeed, String)>) -> Result<()> {
    let (feed, page_url) = page.unzip();
    let names = run.names();
    let (scoring, sprt) = (run.scoring(), run.sprt());
    let total = run.total();
    if let Some(shard) = run.shard() {
        errln!(
            "shard {shard}: {total} of the {} games of the schedule",
            run.tournament().games.len()
        );
    }
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, eta {eta}")
            .expect("a valid template"),
    );
    bar.set_position(run.played().len() as u64);
    // The bar is hidden when standard error is not a terminal (a log, CI): a plain line then.
    let plain =
        (!std::io::stderr().is_terminal()).then(|| PlainProgress::new(total, run.played().len()));
    let under_way = UnderWay::new(run.tournament(), bar.clone());
    run.observe(under_way.observer(run.tournament().observer.clone()));
    let mut terminal = Terminal {
        names: &names,
        scoring,
        bar: &bar,
        plain,
        under_way: &under_way,
        feed: feed.clone(),
    };
    let played = run.play(&mut terminal);
    bar.finish_and_clear();
    if let Some(feed) = &feed {
        feed.finish();
    }
    let played = played?;
    print_end(&played, &names, scoring, sprt.is_some())?;
    if let Some(url) = page_url {
        super::web::keep_serving(&url);
    }
    Ok(())
}

/// Prints the end of a run: the standings, an SPRT's verdict, a shard's note, and the record
/// and the ranking written next to it.
fn print_end(played: &Played, names: &[String], scoring: Scoring, sprt: bool) -> Result<()> {
    let standings = print_standings(names, &played.records, scoring)?;
    if let Some(status) = played.verdict {
        if played.decided_before {
            outln!("(the test had decided before the resume: no game was played)");
        }
        outln!("{}", status.verdict());
    }
    if let Some(shard) = played.shard {
        outln!(
            "(the games of shard {shard} only: `zerosum merge` the records of all shards for \
             the tournament's standings{})",
            if sprt { " and its SPRT" } else { "" }
        );
    }
    if let Some(record) = &played.record {
        // The course tournaments publish points alone: that ranking goes next to the record.
        let ranking = write_ranking(record, &standings)?;
        outln!("record: {}", record.display());
        outln!("ranking: {}", ranking.display());
    }
    Ok(())
}

/// A run on the terminal: each game's `Started` and finished lines (above the progress bar),
/// the games under way, the page's feed when served.
struct Terminal<'a> {
    names: &'a [String],
    scoring: Scoring,
    bar: &'a ProgressBar,
    plain: Option<PlainProgress>,
    under_way: &'a UnderWay,
    feed: Option<TournamentFeed>,
}

impl RunReport for Terminal<'_> {
    fn started(&mut self, tournament: &Tournament, game: &ScheduledGame) {
        let line = tournament.started_line(game);
        self.bar.suspend(|| outln!("{line}"));
        self.under_way.started(game.game);
    }

    fn finished(&mut self, record: &GameRecord, judge: &MatchJudge, status: Option<SprtStatus>) {
        if let Some(feed) = &mut self.feed {
            RunReport::finished(feed, record, judge, status);
        }
        self.under_way.finished(record.game);
        self.bar.inc(1);
        if let Some(plain) = &mut self.plain {
            plain.game_finished();
        }
        let line = record.finished_line();
        self.bar.suspend(|| {
            outln!("{line}");
            if let Some(tally) = &judge.tally {
                outln!("{}", tally.summary(self.names, self.scoring));
            }
            if let Some(status) = status {
                outln!("{status}");
            }
        });
    }
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
