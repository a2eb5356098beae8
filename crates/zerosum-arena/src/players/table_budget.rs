//! Memory for the engines' tables of games that start and end at any time (the web page's
//! games and tournaments): each reserves what its engines' tables take for as long as it lives,
//! and a reservation that would take them all past half of physical memory (the rule
//! `zerosum tournament` applies to its concurrent games) is refused with the reason. While a
//! budget exists, the tables of engine players that are gone are freed rather than kept for
//! the next ones, so that what is reserved is what is held.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use zerosum_games::connect::{ConnectSpec, Packed};
use zerosum_games::GameSpec;
use zerosum_search::tables_share_mb;
pub use zerosum_search::PhysicalMemory;

use crate::players::{engine, PlayerKind, PlayerSpec};

/// Whether an engine playing `spec` holds a second table of its size, its exact solver's
/// (a Connect-X board that the solver fits).
pub fn has_solver_table(spec: &GameSpec) -> bool {
    spec.params::<ConnectSpec>()
        .is_some_and(|connect| Packed::<u128>::fits(connect.rows, connect.cols))
}

/// The tables (MB each) the engines among `players` hold in one game of `spec`: each engine's
/// table, and its solver's of the same size where it has one ([`has_solver_table`]).
pub fn game_tables<'a>(
    players: impl IntoIterator<Item = &'a PlayerSpec>,
    spec: &GameSpec,
) -> Vec<usize> {
    let copies = if has_solver_table(spec) { 2 } else { 1 };
    players
        .into_iter()
        .filter_map(|player| match &player.kind {
            PlayerKind::Engine(settings) => Some(settings.hash_mb),
            _ => None,
        })
        .flat_map(|mb| std::iter::repeat_n(mb, copies))
        .collect()
}

/// The tables (MB each) a tournament of `players` over `games`, one game at a time, holds at
/// most at once: those of its two largest engines, on the game that gives them the most.
pub fn tournament_tables(players: &[PlayerSpec], games: &[GameSpec]) -> Vec<usize> {
    let mut engines: Vec<&PlayerSpec> = players
        .iter()
        .filter(|player| matches!(player.kind, PlayerKind::Engine(_)))
        .collect();
    engines.sort_by_key(|player| match &player.kind {
        PlayerKind::Engine(settings) => std::cmp::Reverse(settings.hash_mb),
        _ => std::cmp::Reverse(0),
    });
    engines.truncate(2);
    games
        .iter()
        .map(|game| game_tables(engines.iter().copied(), game))
        .max_by_key(|tables| tables.iter().sum::<usize>())
        .unwrap_or_default()
}

/// The tables of every reservation together, against their limit.
pub struct TableBudget {
    /// The machine's memory (`None` where it cannot be read: nothing is refused then).
    memory: Option<PhysicalMemory>,
    /// Most MB all reservations may hold together.
    limit_mb: usize,
    reserved_mb: Mutex<usize>,
}

/// A reservation refused: what was asked, what others hold, and the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableBudgetError {
    pub asked_mb: usize,
    pub held_mb: usize,
    pub limit_mb: usize,
    pub memory: Option<PhysicalMemory>,
}

impl fmt::Display for TableBudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the engines' tables of this game take {} MB",
            self.asked_mb
        )?;
        if self.held_mb > 0 {
            write!(f, " and those of the games under way {} MB", self.held_mb)?;
        }
        match self.memory {
            Some(memory) => write!(
                f,
                ": more than half of this machine's {} MB of memory (at most {} MB in all)",
                memory.total_mb, self.limit_mb
            ),
            None => write!(f, ": more than {} MB in all", self.limit_mb),
        }
    }
}

impl std::error::Error for TableBudgetError {}

impl TableBudget {
    /// A budget of half of this machine's physical memory.
    pub fn of_this_machine() -> Arc<TableBudget> {
        Self::on(PhysicalMemory::read())
    }

    /// A budget of half of `memory` (no limit when it is unknown).
    pub fn on(memory: Option<PhysicalMemory>) -> Arc<TableBudget> {
        engine::stop_keeping_spare_tables();
        Arc::new(TableBudget {
            memory,
            limit_mb: tables_share_mb(memory).unwrap_or(usize::MAX),
            reserved_mb: Mutex::new(0),
        })
    }

    /// A reservation of nothing, to [`TableReservation::change`] later.
    pub fn nothing(self: &Arc<Self>) -> TableReservation {
        TableReservation {
            budget: Arc::clone(self),
            mb: 0,
        }
    }

    /// Reserves `tables` (MB each), or says why they do not fit beside the reservations held.
    pub fn reserve(
        self: &Arc<Self>,
        tables: &[usize],
    ) -> Result<TableReservation, TableBudgetError> {
        let mut reservation = self.nothing();
        reservation.change(tables)?;
        Ok(reservation)
    }

    /// MB reserved now, all reservations together.
    pub fn reserved_mb(&self) -> usize {
        *self.lock()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, usize> {
        self.reserved_mb
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Tables reserved in a [`TableBudget`], given back when dropped.
pub struct TableReservation {
    budget: Arc<TableBudget>,
    mb: usize,
}

impl TableReservation {
    /// Reserves `tables` (MB each) instead of what this reservation holds, or says why they do
    /// not fit beside the other reservations (this one then stays as it was).
    pub fn change(&mut self, tables: &[usize]) -> Result<(), TableBudgetError> {
        let asked_mb = tables
            .iter()
            .fold(0usize, |sum, mb| sum.saturating_add(*mb));
        let mut reserved = self.budget.lock();
        let held_mb = *reserved - self.mb;
        if held_mb.saturating_add(asked_mb) > self.budget.limit_mb {
            return Err(TableBudgetError {
                asked_mb,
                held_mb,
                limit_mb: self.budget.limit_mb,
                memory: self.budget.memory,
            });
        }
        *reserved = held_mb + asked_mb;
        self.mb = asked_mb;
        Ok(())
    }

    /// MB this reservation holds.
    pub fn mb(&self) -> usize {
        self.mb
    }
}

impl Drop for TableReservation {
    fn drop(&mut self) {
        *self.budget.lock() -= self.mb;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(specs: &[&str]) -> Vec<PlayerSpec> {
        specs.iter().map(|spec| spec.parse().unwrap()).collect()
    }

    #[test]
    fn reservations_share_half_of_memory() {
        let memory = Some(PhysicalMemory {
            total_mb: 1952,
            available_mb: 1900,
        });
        let budget = TableBudget::on(memory);
        let first = budget.reserve(&[900]).unwrap();
        let error = budget.reserve(&[900]).err().unwrap();
        assert_eq!(
            error.to_string(),
            "the engines' tables of this game take 900 MB and those of the games under way \
             900 MB: more than half of this machine's 1952 MB of memory (at most 976 MB in all)"
        );
        let mut second = budget.reserve(&[50]).unwrap();
        assert_eq!(budget.reserved_mb(), 950);
        // A change that does not fit leaves the reservation as it was.
        assert!(second.change(&[50, 50]).is_err());
        assert_eq!(second.mb(), 50);
        drop(first);
        second.change(&[400, 400]).unwrap();
        assert_eq!(budget.reserved_mb(), 800);
        drop(second);
        assert_eq!(budget.reserved_mb(), 0);
    }

    #[test]
    fn engines_count_their_solver_tables_where_they_have_one() {
        let specs = players(&["engine:hash=100", "human", "engine:hash=300", "quasi"]);
        let tictactoe: GameSpec = "tictactoe".parse().unwrap();
        let connect4: GameSpec = "connect4".parse().unwrap();
        assert_eq!(game_tables(&specs, &tictactoe), [100, 300]);
        assert_eq!(game_tables(&specs, &connect4), [100, 100, 300, 300]);
        let more = players(&["engine:hash=100", "engine:hash=300", "engine:hash=200"]);
        assert_eq!(
            tournament_tables(&more, &[tictactoe.clone(), connect4]),
            [300, 300, 200, 200]
        );
        assert_eq!(
            tournament_tables(&players(&["quasi", "random"]), &[tictactoe]),
            [0usize; 0]
        );
    }
}
