//! The built-in engine as a player: iterative deepening with any of the search settings,
//! keeping its transposition table from game to game, and answering on time however busy the
//! machine is.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};

use zerosum_core::{Evaluator, Score, TimeBudget};
use zerosum_games::exact::{ExactLimits, Proven};
use zerosum_games::{EvaluatedGame, GameSpec, SearchStyle};
use zerosum_search::{
    check_table_mb, Algorithm, SearchLimits, Searcher, StopLatency, Threads, TranspositionTable,
};

use super::knowledge::Knowledge;
use super::typed::{Strategy, StrategyFactory};
use super::PlayerSpecError;
use crate::player::{MoveRequest, PlayerError};

/// How the engine searches. Unset limits are taken from the referee's clock; an engine with
/// no time setting and no clock thinks one second a move.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// Seconds per move at most (the referee's limit still applies when shorter).
    pub time: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<usize>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// The search driver; `None` takes the game's ([`default_algorithm`]).
    pub algorithm: Option<Algorithm>,
    /// Threads searching each move (Lazy SMP); one when not given, which is deterministic.
    pub threads: Option<Threads>,
    /// The evaluation by name ([`EvaluatedGame::evaluator_named`]); `None` takes the game's.
    pub eval: Option<String>,
    /// Whether to consult the game's exact oracle; `None` takes the game's default
    /// ([`EvaluatedGame::oracle_by_default`]).
    pub oracle: Option<bool>,
    /// A weights file for the evaluation ([`EvaluatedGame::evaluator_weighted`]), read when
    /// the setting is given.
    pub weights: Option<Arc<WeightsFile>>,
}

/// Builds the evaluation of engine settings for a game, to see that it can be built.
struct EvaluationCheck<'a>(&'a EngineSettings);

impl zerosum_games::GameVisitor for EvaluationCheck<'_> {
    type Output = Result<(), String>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Result<(), String> {
        match (&self.0.weights, &self.0.eval) {
            (Some(weights), name) => weights.evaluator(&game, name.as_deref()).map(drop),
            (None, Some(name)) => game.evaluator_named(name).map(drop),
            (None, None) => Ok(()),
        }
    }
}

/// A weights file: where it was read from and its contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFile {
    pub path: String,
    pub text: String,
}

/// Largest weights file read, in bytes (a pattern weights file is about 100 kB).
pub const MAX_WEIGHTS_BYTES: u64 = 4 << 20;

/// The text of the weights file at `path`, or a one-line reason: missing, unreadable, larger
/// than [`MAX_WEIGHTS_BYTES`], not UTF-8.
pub fn read_weights(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let cannot = |e: &dyn fmt::Display| format!("cannot read weights file {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| cannot(&e))?;
    let mut bytes = Vec::new();
    file.take(MAX_WEIGHTS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(&e))?;
    if bytes.len() as u64 > MAX_WEIGHTS_BYTES {
        return Err(cannot(&format!(
            "larger than {} MiB",
            MAX_WEIGHTS_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| cannot(&"not UTF-8 text"))
}

impl WeightsFile {
    /// Reads the file at `path` ([`read_weights`]).
    pub fn read(path: &str) -> Result<WeightsFile, String> {
        Ok(WeightsFile {
            path: path.to_string(),
            text: read_weights(std::path::Path::new(path))?,
        })
    }

    /// The evaluator of `game` with these weights and the evaluation `name` (the game's
    /// default when `None`); the file's problem names the file.
    pub fn evaluator<G: EvaluatedGame>(
        &self,
        game: &G,
        name: Option<&str>,
    ) -> Result<G::Evaluator, String> {
        game.evaluator_weighted(name, &self.text)
            .map_err(|e| format!("weights file {}: {e}", self.path))
    }
}

impl Default for EngineSettings {
    /// No limit of its own, a 32 MB table, the game's search driver, one thread.
    fn default() -> Self {
        EngineSettings {
            time: None,
            depth: None,
            nodes: None,
            hash_mb: 32,
            algorithm: None,
            threads: None,
            eval: None,
            oracle: None,
            weights: None,
        }
    }
}

impl EngineSettings {
    /// Checks that the evaluation these settings name (`eval`, `weights`) can be built for
    /// `spec`: the problem in one line, or `Ok` (a spec that names no game is left to the
    /// caller's own check).
    pub fn check_evaluation(&self, spec: &GameSpec) -> Result<(), String> {
        if self.eval.is_none() && self.weights.is_none() {
            return Ok(());
        }
        zerosum_games::visit_game(spec, EvaluationCheck(self)).unwrap_or(Ok(()))
    }

    /// Applies one `key=value` setting: `time` (seconds), `depth`, `nodes`, `hash` (MB), `algo`,
    /// `threads`, `eval` (an evaluation's name), `weights` (a weights file, read now); both checked
    /// against the game by [`EngineSettings::check_evaluation`] before a tournament starts and
    /// again when a game starts.
    pub(crate) fn set(&mut self, key: &str, value: &str) -> Result<(), PlayerSpecError> {
        let bad = |expected: &str| PlayerSpecError(format!("engine `{key}={value}`: {expected}"));
        match key {
            "time" => {
                let seconds: f64 = value.parse().map_err(|_| bad("a number of seconds"))?;
                if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e6) {
                    return Err(bad("a positive number of seconds"));
                }
                self.time = Some(Duration::from_secs_f64(seconds));
            }
            "depth" => {
                let depth: usize = value.parse().map_err(|_| bad("a whole number"))?;
                if !(1..=250).contains(&depth) {
                    return Err(bad("between 1 and 250"));
                }
                self.depth = Some(depth);
            }
            "nodes" => {
                let nodes: u64 = value.parse().map_err(|_| bad("a whole number"))?;
                if nodes == 0 {
                    return Err(bad("at least 1"));
                }
                self.nodes = Some(nodes);
            }
            "hash" => {
                let mb: usize = value.parse().map_err(|_| bad("a size in MB"))?;
                check_table_mb(mb, 1).map_err(|error| bad(&error.to_string()))?;
                self.hash_mb = mb;
            }
            "algo" => self.algorithm = Some(value.parse().map_err(|e: String| PlayerSpecError(e))?),
            "threads" => self.threads = Some(value.parse().map_err(|e| bad(&format!("{e}")))?),
            "eval" => self.eval = Some(value.to_string()),
            "oracle" => {
                self.oracle = Some(match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad("on or off")),
                })
            }
            "weights" => {
                self.weights =
                    Some(Arc::new(WeightsFile::read(value).map_err(|e| {
                        PlayerSpecError(format!("engine `weights={value}`: {e}"))
                    })?))
            }
            _ => {
                return Err(PlayerSpecError(format!(
                "unknown engine setting `{key}` (expected time, depth, nodes, hash, algo, threads, \
                 eval, weights, oracle or name)"
            )))
            }
        }
        Ok(())
    }

    /// The limits of one move: the engine's own, capped by the referee's clock.
    fn limits(&self, request: &MoveRequest) -> SearchLimits {
        let mut time = match (self.time, request.thinking_time()) {
            (Some(own), Some(clock)) => Some(own.min(clock)),
            (own, clock) => own.or(clock),
        };
        if time.is_none() && self.depth.is_none() && self.nodes.is_none() {
            time = Some(Duration::from_secs(1));
        }
        SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            time,
            stop: Some(request.stop.clone()),
            threads: self.threads.unwrap_or_default(),
        }
    }
}

impl fmt::Display for EngineSettings {
    /// The settings that differ from the defaults, as `key=value` pairs joined by commas.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let default = EngineSettings::default();
        let mut parts = Vec::new();
        if let Some(time) = self.time {
            parts.push(format!("time={}", time.as_secs_f64()));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if self.hash_mb != default.hash_mb {
            parts.push(format!("hash={}", self.hash_mb));
        }
        if let Some(algorithm) = self.algorithm {
            parts.push(format!("algo={algorithm}"));
        }
        if let Some(threads) = self.threads {
            parts.push(format!("threads={threads}"));
        }
        if let Some(eval) = &self.eval {
            parts.push(format!("eval={eval}"));
        }
        if let Some(oracle) = self.oracle {
            parts.push(format!("oracle={}", if oracle { "on" } else { "off" }));
        }
        if let Some(weights) = &self.weights {
            parts.push(format!("weights={}", weights.path));
        }
        f.write_str(&parts.join(","))
    }
}

/// The search driver of an engine on `spec` when its settings name none: the family's
/// [`zerosum_games::Family::default_search`], Monte Carlo tree search on Hex and Atoll (it won
/// SPRTs against alpha-beta there, see `docs/strength.md`), PVS alpha-beta on every other game.
pub fn default_algorithm(spec: &GameSpec) -> Algorithm {
    match spec.family().default_search() {
        SearchStyle::MonteCarlo => Algorithm::Mcts,
        SearchStyle::AlphaBeta => Algorithm::Pvs,
    }
}

/// Builds the engine strategy for a game, on the table of the last game when there was one
/// (cleared), else on a new one. Either way the table's memory is had (and touched) here, before
/// the game, never inside a move's time.
pub(crate) struct EngineFactory<'a> {
    pub settings: EngineSettings,
    /// The engine's table, kept from game to game.
    pub table: &'a mut Option<Arc<TranspositionTable>>,
}

impl StrategyFactory for EngineFactory<'_> {
    fn strategy<G: EvaluatedGame>(
        self,
        game: &G,
    ) -> Result<impl Strategy<G> + 'static, PlayerError> {
        let table = match self
            .table
            .take()
            .or_else(|| spare_table(self.settings.hash_mb))
        {
            Some(table) => {
                table.clear();
                table
            }
            None => Arc::new(
                TranspositionTable::try_new(self.settings.hash_mb)
                    .map_err(|error| PlayerError::Failed(error.to_string()))?,
            ),
        };
        let evaluator = match (&self.settings.weights, &self.settings.eval) {
            (Some(weights), name) => weights
                .evaluator(game, name.as_deref())
                .map_err(PlayerError::Failed)?,
            (None, Some(name)) => game.evaluator_named(name).map_err(PlayerError::Failed)?,
            (None, None) => game.evaluator(),
        };
        *self.table = Some(Arc::clone(&table));
        let algorithm = self
            .settings
            .algorithm
            .unwrap_or_else(|| default_algorithm(&game.spec()));
        let searcher = Searcher::with_table(evaluator.clone(), algorithm, table.clone());
        let oracle = self
            .settings
            .oracle
            .unwrap_or_else(|| game.oracle_by_default());
        let knowledge = Knowledge::new(game, self.settings.hash_mb, oracle);
        Ok(EngineStrategy {
            evaluator,
            searcher: Some(searcher),
            finishing: None,
            table,
            knowledge: Arc::new(Mutex::new(knowledge)),
            settings: self.settings,
            algorithm,
        })
    }
}

/// Tables of engine players that are gone, for the next engine player to use: a tournament
/// builds players for every game, and mapping a fresh table costs far more than clearing one.
/// It holds at most as many tables as engine players ever existed at once.
static SPARE_TABLES: Mutex<Vec<Arc<TranspositionTable>>> = Mutex::new(Vec::new());

/// A spare table of `megabytes` MB, if there is one.
fn spare_table(megabytes: usize) -> Option<Arc<TranspositionTable>> {
    let bytes = TranspositionTable::bytes_for(megabytes);
    let mut spare = SPARE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let index = spare.iter().position(|table| table.bytes() == bytes)?;
    Some(spare.swap_remove(index))
}

/// Whether the tables of engine players that are gone are kept for the next ones (see
/// [`stop_keeping_spare_tables`]).
static KEEP_SPARE_TABLES: AtomicBool = AtomicBool::new(true);

/// From now on, the table of an engine player that is gone is freed, not kept for the next
/// one, and the spare tables kept so far are freed: for a process whose games come and go
/// under a budget of what their tables take together ([`crate::players::table_budget`]), so that what
/// is reserved is what is held.
pub(crate) fn stop_keeping_spare_tables() {
    KEEP_SPARE_TABLES.store(false, Ordering::Relaxed);
    SPARE_TABLES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clear();
}

/// Gives the table of an engine player that is gone to the next one (unless another owner
/// still holds it, or spare tables are no longer kept).
pub(crate) fn return_table(table: Arc<TranspositionTable>) {
    if Arc::strong_count(&table) == 1 && KEEP_SPARE_TABLES.load(Ordering::Relaxed) {
        SPARE_TABLES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(table);
    }
}

type EngineSearcher<G> = Searcher<G, <G as EvaluatedGame>::Evaluator>;

/// The engine. Under a clock, each move is searched on a thread of its own while the player's
/// thread sleeps until the answer or the end of the thinking time, whichever comes first: on a
/// loaded machine the busy search thread may wait long for a processor, but the sleeping one
/// (a prompt thread where the process may have one, see [`crate::prompt`]) is woken first, and
/// answers with the best move found so far. The search thread then stops at its next look at
/// the clock and hands the searcher back. The time counts from the referee's start of the
/// clock ([`MoveRequest::issued`]).
struct EngineStrategy<G: EvaluatedGame> {
    /// The evaluation of every searcher of this engine.
    evaluator: G::Evaluator,
    /// The searcher, when no search thread has it.
    searcher: Option<EngineSearcher<G>>,
    /// Where a search thread still finishing a move answered without it leaves the searcher.
    finishing: Option<Arc<Mailbox<G::Move, EngineSearcher<G>>>>,
    /// The table every searcher of this engine uses.
    table: Arc<TranspositionTable>,
    /// The game's exact oracle and the last proof, shared with the search thread (which
    /// holds it only while it consults the oracle and records a proof).
    knowledge: Arc<Mutex<Knowledge<G>>>,
    settings: EngineSettings,
    /// The search driver, the settings' or the game's.
    algorithm: Algorithm,
}

/// How often the sleeping player's thread looks at the referee's stop flag.
const STOP_CHECK: Duration = Duration::from_millis(5);

impl<G: EvaluatedGame> Strategy<G> for EngineStrategy<G> {
    fn decide(&mut self, game: &mut G, request: &MoveRequest) -> (G::Move, Option<String>) {
        // The time counts from the referee's start of the clock, not from when this thread
        // got to the request: on a loaded machine that can be long after.
        let started = request.issued;
        // A proof kept from an earlier move answers at once. (A search thread still finishing
        // may hold the knowledge: then this move goes without it.)
        if let Ok(knowledge) = self.knowledge.try_lock() {
            if let Some(answer) = knowledge.proven_move(game, &self.table) {
                return (answer.0, Some(answer.1));
            }
        }
        let mut searcher = self.take_searcher();
        let mut limits = self.settings.limits(request);
        let Some(time) = limits.time else {
            let answer = think(
                &mut searcher,
                game,
                request,
                &limits,
                started,
                None,
                &self.knowledge,
            );
            self.searcher = Some(searcher);
            return answer;
        };
        // Timed: search on a thread of its own, stopped by this one's flag, leaving its best
        // move of every iteration and at last its answer in a mailbox this one only ever tries
        // (see Mailbox).
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let mailbox = Arc::new(Mailbox::new());
        let mut position = game.clone();
        let spawned = {
            let request = request.clone();
            let knowledge = self.knowledge.clone();
            let mailbox = mailbox.clone();
            std::thread::Builder::new()
                .name("engine search".into())
                .spawn(move || {
                    let answer = think(
                        &mut searcher,
                        &mut position,
                        &request,
                        &limits,
                        started,
                        Some(&mailbox),
                        &knowledge,
                    );
                    // The searcher comes back with the answer: nobody waits for this thread
                    // to end (it may wait long for a processor).
                    mailbox.answer(answer, searcher);
                })
        };
        // (The thread is left to end on its own: its handle is not kept.)
        if spawned.is_err() {
            // No thread to be had: the first candidate, at once.
            return (first_candidate(game), None);
        }
        // This thread too may wait for a processor when it wakes: it stops as much earlier as
        // its own wake-ups and the searches lately came late (see StopLatency), but not before
        // a quarter of the time (the search aims at an eighth at the earliest; see
        // TimeBudget::hard_stop), and reports how late each wake-up was.
        let latency = StopLatency::process();
        let hard_stop = started + TimeBudget::new(time).hard_stop(latency.estimate());
        let mut best_so_far = None;
        loop {
            if let Some((answer, searcher)) = mailbox.try_take_answer() {
                self.searcher = Some(searcher);
                return answer;
            }
            if let Some(best) = mailbox.try_take_best() {
                best_so_far = Some(best);
            }
            let now = Instant::now();
            if now >= hard_stop || request.stopped() {
                break;
            }
            let nap = (hard_stop - now).min(STOP_CHECK);
            std::thread::park_timeout(nap);
            latency.record(now.elapsed().saturating_sub(nap));
        }
        // The search thread is late: its best move so far, and let it finish on its own.
        stop.store(true, Ordering::Relaxed);
        if let Some(best) = mailbox.try_take_best() {
            best_so_far = Some(best);
        }
        self.finishing = Some(mailbox);
        match best_so_far {
            Some((mv, line)) => (mv, line.map(|l| format!("{l} (answered at the hard stop)"))),
            None => (first_candidate(game), None),
        }
    }
}

/// What a search thread leaves for the player's thread: the best move of its latest iteration,
/// then its answer and the searcher. The player's thread (a prompt thread) never waits on it:
/// it only tries the locks, which a search thread holds for a store and may hold as long as
/// it waits for a processor. (A channel would not do: its receiver spins while a sender it
/// has overtaken finishes writing, and a prompt thread spinning for an ordinary one holds a
/// processor from it.)
struct Mailbox<M, S> {
    best: Mutex<Option<Answer<M>>>,
    answer: Mutex<Option<(Answer<M>, S)>>,
    /// The player's thread, woken when the answer is in.
    player: Thread,
}

/// A move and its search line.
type Answer<M> = (M, Option<String>);

impl<M, S> Mailbox<M, S> {
    /// An empty mailbox for the calling thread.
    fn new() -> Self {
        Mailbox {
            best: Mutex::new(None),
            answer: Mutex::new(None),
            player: std::thread::current(),
        }
    }

    /// Leaves the best move so far (the search thread).
    fn best(&self, best: Answer<M>) {
        *self.best.lock().unwrap_or_else(|e| e.into_inner()) = Some(best);
    }

    /// Leaves the answer and the searcher, and wakes the player's thread (the search thread).
    fn answer(&self, answer: Answer<M>, searcher: S) {
        *self.answer.lock().unwrap_or_else(|e| e.into_inner()) = Some((answer, searcher));
        self.player.unpark();
    }

    /// The best move left since the last look, unless the search thread is storing one.
    fn try_take_best(&self) -> Option<Answer<M>> {
        self.best.try_lock().ok()?.take()
    }

    /// The answer and the searcher, once left and unless being stored.
    fn try_take_answer(&self) -> Option<(Answer<M>, S)> {
        self.answer.try_lock().ok()?.take()
    }
}

impl<G: EvaluatedGame> EngineStrategy<G> {
    /// The searcher back from the last move's thread if it has finished (it was told to
    /// stop), else a new one on the same table: waiting for a thread that has no processor
    /// would spend this move's time. An unfinished thread ends on its own at its next look
    /// at the clock.
    fn take_searcher(&mut self) -> EngineSearcher<G> {
        if let Some(finishing) = self.finishing.take() {
            self.searcher = finishing.try_take_answer().map(|(_, searcher)| searcher);
        }
        self.searcher.take().unwrap_or_else(|| {
            Searcher::with_table(self.evaluator.clone(), self.algorithm, self.table.clone())
        })
    }
}

/// A legal move at once: the evaluator's first candidate.
fn first_candidate<G: EvaluatedGame>(game: &G) -> G::Move {
    let mut moves = Vec::new();
    game.evaluator().candidate_moves(game, &mut moves);
    if moves.is_empty() {
        game.legal_moves(&mut moves);
    }
    moves[0]
}

/// Picks the move for `game` within `limits`: the oracle's proof where it settles the move,
/// else a search (with the time the proof left) whose move the proof vets. Publishes the best
/// move of every completed iteration to `best` (for an answer at the hard stop), and keeps
/// the search's proof in `knowledge`.
fn think<G: EvaluatedGame>(
    searcher: &mut EngineSearcher<G>,
    game: &mut G,
    request: &MoveRequest,
    limits: &SearchLimits,
    started: Instant,
    best: Option<&Mailbox<G::Move, EngineSearcher<G>>>,
    knowledge: &Mutex<Knowledge<G>>,
) -> (G::Move, Option<String>) {
    // Step 1. The oracle, within a share of the budget.
    let verdict = knowledge
        .try_lock()
        .ok()
        .and_then(|mut knowledge| knowledge.consult(game, &oracle_limits(limits, started)));
    if let Some(verdict) = &verdict {
        if let Some((mv, _)) = verdict.decided() {
            let line = verdict.line(mv, |m| game.format_move(m));
            if let Some(progress) = &request.progress {
                progress.report(&line);
            }
            return (mv, Some(line));
        }
    }
    let vet = |mv, searched| verdict.as_ref().map_or(mv, |v| v.vet(mv, searched));
    // Step 2. The search, with the time left.
    let mut search_limits = limits.clone();
    search_limits.time = limits.time.map(|t| t.saturating_sub(started.elapsed()));
    let mut last = None;
    let result = searcher.search(game, &search_limits, |info| {
        let line = info.line(|m| game.format_move(m));
        if let Some(progress) = &request.progress {
            progress.report(&line);
        }
        if let (Some(best), Some(&mv)) = (best, info.pv.first()) {
            best.best((vet(mv, Proven::Unknown), Some(line.clone())));
        }
        last = Some(line);
    });
    let mut chosen = result
        .best_move
        .expect("the search always has a move in an ongoing game");
    let mut searched = Proven::of_search(result.score, result.solved);
    // A proven draw found early leaves time to pick the drawing move that sets the most
    // traps. Only under a clock: depth- and node-limited play stays reproducible.
    if let (Some(time), Some(stop)) = (limits.time, &limits.stop) {
        if result.solved && result.score == Score::DRAW {
            // What is left, less what the machine lately took away (see StopLatency).
            let left = time
                .saturating_sub(started.elapsed())
                .saturating_sub(StopLatency::process().estimate())
                .mul_f64(TRAP_SHARE);
            if let Some((trap, share)) = trappiest_draw(searcher, game, left, stop) {
                if trap != chosen {
                    last = Some(format!(
                        "{} (draw; {} sets traps in {:.0}% of the replies)",
                        last.unwrap_or_default(),
                        game.format_move(trap),
                        share * 100.0
                    ));
                }
                chosen = trap;
                searched = Proven::Draw;
            }
        }
    }
    // Step 3. The proof vets the search's move, and the search's proof is kept.
    if let Some(verdict) = &verdict {
        let vetted = vet(chosen, searched);
        if vetted != chosen {
            last = Some(format!(
                "{} ({})",
                last.unwrap_or_default(),
                verdict.line(vetted, |m| game.format_move(m))
            ));
            chosen = vetted;
        }
    }
    if let Ok(mut knowledge) = knowledge.lock() {
        knowledge.record(game, &result, chosen);
    }
    (chosen, last)
}

/// Share of a timed move that the oracle may spend proving it.
const ORACLE_SHARE: f64 = 0.5;
/// Nodes the oracle may spend on a move of an engine limited by depth (a node-limited engine
/// gives it its node budget): with a node budget its answers, like the search's, do not
/// depend on the machine's speed.
const ORACLE_NODES: u64 = 2_000_000;

/// What the oracle may spend on a move searched within `limits` from `started`: a share of
/// the time, and the node budget of an engine limited by nodes or depth (which is then
/// reproducible as long as the time does not run out first). `zerosum search` gives its
/// oracle the same.
pub fn oracle_limits(limits: &SearchLimits, started: Instant) -> ExactLimits {
    let reproducible = limits.nodes.is_some() || limits.depth.is_some() || limits.time.is_none();
    ExactLimits {
        nodes: reproducible.then(|| limits.nodes.unwrap_or(ORACLE_NODES)),
        deadline: limits.time.map(|time| started + time.mul_f64(ORACLE_SHARE)),
        stop: limits.stop.clone(),
        threads: limits.threads.get(),
    }
}

/// Share of the time left after a proven draw that the trap search may use.
const TRAP_SHARE: f64 = 0.8;

/// Among the moves proven to keep a draw, the one after which the largest share of the
/// opponent's careful replies (those that do not lose at once, which any opponent sees)
/// lose by force all the same, with that share. Each position is searched
/// with an equal slice of `time`; `None` when no move could be proven to hold the draw in
/// time, or no move sets a trap.
fn trappiest_draw<G: EvaluatedGame>(
    searcher: &mut EngineSearcher<G>,
    game: &mut G,
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<(G::Move, f64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let slice = time / (moves.len() * moves.len()).max(1) as u32;
    if slice < Duration::from_micros(200) {
        return None;
    }
    let limits = SearchLimits {
        time: Some(slice),
        stop: Some(stop.clone()),
        ..SearchLimits::default()
    };
    let mut best: Option<(G::Move, f64)> = None;
    let mut replies = Vec::new();
    for mv in moves {
        game.play(mv);
        let holds = !game.status().is_over() && {
            let reply = searcher.search(game, &limits, |_| {});
            reply.solved && reply.score <= Score::DRAW
        };
        // Replies that do not lose at once (what a careful opponent chooses from), and
        // those of them that lose by force all the same.
        let (mut careful, mut traps) = (0, 0);
        if holds {
            game.legal_moves(&mut replies);
            for &reply in &replies {
                game.play(reply);
                if !game.status().is_over() {
                    let ours = searcher.search(game, &limits, |_| {});
                    let distance = ours.score.distance().filter(|_| ours.score > Score::DRAW);
                    if distance != Some(1) || !ours.solved {
                        careful += 1;
                        traps += usize::from(ours.solved && distance.is_some());
                    }
                }
                game.undo();
            }
        }
        game.undo();
        if holds && traps > 0 {
            let share = traps as f64 / careful as f64;
            if best.is_none_or(|(_, most)| share > most) {
                best = Some((mv, share));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_atoll_default_to_monte_carlo_and_the_others_to_alpha_beta() {
        let algorithm = |spec: &str| default_algorithm(&spec.parse().unwrap());
        for spec in ["hex:11", "hex:7:swap-sides", "atoll:standard"] {
            assert_eq!(algorithm(spec), Algorithm::Mcts, "{spec}");
        }
        for spec in ["gomoku", "connect4", "unstable:10x6"] {
            assert_eq!(algorithm(spec), Algorithm::Pvs, "{spec}");
        }
        // A named driver is kept, and shown.
        let mut settings = EngineSettings::default();
        assert_eq!(settings.to_string(), "");
        settings.set("algo", "pvs").unwrap();
        assert_eq!(settings.algorithm, Some(Algorithm::Pvs));
        assert_eq!(settings.to_string(), "algo=pvs");
    }
}
