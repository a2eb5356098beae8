//! A tournament's settings as the user gave them (players and games as text), checked and
//! turned into a runnable [`Tournament`]. The settings are what a record file's header keeps,
//! so a killed tournament resumes with exactly the same schedule.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use zerosum_games::GameSpec;

use crate::clock::TimeControl;
use crate::openings::OpeningSettings;
use crate::players::table_budget::has_solver_table;
use crate::players::{PlayerKind, PlayerSpec};
use crate::referee::RefereeOptions;
use crate::statistics::scoring::Scoring;
use crate::statistics::sprt::SprtParams;
use crate::tournament::{gauntlet, match_games, round_robin, Entrant, Tournament};

/// Most games a schedule may hold.
const MAX_GAMES: usize = 10_000_000;

/// How the games are scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Every pair, every configuration, both colours, `rounds` times.
    RoundRobin { rounds: usize },
    /// Two players, `games` games on the first configuration, colours alternating.
    Match { games: usize },
    /// The first player against each other player, every configuration, both colours,
    /// `rounds` times (cutechess's `-tournament gauntlet`).
    Gauntlet { rounds: usize },
}

/// Everything that decides which games a tournament plays and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSettings {
    /// Player specs (`engine:time=0.5`, `quasi`, ...).
    pub players: Vec<String>,
    /// Game specs, in playing order.
    pub games: Vec<String>,
    pub format: Format,
    pub time: TimeControl,
    /// Adjudicate a draw after this many moves.
    pub max_moves: Option<usize>,
    /// End a game once a solver proves its result within this many nodes per position.
    #[serde(default)]
    pub adjudicate_nodes: Option<u64>,
    /// Scoring scheme name.
    pub scoring: String,
    /// SPRT parameters (`elo0=0,elo1=5,alpha=0.05,beta=0.05`), two-player matches only.
    pub sprt: Option<String>,
    /// Seed of all the players' randomness (and of the openings' random order).
    pub seed: u64,
    /// The opening suite the games start from, each opening played by a colour-swapped pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningSettings>,
}

/// Settings that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

impl TournamentSettings {
    /// The settings of a tournament of `players` (player specs) over `games` (game specs, in
    /// playing order), scheduled as `format`, under `time`, its players' randomness seeded by
    /// `seed`; the rest as the command line has it by default: no move limit, no
    /// adjudication, `cx` scoring, no SPRT, no openings (the setters below change them).
    /// Nothing is checked here: [`TournamentSettings::prepare`] checks.
    pub fn new(
        players: Vec<String>,
        games: Vec<String>,
        format: Format,
        time: TimeControl,
        seed: u64,
    ) -> TournamentSettings {
        TournamentSettings {
            players,
            games,
            format,
            time,
            max_moves: None,
            adjudicate_nodes: None,
            scoring: "cx".into(),
            sprt: None,
            seed,
            openings: None,
        }
    }

    /// The settings with a draw adjudicated after `max_moves` moves, if given.
    pub fn max_moves(self, max_moves: Option<usize>) -> Self {
        TournamentSettings { max_moves, ..self }
    }

    /// The settings with games ended once a solver proves their result within
    /// `adjudicate_nodes` nodes per position, if given.
    pub fn adjudicate_nodes(self, adjudicate_nodes: Option<u64>) -> Self {
        TournamentSettings {
            adjudicate_nodes,
            ..self
        }
    }

    /// The settings scored by the scheme named `scoring` (checked by
    /// [`TournamentSettings::scoring_scheme`]).
    pub fn scoring(self, scoring: impl Into<String>) -> Self {
        TournamentSettings {
            scoring: scoring.into(),
            ..self
        }
    }

    /// The settings with the SPRT `sprt` (`elo0=0,elo1=5,alpha=0.05,beta=0.05`), if given.
    pub fn sprt(self, sprt: Option<String>) -> Self {
        TournamentSettings { sprt, ..self }
    }

    /// The settings with their games started from the opening suite `openings`, if given.
    pub fn openings(self, openings: Option<OpeningSettings>) -> Self {
        TournamentSettings { openings, ..self }
    }

    /// The player names, made unique: a name already taken gets `-2`, `-3`... (the first
    /// suffix no other entrant has).
    fn names(specs: &[PlayerSpec]) -> Vec<String> {
        let wanted: Vec<String> = specs.iter().map(PlayerSpec::display_name).collect();
        let mut taken: HashSet<String> = HashSet::new();
        wanted
            .iter()
            .enumerate()
            .map(|(index, name)| {
                // A later entrant's own name stays its own.
                let reserved = |candidate: &String| wanted[index + 1..].contains(candidate);
                let mut unique = name.clone();
                let mut count = 1;
                while taken.contains(&unique) || (count > 1 && reserved(&unique)) {
                    count += 1;
                    unique = format!("{name}-{count}");
                }
                taken.insert(unique.clone());
                unique
            })
            .collect()
    }

    /// The scoring scheme the settings name.
    pub fn scoring_scheme(&self) -> Result<Scoring, SettingsError> {
        self.scoring
            .parse()
            .map_err(|e: crate::statistics::scoring::UnknownScoring| SettingsError(e.to_string()))
    }

    /// The SPRT the settings ask for, if any.
    pub fn sprt_params(&self) -> Result<Option<SprtParams>, SettingsError> {
        self.sprt
            .as_deref()
            .map(|text| {
                text.parse::<SprtParams>()
                    .map_err(|e| SettingsError(e.to_string()))
            })
            .transpose()
    }

    /// How many games the schedule holds, counted without building it; an error when it
    /// would hold none or more than the most a schedule may (10,000,000), or when a match is
    /// not between two players.
    pub fn game_count(&self) -> Result<usize, SettingsError> {
        let players = self.players.len();
        match self.format {
            Format::RoundRobin { rounds } | Format::Gauntlet { rounds } => {
                if rounds == 0 {
                    return Err(SettingsError("--rounds must be at least 1".into()));
                }
                let pairs = match self.format {
                    Format::Gauntlet { .. } => players.saturating_sub(1),
                    _ => players * players.saturating_sub(1) / 2,
                };
                rounds
                    .checked_mul(self.games.len())
                    .and_then(|n| n.checked_mul(pairs))
                    .and_then(|n| n.checked_mul(2))
                    .filter(|total| *total <= MAX_GAMES)
                    .ok_or_else(|| {
                        SettingsError(format!(
                            "the schedule would hold more than {MAX_GAMES} games"
                        ))
                    })
            }
            Format::Match { games } => {
                if players != 2 {
                    return Err(SettingsError(format!(
                        "a match is between two players, not {players}"
                    )));
                }
                if !(1..=MAX_GAMES).contains(&games) {
                    return Err(SettingsError(format!(
                        "--games must be between 1 and {MAX_GAMES}, not {games}"
                    )));
                }
                Ok(games)
            }
        }
    }

    /// Checks the settings and builds the tournament, `concurrency` games at a time.
    pub fn prepare(&self, concurrency: usize) -> Result<Tournament, SettingsError> {
        self.build(concurrency, PlayersCheck::Start)
    }

    /// The tournament as [`TournamentSettings::prepare`] builds it (one game at a time), without
    /// checking that its players can start on this machine: to check and score records of its
    /// games played elsewhere (`zerosum merge`).
    pub fn prepare_for_records(&self) -> Result<Tournament, SettingsError> {
        self.build(1, PlayersCheck::Skip)
    }

    fn build(&self, concurrency: usize, check: PlayersCheck) -> Result<Tournament, SettingsError> {
        let specs: Vec<PlayerSpec> = self
            .players
            .iter()
            .map(|text| text.parse().map_err(|e| SettingsError(format!("{e}"))))
            .collect::<Result<_, _>>()?;
        for spec in specs.iter().filter(|_| check == PlayersCheck::Start) {
            // Java course players need a JDK and the adapter compiled: say so before any game.
            if let PlayerKind::Java(player) = &spec.kind {
                player.command().map_err(SettingsError)?;
            }
        }
        if specs.len() < 2 {
            return Err(SettingsError(format!(
                "a tournament needs at least two players, not {}",
                specs.len()
            )));
        }
        let games: Vec<GameSpec> = self
            .games
            .iter()
            .map(|text| text.parse().map_err(|e| SettingsError(format!("{e}"))))
            .collect::<Result<_, _>>()?;
        if games.is_empty() {
            return Err(SettingsError("no games to play".into()));
        }
        self.time
            .validate()
            .map_err(|e| SettingsError(e.to_string()))?;
        if !(1..=1024).contains(&concurrency) {
            return Err(SettingsError(format!(
                "--concurrency must be between 1 and 1024, not {concurrency}"
            )));
        }
        check_tables(&specs, &games, concurrency)?;
        if self.max_moves == Some(0) {
            return Err(SettingsError("--maxmoves must be at least 1".into()));
        }
        if self.adjudicate_nodes == Some(0) {
            return Err(SettingsError(
                "--adjudicate-nodes must be at least 1".into(),
            ));
        }
        if check == PlayersCheck::Start {
            check_players_start(&specs, &games, &self.time)?;
        }
        self.game_count()?;
        let mut schedule = match self.format {
            Format::RoundRobin { rounds } => round_robin(specs.len(), &games, rounds, self.seed),
            Format::Gauntlet { rounds } => gauntlet(specs.len(), &games, rounds, self.seed),
            Format::Match { games: count } => match_games(&games[0], count, self.seed),
        };
        self.scoring_scheme()?;
        self.sprt_params()?;
        if self.sprt.is_some() && specs.len() != 2 {
            return Err(SettingsError("--sprt needs exactly two players".into()));
        }
        if let (Some(_), Format::Match { games }) = (&self.sprt, self.format) {
            if games % 2 == 1 {
                return Err(SettingsError(format!(
                    "--sprt counts colour-swapped pairs of games: --games must be even, not {games}"
                )));
            }
        }
        let openings = match &self.openings {
            None => Vec::new(),
            Some(settings) => {
                let [spec] = games.as_slice() else {
                    return Err(SettingsError(format!(
                        "--openings is for one game, but the tournament plays {}",
                        games.len()
                    )));
                };
                let openings = settings
                    .load(spec)
                    .map_err(|e| SettingsError(e.to_string()))?;
                // Pair p (both its games) takes the p-th opening of the order.
                let pairs = schedule.iter().map(|game| game.pair + 1).max().unwrap_or(0);
                let assigned = settings.order.assign(openings.len(), pairs, self.seed);
                for game in &mut schedule {
                    game.opening = Some(assigned[game.pair]);
                }
                openings.lines
            }
        };
        let entrants = specs
            .iter()
            .zip(Self::names(&specs))
            .map(|(spec, name)| Entrant::from_spec(spec, name))
            .collect();
        Ok(Tournament {
            entrants,
            games: schedule,
            options: RefereeOptions {
                time: self.time,
                max_moves: self.max_moves,
                adjudicate_nodes: self.adjudicate_nodes,
            },
            concurrency,
            observer: None,
            openings,
        })
    }
}

/// Whether building a tournament checks that its players start on this machine.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PlayersCheck {
    Start,
    Skip,
}

/// Checks, before any game, that every player can start: an external engine's program is
/// there and executable; a Java course player's class is found on its classpath and plays each
/// of `games` (one start of the adapter per game); the built-in engine's evaluation (`eval=`,
/// `weights=`) can be built for each of `games`. The error names the player by its number and
/// its spec: `player 2 (cmd=./mybot): cannot start ./mybot: No such file or directory`.
fn check_players_start(
    specs: &[PlayerSpec],
    games: &[GameSpec],
    time: &TimeControl,
) -> Result<(), SettingsError> {
    for (index, spec) in specs.iter().enumerate() {
        let failure = match &spec.kind {
            PlayerKind::External(engine) => engine.check_program().err(),
            PlayerKind::Java(player) => games
                .iter()
                .find_map(|game| player.check_starts(game, time).err()),
            PlayerKind::Engine(settings) => games
                .iter()
                .find_map(|game| settings.check_evaluation(game).err()),
            _ => None,
        };
        if let Some(failure) = failure {
            return Err(SettingsError(format!(
                "player {} ({spec}): {failure}",
                index + 1
            )));
        }
    }
    Ok(())
}

/// Checks that the engines' tables of `concurrency` games at once fit in memory: each game has
/// at most two engines, counted at the largest table asked for; on a Connect-X board that the
/// exact solver fits, each engine has a second table of that size, its solver's.
fn check_tables(
    specs: &[PlayerSpec],
    games: &[GameSpec],
    concurrency: usize,
) -> Result<(), SettingsError> {
    let tables: Vec<usize> = specs
        .iter()
        .filter_map(|spec| match &spec.kind {
            PlayerKind::Engine(settings) => Some(settings.hash_mb),
            _ => None,
        })
        .collect();
    let Some(&largest) = tables.iter().max() else {
        return Ok(());
    };
    let solved = games.iter().any(has_solver_table);
    let per_game = tables.len().min(2) * if solved { 2 } else { 1 };
    zerosum_search::check_table_mb(largest, per_game * concurrency)
        .map_err(|error| SettingsError(format!("{error} (--concurrency {concurrency})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(players: &[&str]) -> Vec<String> {
        let specs: Vec<PlayerSpec> = players.iter().map(|p| p.parse().unwrap()).collect();
        TournamentSettings::names(&specs)
    }

    #[test]
    fn external_players_are_named_by_their_program_and_names_stay_unique() {
        assert_eq!(
            names(&[
                "cmd=./bots/mybot --fast,proto=gtp",
                "cmd=/opt/mybot,proto=gomocup",
                "java:course.players.Smart,cp=.",
                "cmd=./other,proto=gtp,name=Other Bot",
            ]),
            ["mybot", "mybot-2", "Smart", "Other Bot"]
        );
        assert_eq!(
            names(&["quasi", "quasi", "random:name=quasi-2", "engine:depth=3"]),
            ["quasi", "quasi-3", "quasi-2", "engine:depth=3"]
        );
    }
}
