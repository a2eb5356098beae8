//! `zerosum.VectorEnv`: N games of one spec stepped together in Rust, the GIL released, on
//! one thread or several; numpy arrays in (actions) and out (observations, rewards, done
//! flags, legal masks, sides to move); a game that ends starts again at once (auto-reset).
//! `zerosum.RandomPlayer` draws the same random actions one game at a time.
//!
//! Each game has its own random stream, ChaCha8 seeded with `seed + i` for game `i`, from
//! which `sample_actions` draws a legal action uniformly (an index into the legal action ids
//! in increasing order): a `RandomPlayer(seed + i)` choosing in a lone `Game` draws the same
//! actions.
//!
//! Each game keeps its legal actions as a mask by action id (the step's legal mask is a copy)
//! and as bits (for the draw), brought up to date by what the game says of the change
//! ([`Game::legal_moves_change`]) and written again only when it does not say.

use numpy::{
    PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerosum_core::{Game, LegalMovesChange, Side};
use zerosum_games::observation::PLANES;
use zerosum_games::{visit_game, DynAdapter, EvaluatedGame, GameVisitor};

use crate::errors::{guarded, internal_error, spec_error, value_error};
use crate::state::{parse_spec, PyGame};

/// Most games in one environment.
const MAX_GAMES: usize = 1 << 20;
/// Most threads of one environment.
const MAX_THREADS: usize = 256;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    m.add_class::<PyRandomPlayer>()?;
    Ok(())
}

/// The random stream of game `index` of an environment seeded with `seed`.
fn stream(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly drawn index below `len` (`len > 0`): the one draw both the environment and
/// `RandomPlayer` make.
fn draw(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.random_range(0..len)
}

/// What one step writes, for a run of games (each slice holds those games' values in order).
#[derive(Default)]
struct Out<'a> {
    observations: &'a mut [f32],
    masks: &'a mut [bool],
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    to_move: &'a mut [i64],
}

impl<'a> Out<'a> {
    /// Copies `from` (the values of as many games) into these values.
    fn copy_from(self, from: Out<'_>) {
        self.observations.copy_from_slice(from.observations);
        self.masks.copy_from_slice(from.masks);
        self.rewards.copy_from_slice(from.rewards);
        self.dones.copy_from_slice(from.dones);
        self.to_move.copy_from_slice(from.to_move);
    }

    /// Splits off the values of the first `games` games.
    fn split(self, games: usize, observation: usize, actions: usize) -> (Out<'a>, Out<'a>) {
        let (o1, o2) = self.observations.split_at_mut(games * observation);
        let (m1, m2) = self.masks.split_at_mut(games * actions);
        let (r1, r2) = self.rewards.split_at_mut(games);
        let (d1, d2) = self.dones.split_at_mut(games);
        let (t1, t2) = self.to_move.split_at_mut(games);
        (
            Out {
                observations: o1,
                masks: m1,
                rewards: r1,
                dones: d1,
                to_move: t1,
            },
            Out {
                observations: o2,
                masks: m2,
                rewards: r2,
                dones: d2,
                to_move: t2,
            },
        )
    }
}

/// The legal actions of one game, kept in its run's arrays ([`Run`]): a mask by action id,
/// and the same as bits (bit `id % 64` of word `id / 64`).
struct Legal<'a> {
    mask: &'a mut [bool],
    bits: &'a mut [u64],
}

/// One game of the environment: the position, its number of legal actions (the actions
/// themselves are in its [`Legal`]), its random stream.
struct Lane<G: Game> {
    game: G,
    count: usize,
    rng: ChaCha8Rng,
}

impl<G: EvaluatedGame> Lane<G> {
    /// Writes the legal actions again from the game's legal moves (`scratch`: a buffer for
    /// them).
    fn write_legal(&mut self, legal: &mut Legal<'_>, scratch: &mut Vec<G::Move>) {
        self.game.legal_moves(scratch);
        legal.mask.fill(false);
        legal.bits.fill(0);
        for &mv in scratch.iter() {
            let id = self.game.move_id(mv);
            legal.mask[id] = true;
            legal.bits[id / 64] |= 1 << (id % 64);
        }
        self.count = scratch.len();
    }

    /// Starts the game again from `start`.
    fn restart(&mut self, start: &G, legal: &mut Legal<'_>, scratch: &mut Vec<G::Move>) {
        self.game.clone_from(start);
        self.write_legal(legal, scratch);
    }

    /// The legal action drawn uniformly from the random stream: the `k`-th in increasing id
    /// order for a uniform `k` below their number (the game goes on: there is one).
    fn draw_action(&mut self, bits: &[u64]) -> usize {
        let mut k = draw(&mut self.rng, self.count) as u32;
        for (index, &word) in bits.iter().enumerate() {
            let here = word.count_ones();
            if k < here {
                return index * 64 + nth_bit(word, k) as usize;
            }
            k -= here;
        }
        unreachable!("the count of legal actions is the number of bits set")
    }

    /// Plays `mv` (legal: checked by [`Lanes::check`] before), starts again from `start` if
    /// the game ended, and writes the mover's reward, the done flag and the new position.
    fn step(
        &mut self,
        start: &G,
        mv: G::Move,
        mut legal: Legal<'_>,
        out: Out<'_>,
        scratch: &mut Vec<G::Move>,
    ) {
        let mover = self.game.to_move();
        self.game.play(mv);
        let status = self.game.status();
        out.rewards[0] = match status.winner() {
            Some(side) if side == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        out.dones[0] = status.is_over();
        if status.is_over() {
            self.restart(start, &mut legal, scratch);
        } else {
            match self.game.legal_moves_change(mv) {
                LegalMovesChange::Unchanged => {}
                LegalMovesChange::PlayedRemoved => {
                    let id = self.game.move_id(mv);
                    legal.mask[id] = false;
                    legal.bits[id / 64] &= !(1 << (id % 64));
                    self.count -= 1;
                }
                LegalMovesChange::Unknown => self.write_legal(&mut legal, scratch),
            }
        }
        self.write(legal.mask, out);
    }

    /// Writes the position's observation (unless `out.observations` is empty: the
    /// environment was made without them), its legal mask (`mask`) and the side to move.
    fn write(&self, mask: &[bool], out: Out<'_>) {
        if !out.observations.is_empty() {
            self.game.write_observation(out.observations);
        }
        out.masks.copy_from_slice(mask);
        out.to_move[0] = (self.game.to_move() == Side::Second) as i64;
    }
}

/// A run of the environment's games, stepped by one thread, their legal actions side by side
/// in two arrays (a step goes through the games in order).
struct Run<G: Game> {
    lanes: Vec<Lane<G>>,
    /// The lanes' legal masks, `actions` values each.
    masks: Vec<bool>,
    /// The lanes' legal bits, `words` words each.
    bits: Vec<u64>,
    actions: usize,
    words: usize,
}

impl<G: EvaluatedGame> Run<G> {
    /// Games from `start`, one per random stream of `rngs`.
    fn new(start: &G, rngs: impl Iterator<Item = ChaCha8Rng>) -> Self {
        let actions = start.move_id_bound();
        let words = actions.div_ceil(64);
        let lanes: Vec<Lane<G>> = rngs
            .map(|rng| Lane {
                game: start.clone(),
                count: 0,
                rng,
            })
            .collect();
        let mut run = Run {
            masks: vec![false; lanes.len() * actions],
            bits: vec![0; lanes.len() * words],
            lanes,
            actions,
            words,
        };
        let mut scratch = Vec::new();
        for (lane, mut legal) in run.iter_mut() {
            lane.write_legal(&mut legal, &mut scratch);
        }
        run
    }

    /// Each lane with its legal actions.
    fn iter_mut(&mut self) -> impl Iterator<Item = (&mut Lane<G>, Legal<'_>)> {
        let masks = self.masks.chunks_exact_mut(self.actions);
        let bits = self.bits.chunks_exact_mut(self.words);
        self.lanes
            .iter_mut()
            .zip(masks.zip(bits))
            .map(|(lane, (mask, bits))| (lane, Legal { mask, bits }))
    }

    /// A legal action of every game, drawn from its random stream, into `actions` (one per
    /// game).
    fn draw_actions(&mut self, actions: &mut [i64]) {
        for ((lane, legal), action) in self.iter_mut().zip(actions) {
            *action = lane.draw_action(legal.bits) as i64;
        }
    }

    /// The legal mask of lane `index`.
    fn mask(&self, index: usize) -> &[bool] {
        &self.masks[index * self.actions..(index + 1) * self.actions]
    }
}

/// The position of the `k`-th set bit of `word`, from the lowest (`k` below its count).
fn nth_bit(mut word: u64, k: u32) -> u32 {
    let mut at = 0;
    let mut k = k;
    for half in [32, 16, 8] {
        let low = (word & ((1u64 << half) - 1)).count_ones();
        if k >= low {
            k -= low;
            word >>= half;
            at += half;
        }
    }
    for _ in 0..k {
        word &= word - 1;
    }
    at + word.trailing_zeros()
}

/// A run of the environment's games, shared with the worker thread that steps it.
type Chunk<G> = Arc<Mutex<Run<G>>>;

/// Plays `moves` in the games of `run` (one each), writing into `out`.
fn step_chunk<G: EvaluatedGame>(
    run: &mut Run<G>,
    start: &G,
    moves: &[G::Move],
    mut out: Out<'_>,
    (observation, actions): (usize, usize),
) {
    let mut scratch = Vec::new();
    for ((lane, legal), &mv) in run.iter_mut().zip(moves) {
        let (one, rest) = out.split(1, observation, actions);
        lane.step(start, mv, legal, one, &mut scratch);
        out = rest;
    }
}

/// What a worker is asked to do with its chunk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Task {
    /// Play `Job::moves` and write `Job::out`.
    Step,
    /// Draw a legal action in every game into `Job::actions`.
    Draw,
}

/// A worker's task, what it reads and the buffers it writes, passed to it and back.
struct Job<M> {
    task: Task,
    /// The chunk's moves of a step, checked.
    moves: Vec<M>,
    /// The chunk's actions drawn.
    actions: Vec<i64>,
    /// A step's values. Between tasks, `out.masks` holds the chunk's legal masks as the last
    /// step (or reset) left them: the caller checks a step's actions against them.
    out: Buffers,
}

/// How long a thread waiting for its counterpart polls before it sleeps: the next job (or the
/// worker's answer) usually comes within microseconds, and waking a sleeping thread costs more.
const SPIN: Duration = Duration::from_micros(50);

/// The next message of `channel`: polled for [`SPIN`], then waited for. `None` once the
/// channel is closed.
fn receive<T>(channel: &mpsc::Receiver<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            match channel.try_recv() {
                Ok(message) => return Some(message),
                Err(mpsc::TryRecvError::Disconnected) => return None,
                Err(mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() >= SPIN {
            return channel.recv().ok();
        }
    }
}

/// A thread kept for the environment's life, stepping one chunk of its games when it is sent
/// a job; it ends when its job channel closes.
struct Worker<M> {
    jobs: Option<mpsc::Sender<Job<M>>>,
    /// (In a mutex only for the environment to be `Sync`: one thread steps it at a time.)
    done: Mutex<mpsc::Receiver<Job<M>>>,
    /// The job's buffers while the worker waits.
    idle: Option<Job<M>>,
    thread: Option<JoinHandle<()>>,
}

impl<M> Drop for Worker<M> {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The games of an environment, of one concrete game type, in chunks: the first stepped on
/// the caller's thread, each other one by a worker thread of its own, kept across steps.
struct Lanes<G: EvaluatedGame> {
    start: Arc<G>,
    chunks: Vec<Chunk<G>>,
    /// The number of games in each chunk.
    sizes: Vec<usize>,
    /// `workers[i]` steps `chunks[i + 1]`.
    workers: Vec<Worker<G::Move>>,
    /// By action id: the move it names, if any (from [`Game::all_moves`]).
    moves: Vec<Option<G::Move>>,
    /// The moves of the step being played, one per game, once checked.
    pending: Vec<G::Move>,
    /// Values of one game's observation: 0 when the environment makes none.
    observation: usize,
    actions: usize,
}

/// The error of an environment whose worker thread failed (a fault inside zerosum).
const WORKER_FAILED: &str = "a thread of the environment failed: the environment cannot step";

/// The games of a chunk, or the error of a chunk whose worker failed while stepping it.
fn lock<G: EvaluatedGame>(chunk: &Chunk<G>) -> Result<MutexGuard<'_, Run<G>>, String> {
    chunk.lock().map_err(|_| WORKER_FAILED.to_string())
}

impl<G: EvaluatedGame> Lanes<G> {
    /// `games` games from `start` in `threads` chunks (fewer if there are fewer games), with a
    /// worker thread for every chunk but the first.
    fn new(start: G, games: usize, seed: u64, threads: usize, observation: usize) -> Self {
        let per_chunk = games.div_ceil(threads.max(1));
        let sizes: Vec<usize> = (0..games)
            .step_by(per_chunk)
            .map(|first| per_chunk.min(games - first))
            .collect();
        let mut next = 0u64;
        let chunks: Vec<Chunk<G>> = sizes
            .iter()
            .map(|&size| {
                let rngs = (0..size).map(|_| {
                    next += 1;
                    stream(seed.wrapping_add(next - 1))
                });
                Arc::new(Mutex::new(Run::new(&start, rngs)))
            })
            .collect();
        let mut all = Vec::new();
        start.all_moves(&mut all);
        let mut moves = vec![None; start.move_id_bound()];
        for mv in all {
            moves[start.move_id(mv)] = Some(mv);
        }
        let actions = start.move_id_bound();
        let start = Arc::new(start);
        let workers = chunks[1..]
            .iter()
            .zip(&sizes[1..])
            .map(|(chunk, &size)| {
                let (jobs, inbox) = mpsc::channel::<Job<G::Move>>();
                let (outbox, done) = mpsc::channel();
                let mut out = Buffers::new(size, observation, actions);
                if let Ok(run) = chunk.lock() {
                    out.masks.copy_from_slice(&run.masks);
                }
                let (chunk, start) = (Arc::clone(chunk), Arc::clone(&start));
                let thread = std::thread::spawn(move || {
                    while let Some(mut job) = receive(&inbox) {
                        let Ok(mut run) = chunk.lock() else {
                            return;
                        };
                        match job.task {
                            Task::Step => {
                                let out = job.out.out();
                                let shape = (observation, actions);
                                step_chunk(&mut run, &start, &job.moves, out, shape);
                            }
                            Task::Draw => run.draw_actions(&mut job.actions),
                        }
                        drop(run);
                        if outbox.send(job).is_err() {
                            return;
                        }
                    }
                });
                Worker {
                    jobs: Some(jobs),
                    done: Mutex::new(done),
                    idle: Some(Job {
                        task: Task::Step,
                        moves: Vec::with_capacity(size),
                        actions: vec![0; size],
                        out,
                    }),
                    thread: Some(thread),
                }
            })
            .collect();
        Lanes {
            start,
            chunks,
            sizes,
            workers,
            moves,
            pending: Vec::with_capacity(games),
            observation,
            actions,
        }
    }

    /// The move whose id is `action`, legal in the game whose legal mask is `mask`, or why
    /// there is none (`reason` says why a move the mask refuses is not legal).
    fn legal_move(
        &self,
        mask: &[bool],
        action: i64,
        reason: impl FnOnce(G::Move) -> Result<&'static str, String>,
    ) -> Result<G::Move, String> {
        let bound = self.actions;
        let Some(&named) = usize::try_from(action)
            .ok()
            .and_then(|action| self.moves.get(action))
        else {
            return Err(format!(
                "action {action} is out of range: actions run from 0 to {}",
                bound - 1
            ));
        };
        let Some(mv) = named else {
            return Err(format!("action {action} is not legal: no move has this id"));
        };
        if mask[self.start.move_id(mv)] {
            return Ok(mv);
        }
        Err(format!("action {action} is not legal: {}", reason(mv)?))
    }

    /// Checks every action (the first bad one is the error, by game) into `pending`: the
    /// caller's own chunk against its games' masks, each worker's against the masks it sent
    /// back with its last step (the worker's games stay in its core's cache).
    fn check(&self, actions: &[i64], pending: &mut Vec<G::Move>) -> Result<(), String> {
        pending.clear();
        for (number, chunk) in self.chunks.iter().enumerate() {
            let first = pending.len();
            if number == 0 {
                let run = lock(chunk)?;
                for (at, lane) in run.lanes.iter().enumerate() {
                    let reason = |mv| Ok(reason_of(&lane.game, mv));
                    let mv = self.check_one(run.mask(at), actions[first + at], first + at, reason);
                    pending.push(mv?);
                }
            } else {
                let job = self.workers[number - 1].idle.as_ref();
                let masks = job
                    .ok_or(WORKER_FAILED)?
                    .out
                    .masks
                    .chunks_exact(self.actions);
                for (at, mask) in masks.enumerate() {
                    let reason = |mv| Ok(reason_of(&lock(chunk)?.lanes[at].game, mv));
                    pending.push(self.check_one(mask, actions[first + at], first + at, reason)?);
                }
            }
        }
        Ok(())
    }

    /// The move of game `index`'s action, checked by [`Lanes::legal_move`].
    fn check_one(
        &self,
        mask: &[bool],
        action: i64,
        index: usize,
        reason: impl FnOnce(G::Move) -> Result<&'static str, String>,
    ) -> Result<G::Move, String> {
        self.legal_move(mask, action, reason)
            .map_err(|problem| match problem.as_str() {
                WORKER_FAILED => problem,
                _ => format!("game {index}: {problem}"),
            })
    }

    /// Sends every worker its task (for a step, its chunk's part of `pending`).
    fn send_tasks(&mut self, task: Task, pending: &[G::Move]) -> Result<(), String> {
        let mut first = self.sizes[0];
        for (worker, &size) in self.workers.iter_mut().zip(&self.sizes[1..]) {
            let mut job = worker.idle.take().ok_or(WORKER_FAILED)?;
            job.task = task;
            job.moves.clear();
            if task == Task::Step {
                job.moves.extend_from_slice(&pending[first..first + size]);
            }
            let jobs = worker.jobs.as_ref().ok_or(WORKER_FAILED)?;
            jobs.send(job).map_err(|_| WORKER_FAILED)?;
            first += size;
        }
        Ok(())
    }

    /// Waits for every worker's answer, in order, and hands each to `answer` (with the
    /// number of games of its chunk) before keeping it for the next task.
    fn receive_answers(
        &mut self,
        mut answer: impl FnMut(&mut Job<G::Move>, usize),
    ) -> Result<(), String> {
        for (worker, &size) in self.workers.iter_mut().zip(&self.sizes[1..]) {
            let done = worker.done.lock().map_err(|_| WORKER_FAILED)?;
            let mut job = receive(&done).ok_or(WORKER_FAILED)?;
            drop(done);
            answer(&mut job, size);
            worker.idle = Some(job);
        }
        Ok(())
    }

    /// Plays the checked moves `pending`: each worker's chunk sent to it, the first chunk on
    /// this thread, then the workers' buffers copied into `out`.
    fn play(&mut self, pending: &[G::Move], out: Out<'_>) -> Result<(), String> {
        let shape = (self.observation, self.actions);
        self.send_tasks(Task::Step, pending)?;
        let (own, mut rest) = out.split(self.sizes[0], shape.0, shape.1);
        step_chunk(
            &mut *lock(&self.chunks[0])?,
            &*self.start,
            &pending[..self.sizes[0]],
            own,
            shape,
        );
        self.receive_answers(|job, size| {
            let (theirs, others) = std::mem::take(&mut rest).split(size, shape.0, shape.1);
            theirs.copy_from(job.out.out());
            rest = others;
        })
    }
}

/// Why `mv` is not legal in `game` (whose mask refused it).
fn reason_of<G: Game>(game: &G, mv: G::Move) -> &'static str {
    game.illegal_reason(mv).unwrap_or("the game is over")
}

/// The environment's face, whatever the game.
trait Batch: Send + Sync {
    fn len(&self) -> usize;
    fn grid(&self) -> (usize, usize);
    fn action_count(&self) -> usize;
    /// Checks every action before any is played (the first bad one is the error, by game);
    /// then plays one action in every game and writes what follows.
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> PyResult<()>;
    /// Starts every game again and writes the starting positions (rewards and dones 0).
    fn reset(&mut self, out: Out<'_>) -> Result<(), String>;
    /// Draws a legal action in every game from its random stream.
    fn sample(&mut self, out: &mut [i64]) -> Result<(), String>;
    /// Game `index` (below `len`) as a lone `Game`.
    fn game(&self, index: usize) -> Result<PyGame, String>;
}

impl<G: EvaluatedGame> Batch for Lanes<G> {
    fn len(&self) -> usize {
        self.sizes.iter().sum()
    }

    fn grid(&self) -> (usize, usize) {
        self.start.observation_grid()
    }

    fn action_count(&self) -> usize {
        self.actions
    }

    /// A bad action is a `ValueError`; a failed worker thread an `InternalError`.
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> PyResult<()> {
        let mut pending = std::mem::take(&mut self.pending);
        let played = match self.check(actions, &mut pending) {
            Err(problem) if problem == WORKER_FAILED => Err(internal_error(problem)),
            Err(problem) => Err(value_error(problem)),
            Ok(()) => self.play(&pending, out).map_err(internal_error),
        };
        self.pending = pending;
        played
    }

    fn reset(&mut self, mut out: Out<'_>) -> Result<(), String> {
        out.rewards.fill(0.0);
        out.dones.fill(false);
        let mut scratch = Vec::new();
        for (number, chunk) in self.chunks.iter().enumerate() {
            let mut run = lock(chunk)?;
            for (lane, mut legal) in run.iter_mut() {
                lane.restart(&self.start, &mut legal, &mut scratch);
                let (one, rest) = out.split(1, self.observation, self.actions);
                lane.write(legal.mask, one);
                out = rest;
            }
            if number > 0 {
                let job = self.workers[number - 1].idle.as_mut();
                job.ok_or(WORKER_FAILED)?
                    .out
                    .masks
                    .copy_from_slice(&run.masks);
            }
        }
        Ok(())
    }

    /// Each chunk's games draw on the thread that steps them.
    fn sample(&mut self, out: &mut [i64]) -> Result<(), String> {
        self.send_tasks(Task::Draw, &[])?;
        let (own, mut rest) = out.split_at_mut(self.sizes[0]);
        lock(&self.chunks[0])?.draw_actions(own);
        self.receive_answers(|job, size| {
            let (theirs, others) = std::mem::take(&mut rest).split_at_mut(size);
            theirs.copy_from_slice(&job.actions);
            rest = others;
        })
    }

    fn game(&self, index: usize) -> Result<PyGame, String> {
        let mut at = index;
        for (chunk, &size) in self.chunks.iter().zip(&self.sizes) {
            if at < size {
                let game = lock(chunk)?.lanes[at].game.clone();
                return Ok(PyGame {
                    game: Box::new(DynAdapter(game)),
                });
            }
            at -= size;
        }
        Err(format!("game {index} is out of range"))
    }
}

/// Builds the lanes of `games` games of a spec.
struct Build {
    games: usize,
    seed: u64,
    threads: usize,
    /// Whether steps write observations.
    observations: bool,
}

impl GameVisitor for Build {
    type Output = Box<dyn Batch>;

    fn visit<G: EvaluatedGame>(self, start: G) -> Box<dyn Batch> {
        let (rows, cols) = start.observation_grid();
        let observation = if self.observations {
            PLANES * rows * cols
        } else {
            0
        };
        Box::new(Lanes::new(
            start,
            self.games,
            self.seed,
            self.threads,
            observation,
        ))
    }
}

/// What a step returns, as owned buffers until they become numpy arrays.
struct Buffers {
    observations: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
    to_move: Vec<i64>,
}

impl Buffers {
    fn new(games: usize, observation: usize, actions: usize) -> Self {
        Buffers {
            observations: vec![0.0; games * observation],
            masks: vec![false; games * actions],
            rewards: vec![0.0; games],
            dones: vec![false; games],
            to_move: vec![0; games],
        }
    }

    fn out(&mut self) -> Out<'_> {
        Out {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            dones: &mut self.dones,
            to_move: &mut self.to_move,
        }
    }
}

/// The arrays of one step.
type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<bool>>,
);

/// N games of one spec stepped together.
///
/// `VectorEnv(spec, num_games, seed=0, threads=1, observations=True)`. `step(actions)` plays
/// one action id in every game and returns `(observations, rewards, dones, legal_masks)`:
/// observations of shape `(N, 3, rows, cols)` (float32; `None` if the environment was made
/// with `observations=False`, for agents that read the games otherwise or not at all), each
/// game's reward for the player who just moved (+1 win, -1 loss, 0 otherwise; float32),
/// whether the move ended the game (bool), and the legal actions (bool, `(N, action_count)`).
/// A game that ends starts again at once: its observation and mask are the new game's.
/// `to_move` holds each game's side to move.
#[pyclass(name = "VectorEnv", module = "zerosum")]
pub struct PyVectorEnv {
    batch: Box<dyn Batch>,
    threads: usize,
    spec: String,
    /// Whether steps return observations.
    observations: bool,
    /// The side to move in each game after the last step or reset.
    to_move: Vec<i64>,
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (spec, num_games, seed = 0, threads = 1, observations = true))]
    fn new(
        spec: &str,
        num_games: usize,
        seed: u64,
        threads: usize,
        observations: bool,
    ) -> PyResult<Self> {
        if !(1..=MAX_GAMES).contains(&num_games) {
            return Err(value_error(format!(
                "num_games must be between 1 and {MAX_GAMES}, not {num_games}"
            )));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(value_error(format!(
                "threads must be between 1 and {MAX_THREADS}, not {threads}"
            )));
        }
        let spec = parse_spec(spec)?;
        let batch = guarded(|| {
            visit_game(
                &spec,
                Build {
                    games: num_games,
                    seed,
                    threads,
                    observations,
                },
            )
            .map_err(spec_error)
        })?;
        Ok(PyVectorEnv {
            to_move: vec![0; num_games],
            batch,
            threads,
            spec: spec.to_string(),
            observations,
        })
    }

    /// The canonical spec of the games.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The number of games.
    #[getter]
    fn num_games(&self) -> usize {
        self.batch.len()
    }

    /// The number of threads a step uses.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Whether steps return observations (the `observations` argument).
    #[getter]
    fn observations(&self) -> bool {
        self.observations
    }

    /// The shape of one game's observation: `(3, rows, cols)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let (rows, cols) = self.batch.grid();
        (PLANES, rows, cols)
    }

    /// The length of a legal mask: the number of action ids.
    #[getter]
    fn action_count(&self) -> usize {
        self.batch.action_count()
    }

    /// Each game's side to move (0 or 1), as an int64 array.
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_slice(py, &self.to_move)
    }

    /// Starts every game again; returns `(observations, legal_masks)` (`observations` is
    /// `None` in an environment made without them).
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray2<bool>>)> {
        let mut buffers = self.buffers();
        let batch = &mut self.batch;
        py.detach(|| guarded(|| batch.reset(buffers.out()).map_err(internal_error)))?;
        let (observations, _, _, masks) = self.arrays(py, buffers)?;
        Ok((observations, masks))
    }

    /// Plays `actions` (one action id per game: a sequence or an integer array of shape
    /// `(N,)`); returns `(observations, rewards, dones, legal_masks)`. An action out of range
    /// or not legal raises `ValueError` naming the game, and no game moves.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = read_actions(actions, self.batch.len())?;
        let mut buffers = self.buffers();
        let batch = &mut self.batch;
        py.detach(|| guarded(|| batch.step(&actions, buffers.out())))?;
        self.arrays(py, buffers)
    }

    /// A uniformly random legal action in every game, from each game's random stream.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut actions = vec![0i64; self.batch.len()];
        let batch = &mut self.batch;
        py.detach(|| guarded(|| batch.sample(&mut actions).map_err(internal_error)))?;
        Ok(PyArray1::from_vec(py, actions))
    }

    /// Game `index` as a lone `Game` (a copy).
    fn game(&self, index: usize) -> PyResult<PyGame> {
        if index >= self.batch.len() {
            return Err(value_error(format!(
                "game {index} is out of range: the environment has {} games",
                self.batch.len()
            )));
        }
        self.batch.game(index).map_err(internal_error)
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }
}

impl PyVectorEnv {
    fn buffers(&self) -> Buffers {
        let (rows, cols) = self.batch.grid();
        let observation = if self.observations {
            PLANES * rows * cols
        } else {
            0
        };
        Buffers::new(self.batch.len(), observation, self.batch.action_count())
    }

    /// The buffers of a step as numpy arrays (moved, not copied); keeps the sides to move.
    fn arrays<'py>(&mut self, py: Python<'py>, buffers: Buffers) -> PyResult<StepArrays<'py>> {
        let games = self.batch.len();
        let (rows, cols) = self.batch.grid();
        self.to_move.copy_from_slice(&buffers.to_move);
        let observations = if self.observations {
            PyArray1::from_vec(py, buffers.observations)
                .reshape([games, PLANES, rows, cols])?
                .into_any()
        } else {
            py.None().into_bound(py)
        };
        let masks =
            PyArray1::from_vec(py, buffers.masks).reshape([games, self.batch.action_count()])?;
        Ok((
            observations,
            PyArray1::from_vec(py, buffers.rewards),
            PyArray1::from_vec(py, buffers.dones),
            masks,
        ))
    }
}

/// The actions of a step: an integer numpy array of shape `(games,)` or a sequence of ints.
fn read_actions(actions: &Bound<'_, PyAny>, games: usize) -> PyResult<Vec<i64>> {
    let values: Vec<i64> = if let Ok(array) = actions.cast::<PyUntypedArray>() {
        if array.shape() != [games] {
            return Err(value_error(format!(
                "actions must have shape ({games},), not {:?}",
                array.shape()
            )));
        }
        let kind = array.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(value_error(format!(
                "actions must be integers, not an array of dtype {}",
                array.dtype()
            )));
        }
        // An int64 array (what `sample_actions` returns) is read as it is; others converted.
        let array = match actions.extract::<numpy::PyReadonlyArray1<i64>>() {
            Ok(array) => array,
            Err(_) => actions
                .call_method1("astype", ("int64",))?
                .extract::<numpy::PyReadonlyArray1<i64>>()?,
        };
        match array.as_slice() {
            Ok(values) => values.to_vec(),
            Err(_) => array.as_array().to_vec(),
        }
    } else {
        actions
            .extract()
            .map_err(|_| value_error("actions must be a sequence of ints or an integer array"))?
    };
    if values.len() != games {
        return Err(value_error(format!(
            "actions must hold one action per game ({games}), not {}",
            values.len()
        )));
    }
    Ok(values)
}

/// Chooses uniformly among the legal actions of a `Game`, from a seeded random stream: the
/// draws `VectorEnv(seed=s)` makes for its game `i` when seeded with `s + i`.
#[pyclass(name = "RandomPlayer", module = "zerosum")]
pub struct PyRandomPlayer {
    rng: ChaCha8Rng,
}

#[pymethods]
impl PyRandomPlayer {
    #[new]
    #[pyo3(signature = (seed = 0))]
    fn new(seed: u64) -> Self {
        PyRandomPlayer { rng: stream(seed) }
    }

    /// A legal action of `game`, drawn uniformly: the `k`-th legal action id in increasing
    /// order for a uniform `k` (`ValueError` if the game is over).
    fn choose(&mut self, game: &PyGame) -> PyResult<usize> {
        let mut actions = game.game.legal_actions();
        actions.sort_unstable();
        if actions.is_empty() {
            return Err(value_error(
                "the game is over: there is no action to choose",
            ));
        }
        Ok(actions[draw(&mut self.rng, actions.len())])
    }
}
