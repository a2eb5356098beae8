//! The arena from Python: a Python function (or an object with a `choose` method) as a player
//! in our referee, and matches and tournaments through the arena's run
//! (`zerosum_arena::run::Run`): the same clocks, forfeits, records, standings, Elo and SPRT
//! as `zerosum match` and `zerosum tournament`. A Python player sits in a guest seat
//! (`guest:name=NAME` in the settings and the record).
//!
//! A Python player is asked for a move on the referee's thread, which takes the GIL for the
//! call: one that raises forfeits the game with the exception as the reason, one that returns
//! something that is not a legal move forfeits it as illegal, one that takes too long forfeits
//! it on time; the run goes on.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use zerosum_arena::clock::parse_clock;
use zerosum_arena::run::{Run, RunOptions, RunReport};
use zerosum_arena::{
    Format, GameSetup, MoveAnswer, MoveRequest, OpeningOrder, OpeningSettings, Player, PlayerError,
    Standings, TimeControl, TournamentSettings,
};
use zerosum_games::{new_game, GameSpec};

use crate::errors::{error, guarded, spec_error, value_error};
use crate::state::PyGame;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_tournament, m)?)?;
    Ok(())
}

/// A Python callable playing through the [`Player`] trait.
struct PythonPlayer {
    name: String,
    choose: Arc<Py<PyAny>>,
    spec: Option<GameSpec>,
}

impl Player for PythonPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.spec = Some(setup.spec.clone());
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let spec = self
            .spec
            .as_ref()
            .ok_or_else(|| PlayerError::Failed("asked for a move before a game".into()))?;
        let mut game =
            new_game(spec).map_err(|problem| PlayerError::Failed(problem.to_string()))?;
        for mv in request.moves.iter() {
            game.play(mv)
                .map_err(|problem| PlayerError::Failed(problem.to_string()))?;
        }
        Python::attach(|py| {
            let position = Py::new(
                py,
                PyGame {
                    game: game.clone_box(),
                },
            )
            .map_err(|problem| PlayerError::Failed(problem.to_string()))?;
            let answer = self
                .choose
                .call1(py, (position,))
                .map_err(|problem| PlayerError::Failed(format!("raised {problem}")))?;
            let answer = answer.bind(py);
            if let Ok(action) = answer.extract::<i64>() {
                let text = usize::try_from(action)
                    .ok()
                    .filter(|&a| a < game.action_count())
                    .and_then(|a| game.action_text(a))
                    .ok_or_else(|| {
                        PlayerError::Garbage(format!(
                            "returned action {action}, which names no move"
                        ))
                    })?;
                return Ok(MoveAnswer::new(text));
            }
            match answer.cast::<PyString>() {
                Ok(text) => Ok(MoveAnswer::new(text.to_string())),
                Err(_) => Err(PlayerError::Garbage(format!(
                    "returned {}, not a move (a string or an action id)",
                    answer
                        .repr()
                        .map(|r| r.to_string())
                        .unwrap_or_else(|_| "something".into())
                ))),
            }
        })
    }
}

/// A player of the Python list: a spec (text) or a Python player with its name.
enum Seat {
    Spec(String),
    Python { name: String, choose: Py<PyAny> },
}

/// Reads the list of players: text specs, and Python players (a callable, or an object with
/// a `choose` method) named by their `name` attribute, else their `__name__`, else their type.
fn seats(players: &Bound<'_, PyList>) -> PyResult<Vec<Seat>> {
    players
        .iter()
        .enumerate()
        .map(|(index, player)| {
            if let Ok(text) = player.extract::<String>() {
                return Ok(Seat::Spec(text));
            }
            let choose = match player.getattr("choose") {
                Ok(method) if method.is_callable() => method,
                _ if player.is_callable() => player.clone(),
                _ => {
                    return Err(value_error(format!(
                        "player {}: a player is a spec (text), a function of the position or \
                         an object with a choose method",
                        index + 1
                    )))
                }
            };
            let name = ["name", "__name__"]
                .iter()
                .find_map(|attribute| player.getattr(*attribute).ok()?.extract::<String>().ok())
                .or_else(|| player.get_type().name().ok().map(|n| n.to_string()))
                .unwrap_or_else(|| format!("python{}", index + 1));
            if name.is_empty() || name.contains([',', '=', ':']) || name.trim() != name {
                return Err(value_error(format!(
                    "player {}: the name `{name}` may not be empty or hold `,`, `=` or `:`",
                    index + 1
                )));
            }
            Ok(Seat::Python {
                name,
                choose: choose.unbind(),
            })
        })
        .collect()
}

/// No report: the run's results come back at its end.
struct Quiet;

impl RunReport for Quiet {}

/// `_run_tournament(players, games, format, count, time, tc, seed, max_moves, sprt, scoring,
/// record, concurrency, openings, order, plies)`: the arena's run of `players` (specs and
/// Python players) over the game specs `games`, scheduled as `format` (`match`: `count` games;
/// `round-robin` or `gauntlet`: `count` rounds), `time` seconds a move and/or the game clock
/// `tc` (as `--tc` reads it; 0.1 s a move when neither is given), from the opening suite
/// `openings` (one game spec) taken in `order` and cut to `plies` moves; returns its results
/// as JSON text (`zerosum.match` and `zerosum.tournament` read it).
#[pyfunction]
#[pyo3(name = "_run_tournament")]
#[allow(clippy::too_many_arguments)]
pub fn run_tournament(
    py: Python<'_>,
    players: &Bound<'_, PyList>,
    games: Vec<String>,
    format: &str,
    count: usize,
    time: Option<f64>,
    tc: Option<String>,
    seed: u64,
    max_moves: Option<usize>,
    sprt: Option<String>,
    scoring: &str,
    record: Option<PathBuf>,
    concurrency: usize,
    openings: Option<PathBuf>,
    order: &str,
    plies: Option<usize>,
) -> PyResult<String> {
    let seats = seats(players)?;
    let format = match format {
        "match" => Format::Match { games: count },
        "round-robin" => Format::RoundRobin { rounds: count },
        "gauntlet" => Format::Gauntlet { rounds: count },
        other => return Err(value_error(format!("unknown format `{other}`"))),
    };
    let control = time_control(time, tc.as_deref())?;
    let openings = match openings {
        None => None,
        Some(path) => {
            let [spec] = games.as_slice() else {
                return Err(value_error(format!(
                    "openings are for one game, but the tournament plays {}",
                    games.len()
                )));
            };
            let spec: GameSpec = spec.parse().map_err(spec_error)?;
            let order: OpeningOrder = order.parse().map_err(value_error)?;
            Some(OpeningSettings::read(&path, &spec, order, plies).map_err(error)?)
        }
    };
    let specs = seats
        .iter()
        .map(|seat| match seat {
            Seat::Spec(text) => text.clone(),
            Seat::Python { name, .. } => format!("guest:name={name}"),
        })
        .collect();
    let settings = TournamentSettings::new(specs, games, format, control, seed)
        .max_moves(max_moves)
        .sprt(sprt)
        .scoring(scoring)
        .openings(openings);
    let mut run = match &record {
        Some(path) => Run::start(
            settings,
            &RunOptions {
                concurrency: Some(concurrency),
                record: Some(path.clone()),
                label: "python".into(),
                ..RunOptions::default()
            },
        ),
        None => Run::unrecorded(settings, concurrency),
    }
    .map_err(error)?;
    for (index, seat) in seats.into_iter().enumerate() {
        if let Seat::Python { name, choose } = seat {
            let choose = Arc::new(choose);
            run.seat_guest(
                index,
                Arc::new(move || {
                    Box::new(PythonPlayer {
                        name: name.clone(),
                        choose: Arc::clone(&choose),
                        spec: None,
                    }) as Box<dyn Player>
                }),
            )
            .map_err(error)?;
        }
    }
    let names = run.names();
    let scoring = run.scoring();
    let played = py.detach(|| guarded(|| run.play(&mut Quiet).map_err(error)))?;
    let standings = Standings::compute(&names, &played.records, scoring).map_err(error)?;
    let results = serde_json::json!({
        "standings": standings,
        "table": standings.table(),
        "games": played.records,
        "sprt": played.verdict,
        "verdict": played.verdict.map(|status| status.verdict()),
        "record": played.record,
    });
    Ok(results.to_string())
}

/// The time control of `time` seconds a move and the game clock `tc` (cutechess's forms, as
/// `--tc` reads them); 0.1 s a move when neither is given.
fn time_control(time: Option<f64>, tc: Option<&str>) -> PyResult<TimeControl> {
    let mut control = match (time, tc) {
        (Some(seconds), _) if !(seconds.is_finite() && seconds > 0.0) => {
            return Err(value_error(format!(
                "time must be a positive number of seconds, not {seconds}"
            )))
        }
        (Some(seconds), _) => TimeControl::per_move(seconds),
        (None, Some(_)) => TimeControl::untimed(),
        (None, None) => TimeControl::per_move(0.1),
    };
    if let Some(text) = tc {
        let clock = parse_clock(text).map_err(|problem| value_error(format!("tc: {problem}")))?;
        control.base = Some(clock.base);
        control.increment = clock.increment;
        control.moves_per_period = clock.moves;
    }
    control
        .validate()
        .map_err(|problem| value_error(problem.to_string()))?;
    Ok(control)
}
