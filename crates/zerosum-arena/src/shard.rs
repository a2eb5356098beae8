//! Parts of one schedule for several machines (`--shard K/N`): the colour-swapped pairs of
//! games are dealt to N shards, whole, so that each shard's expected playing time is about the
//! same. Which shard plays a game changes nothing in it: its seed comes from the tournament's
//! seed and its place in the schedule.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Most shards a schedule may be cut into.
pub const MAX_SHARDS: usize = 100_000;

/// Part `index` of `count` (from 0, as Slurm numbers array tasks); `index < count` always.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    index: usize,
    count: usize,
}

/// A shard that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ShardError(String);

impl Shard {
    /// Shard `index` of `count`: refused unless `count` is between 1 and [`MAX_SHARDS`] and
    /// `index` is below `count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if !(1..=MAX_SHARDS).contains(&count) {
            return Err(ShardError(format!(
                "the number of shards must be between 1 and {MAX_SHARDS}, not {count}"
            )));
        }
        if index >= count {
            return Err(ShardError(format!(
                "shard {index}/{count} does not exist: shards are numbered from 0 to {} \
                 (as Slurm numbers array tasks)",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }

    /// Its number, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many shards there are.
    pub fn count(self) -> usize {
        self.count
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N`: shard K (from 0) of N.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(format!("`{text}` is not a shard: expected K/N, as 0/4"));
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let number = |part: &str| part.trim().parse::<usize>().map_err(|_| bad());
        Shard::new(number(index)?, number(count)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl TryFrom<String> for Shard {
    type Error = ShardError;

    fn try_from(text: String) -> Result<Shard, ShardError> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

/// The shard of each pair, for pairs of the given expected costs, into `count` shards: the
/// longest pair first, each to the shard with the least cost so far (the lowest-numbered one on
/// a tie). Pairs of equal cost go round the shards in schedule order, so every shard plays
/// some of the first pairs (a match's SPRT sees all shards early).
pub fn deal_pairs(costs: &[u64], count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&pair| std::cmp::Reverse(costs[pair]));
    let mut loads: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = (0..count)
        .map(|shard| std::cmp::Reverse((0, shard)))
        .collect();
    let mut shard_of = vec![0; costs.len()];
    for pair in order {
        let std::cmp::Reverse((load, shard)) = loads.pop().expect("at least one shard");
        shard_of[pair] = shard;
        loads.push(std::cmp::Reverse((load.saturating_add(costs[pair]), shard)));
    }
    shard_of
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_k_of_n_and_refuse_the_rest() {
        let shard: Shard = "3/4".parse().unwrap();
        assert_eq!((shard.index(), shard.count()), (3, 4));
        assert_eq!(shard.to_string(), "3/4");
        assert_eq!(
            serde_json::to_string(&shard).unwrap(),
            "\"3/4\"",
            "records keep the text"
        );
        for (text, error) in [
            (
                "4/4",
                "shard 4/4 does not exist: shards are numbered from 0 to 3",
            ),
            ("0/0", "the number of shards must be between 1"),
            ("1", "`1` is not a shard: expected K/N"),
            ("-1/4", "`-1/4` is not a shard"),
        ] {
            let refused = text.parse::<Shard>().unwrap_err().to_string();
            assert!(refused.starts_with(error), "{text}: {refused}");
        }
    }

    #[test]
    fn equal_pairs_go_round_and_long_pairs_are_balanced() {
        assert_eq!(deal_pairs(&[1; 7], 3), [0, 1, 2, 0, 1, 2, 0]);
        // One long pair and six short ones: the long one alone on a shard.
        let shards = deal_pairs(&[1, 1, 6, 1, 1, 1, 1], 2);
        assert_eq!(shards[2], 0);
        assert!(shards.iter().enumerate().all(|(p, &s)| p == 2 || s == 1));
    }
}
