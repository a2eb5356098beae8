//! The records of one tournament's shards (`--shard K/N`, on several machines) read as one
//! tournament: they must hold the same settings, each game of the schedule may be in one record
//! only, and the games not played yet are named.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::records::record::GameRecord;
use crate::records::record_file::{read_record, RecordFileError};
use crate::tournament::settings::TournamentSettings;
use crate::tournament::{ScheduleError, Tournament};

/// The games of several records of one tournament.
pub struct MergedRecords {
    /// The settings every record holds.
    pub settings: TournamentSettings,
    /// The tournament they describe (its players are not checked to start here).
    pub tournament: Tournament,
    /// Every game of every record, in schedule order.
    pub games: Vec<GameRecord>,
    /// The schedule indexes of the games no record holds, in order.
    pub missing: Vec<usize>,
    /// The number of shards, when every record is a shard of the same number.
    pub shard_count: Option<usize>,
    /// What reading each record dropped (an unfinished last line...), one sentence each,
    /// starting with the record's path.
    pub notes: Vec<String>,
}

/// Why records cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    #[error("no record to merge")]
    NoRecords,
    #[error(transparent)]
    File(#[from] RecordFileError),
    #[error("{path}: the header holds no tournament's settings ({reason})")]
    Settings { path: PathBuf, reason: String },
    #[error(
        "{first} and {other} are not records of one tournament: their settings differ in \
         `{setting}` ({first_value} in {first}, {other_value} in {other})"
    )]
    Differ {
        first: PathBuf,
        other: PathBuf,
        setting: String,
        first_value: String,
        other_value: String,
    },
    #[error(
        "game {game} is in both {first} and {other}: each game may be in one record only (was \
         one shard run twice, or a shard given twice?)"
    )]
    Overlap {
        game: usize,
        first: PathBuf,
        other: PathBuf,
    },
    #[error("{path}: {error}")]
    Schedule { path: PathBuf, error: ScheduleError },
    #[error("{path}: game {game} is not one of its shard {shard}")]
    OutsideShard {
        path: PathBuf,
        game: usize,
        shard: crate::shard::Shard,
    },
}

/// Reads the records at `paths` (they may still be being written) and merges them, or says why
/// they are not the records of one tournament.
pub fn merge_records(paths: &[PathBuf]) -> Result<MergedRecords, MergeError> {
    let mut records = Vec::new();
    for path in paths {
        records.push((path, read_record::<serde_json::Value>(path)?));
    }
    let Some((first_path, first)) = records.first() else {
        return Err(MergeError::NoRecords);
    };
    for (path, contents) in &records[1..] {
        if let Some((setting, a, b)) = first_difference(&first.settings, &contents.settings) {
            return Err(MergeError::Differ {
                first: first_path.to_path_buf(),
                other: path.to_path_buf(),
                setting,
                first_value: a,
                other_value: b,
            });
        }
    }
    let settings_error = |reason: String| MergeError::Settings {
        path: first_path.to_path_buf(),
        reason,
    };
    let settings: TournamentSettings = serde_json::from_value(first.settings.clone())
        .map_err(|error| settings_error(error.to_string()))?;
    let tournament = settings
        .prepare_for_records()
        .map_err(|error| settings_error(error.to_string()))?;
    let mut notes = Vec::new();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut holder: HashMap<usize, &Path> = HashMap::new();
    for (path, contents) in &records {
        let shard_games = contents
            .shard
            .map(|shard| (shard, tournament.shard_games(shard)));
        for record in &contents.games {
            tournament
                .check_played(record)
                .map_err(|error| MergeError::Schedule {
                    path: path.to_path_buf(),
                    error,
                })?;
            if let Some((shard, ours)) = &shard_games {
                if !ours.contains(&record.game) {
                    return Err(MergeError::OutsideShard {
                        path: path.to_path_buf(),
                        game: record.game + 1,
                        shard: *shard,
                    });
                }
            }
            if let Some(first) = holder.insert(record.game, path) {
                return Err(MergeError::Overlap {
                    game: record.game + 1,
                    first: first.to_path_buf(),
                    other: path.to_path_buf(),
                });
            }
            games.push(record.clone());
        }
        notes.extend((contents.notes.iter()).map(|note| format!("{}: {note}", path.display())));
    }
    games.sort_by_key(|record| record.game);
    let missing = (0..tournament.games.len())
        .filter(|game| !holder.contains_key(game))
        .collect();
    let counts: HashSet<Option<usize>> = (records.iter())
        .map(|(_, contents)| contents.shard.map(|shard| shard.count()))
        .collect();
    let single = counts.len() == 1;
    Ok(MergedRecords {
        settings,
        tournament,
        games,
        missing,
        shard_count: counts.into_iter().next().flatten().filter(|_| single),
        notes,
    })
}

impl MergedRecords {
    /// The shards that lack the missing games, when the records are shards of one number:
    /// `in shards 2, 5 of 8`.
    pub fn missing_shards(&self) -> Option<String> {
        let count = self.shard_count?;
        let shard_of = self.tournament.shards_of_games(count);
        let shards: std::collections::BTreeSet<usize> =
            self.missing.iter().map(|&game| shard_of[game]).collect();
        let shards: Vec<String> = shards.iter().map(usize::to_string).collect();
        Some(format!(
            "in shard{} {} of {count}",
            if shards.len() == 1 { "" } else { "s" },
            shards.join(", ")
        ))
    }

    /// The missing games as printed (from 1), runs written as ranges, at most `shown` of
    /// them, then how many more there are: `3, 7-9, 12 and 5 more ranges`.
    pub fn missing_text(&self, shown: usize) -> String {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for &game in &self.missing {
            match runs.last_mut() {
                Some((_, end)) if *end + 1 == game => *end = game,
                _ => runs.push((game, game)),
            }
        }
        let mut text = (runs.iter().take(shown))
            .map(|&(start, end)| match start == end {
                true => format!("{}", start + 1),
                false => format!("{}-{}", start + 1, end + 1),
            })
            .collect::<Vec<_>>()
            .join(", ");
        if runs.len() > shown {
            text.push_str(&format!(" and {} more ranges", runs.len() - shown));
        }
        text
    }
}

/// The first setting (a key of the header's settings) whose values differ, with both values as
/// JSON (`-` where one has no such setting).
fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
) -> Option<(String, String, String)> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return (a != b).then(|| ("settings".into(), a.to_string(), b.to_string()));
    };
    let text = |value: Option<&serde_json::Value>| value.map_or("-".into(), |v| v.to_string());
    a.keys()
        .chain(b.keys().filter(|key| !a.contains_key(*key)))
        .find(|key| a.get(*key) != b.get(*key))
        .map(|key| (key.clone(), text(a.get(key)), text(b.get(key))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_setting_is_named_with_both_values() {
        let a = serde_json::json!({"players": ["a", "b"], "seed": 1});
        let b = serde_json::json!({"players": ["a", "b"], "seed": 2, "openings": "x"});
        assert_eq!(
            first_difference(&a, &b),
            Some(("seed".into(), "1".into(), "2".into()))
        );
        let c = serde_json::json!({"players": ["a", "b"], "seed": 1, "openings": "x"});
        assert_eq!(
            first_difference(&a, &c),
            Some(("openings".into(), "-".into(), "\"x\"".into()))
        );
        assert_eq!(first_difference(&a, &a), None);
    }
}
