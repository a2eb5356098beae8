//! Standings, crosstable and match summary of a tournament, computed from its finished games.
//!
//! [`Standings::compute`] gives, per player: points under a [`Scoring`] scheme, games, wins,
//! draws and losses split by colour, forfeits lost by cause, the share of the possible points
//! and the Elo difference against the field, in ranking order; and the [`Crosstable`].
//! [`MatchSummary::compute`] sums up a two-player match. Every Elo here is one estimate
//! ([`paired_elo`]): from the player's colour-swapped pairs (pentanomial), none before a pair
//! is complete (printed [`NO_PAIR_YET`]), so a player's error bar is the same in the standings
//! and in the match lines. All of them serialize to JSON and print as text.
//!
//! **Ranking order**: more points first; then more wins (all wins, forfeit wins included);
//! then, among the players still tied on both, more points scored in the games between these
//! tied players (a mini-league of the tied group, so three-way ties are broken consistently);
//! then name in byte order; then the player's index in the list (for equal names).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::Serialize;
use thiserror::Error;
use zerosum_core::{Outcome, Side};

use crate::records::record::{GameRecord, Termination};
use crate::statistics::elo::{paired_elo, EloEstimate, Pentanomial, ScoreSample, Wdl, NO_PAIR_YET};
use crate::statistics::scoring::Scoring;

/// Records that cannot be tallied against the list of players.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StandingsError {
    /// A record names a player index beyond the list (`game` is 1-based, as printed).
    #[error("game {game} names player {player}, but there are only {players} players")]
    UnknownPlayer {
        game: usize,
        player: usize,
        players: usize,
    },
    /// A record has the same player on both sides (`game` is 1-based, as printed).
    #[error("game {game} has player {player} on both sides")]
    SamePlayerTwice { game: usize, player: usize },
    /// Two records of one game of the schedule (`game` is 1-based, as printed): a game counts
    /// once.
    #[error("game {game} is recorded twice")]
    DuplicateGame { game: usize },
    /// A match summary was asked for another number of players than two.
    #[error("a match summary needs exactly two players, not {0}")]
    NotTwoPlayers(usize),
}

/// Games a player lost by forfeit, by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ForfeitCounts {
    pub timeout: u32,
    pub illegal_move: u32,
    pub crash: u32,
    pub stalled: u32,
}

impl ForfeitCounts {
    /// The forfeit causes with the letter the standings table gives each.
    const CAUSES: [(Termination, char); 4] = [
        (Termination::Timeout, 't'),
        (Termination::IllegalMove, 'i'),
        (Termination::Crash, 'c'),
        (Termination::Stalled, 's'),
    ];

    /// Counts one game lost by `termination`; a termination that is not a forfeit is not
    /// counted.
    pub fn count(&mut self, termination: Termination) {
        match termination {
            Termination::Timeout => self.timeout += 1,
            Termination::IllegalMove => self.illegal_move += 1,
            Termination::Crash => self.crash += 1,
            Termination::Stalled => self.stalled += 1,
            Termination::Normal | Termination::Adjudication | Termination::Resignation => {}
        }
    }

    /// The games lost by `termination` (0 for a termination that is not a forfeit).
    pub const fn get(&self, termination: Termination) -> u32 {
        match termination {
            Termination::Timeout => self.timeout,
            Termination::IllegalMove => self.illegal_move,
            Termination::Crash => self.crash,
            Termination::Stalled => self.stalled,
            Termination::Normal | Termination::Adjudication | Termination::Resignation => 0,
        }
    }

    /// All games lost by forfeit.
    pub const fn total(&self) -> u32 {
        self.timeout + self.illegal_move + self.crash + self.stalled
    }
}

impl fmt::Display for ForfeitCounts {
    /// The nonzero counts with the cause's letter (`t` timeout, `i` illegal move, `c` crash,
    /// `s` stalled), e.g. `2t 1c`; `-` when there are none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total() == 0 {
            return f.write_str("-");
        }
        let parts: Vec<String> = Self::CAUSES
            .iter()
            .filter(|&&(cause, _)| self.get(cause) > 0)
            .map(|&(cause, letter)| format!("{}{letter}", self.get(cause)))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerStanding {
    /// Place in the ranking, from 1; no two players share one.
    pub rank: usize,
    /// Index in the tournament's list of players.
    pub player: usize,
    pub name: String,
    pub points: u32,
    /// The points the player would have with a win on the board in every game it played.
    pub max_points: u32,
    pub games: u32,
    /// Results of the games played as first player.
    pub as_first: Wdl,
    /// Results of the games played as second player.
    pub as_second: Wdl,
    /// Games lost by forfeit, by cause (they are also counted as losses above).
    pub forfeits: ForfeitCounts,
    /// `100 * points / max_points`; `None` without games.
    pub score_percent: Option<f64>,
    /// Elo difference against the field ([`paired_elo`] of the player's pairs); `None` before
    /// one of its pairs is complete.
    pub elo: Option<EloEstimate>,
}

impl PlayerStanding {
    /// Results of all the player's games.
    pub fn wdl(&self) -> Wdl {
        let mut total = self.as_first;
        total += self.as_second;
        total
    }
}

/// What a row player scored against a column player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CrossCell {
    pub points: u32,
    pub games: u32,
}

/// Points each player scored against each other player, rows and columns in ranking order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Crosstable {
    /// Player names, in ranking order.
    pub names: Vec<String>,
    /// `cells[row][column]`: what the row player scored against the column player; `None` on
    /// the diagonal.
    pub cells: Vec<Vec<Option<CrossCell>>>,
    /// Each row's total points (the player's points in the standings).
    pub totals: Vec<u32>,
}

impl fmt::Display for Crosstable {
    /// A table with a column per opponent headed by the opponent's rank: points in the games
    /// between the two, `-` on the diagonal, `.` for two players who have not met; then the
    /// row's total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ranks: Vec<String> = (1..=self.names.len()).map(|r| r.to_string()).collect();
        let mut headers = vec!["Rank", "Name"];
        headers.extend(ranks.iter().map(String::as_str));
        headers.push("Total");
        let mut align = vec![Align::Right, Align::Left];
        align.extend(std::iter::repeat_n(Align::Right, self.names.len() + 1));
        let rows: Vec<Vec<String>> = self
            .names
            .iter()
            .enumerate()
            .map(|(row, name)| {
                let mut cells = vec![(row + 1).to_string(), name.clone()];
                cells.extend(self.cells[row].iter().map(|cell| match cell {
                    None => "-".to_string(),
                    Some(CrossCell { games: 0, .. }) => ".".to_string(),
                    Some(cell) => cell.points.to_string(),
                }));
                cells.push(self.totals[row].to_string());
                cells
            })
            .collect();
        f.write_str(&render_table(&headers, &align, &rows))
    }
}

/// The standings of a tournament: players in ranking order and the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    pub scoring: Scoring,
    /// The number of finished games tallied.
    pub games: usize,
    /// One line per player, in ranking order (see the module documentation).
    pub players: Vec<PlayerStanding>,
    pub crosstable: Crosstable,
}

/// Running totals of one player while the records are read.
#[derive(Clone, Copy, Default)]
struct Tally {
    points: u32,
    max_points: u32,
    as_first: Wdl,
    as_second: Wdl,
    forfeits: ForfeitCounts,
}

impl Standings {
    /// The standings of the players `names` (indexed as the records' `first` and `second`)
    /// after the games `records`, scored with `scoring`. Records may come in any order; a
    /// player without games gets a line of zeros.
    ///
    /// Errors: a record naming a player index outside `names`, or the same player on both
    /// sides.
    pub fn compute<S: AsRef<str>>(
        names: &[S],
        records: &[GameRecord],
        scoring: Scoring,
    ) -> Result<Standings, StandingsError> {
        let count = names.len();
        check_records(records, count)?;
        let mut tallies = vec![Tally::default(); count];
        // head_to_head[a][b]: what player a scored against player b.
        let mut head_to_head = vec![vec![CrossCell::default(); count]; count];
        for record in records {
            let points = scoring.points(record);
            for side in [Side::First, Side::Second] {
                let player = record.player(side);
                let opponent = record.player(side.opponent());
                let tally = &mut tallies[player];
                tally.points += points[side.index()];
                tally.max_points += scoring.max_points(side);
                let wdl = match side {
                    Side::First => &mut tally.as_first,
                    Side::Second => &mut tally.as_second,
                };
                match record.outcome {
                    Outcome::Draw => wdl.draws += 1,
                    Outcome::Win(winner) if winner == side => wdl.wins += 1,
                    Outcome::Win(_) => {
                        wdl.losses += 1;
                        tally.forfeits.count(record.termination);
                    }
                }
                let cell = &mut head_to_head[player][opponent];
                cell.points += points[side.index()];
                cell.games += 1;
            }
        }
        let pentanomials = pair_scores(records, count);
        let order = ranking(names, &tallies, &head_to_head);
        let players = order
            .iter()
            .enumerate()
            .map(|(place, &player)| {
                let tally = tallies[player];
                let mut wdl = tally.as_first;
                wdl += tally.as_second;
                PlayerStanding {
                    rank: place + 1,
                    player,
                    name: names[player].as_ref().to_string(),
                    points: tally.points,
                    max_points: tally.max_points,
                    games: wdl.games(),
                    as_first: tally.as_first,
                    as_second: tally.as_second,
                    forfeits: tally.forfeits,
                    score_percent: (tally.max_points > 0)
                        .then(|| 100.0 * f64::from(tally.points) / f64::from(tally.max_points)),
                    elo: paired_elo(&pentanomials[player]),
                }
            })
            .collect();
        let crosstable = Crosstable {
            names: order
                .iter()
                .map(|&p| names[p].as_ref().to_string())
                .collect(),
            cells: order
                .iter()
                .map(|&row| {
                    order
                        .iter()
                        .map(|&column| (row != column).then_some(head_to_head[row][column]))
                        .collect()
                })
                .collect(),
            totals: order.iter().map(|&p| tallies[p].points).collect(),
        };
        Ok(Standings {
            scoring,
            games: records.len(),
            players,
            crosstable,
        })
    }

    /// The ranking in the style of the course tournaments: a title naming the scoring, then
    /// one line per player, `position. name points`, in ranking order. Players with equal
    /// points share a position (1, 1, 3), as the course ranks by points alone; the order
    /// among them is the tie-break of the standings.
    pub fn course_ranking(&self) -> String {
        let rules = match self.scoring {
            Scoring::Cx => "win 3, draw 1, loss 0, forfeit 3 to the opponent",
            Scoring::Mnk => "win as first player 2, as second player 3, by forfeit 2, draw 1",
        };
        let mut text = format!("Ranking after {} games ({rules})\n", self.games);
        let width = self.players.iter().map(|p| p.name.len()).max().unwrap_or(0);
        let mut position = 0;
        for (index, player) in self.players.iter().enumerate() {
            if index == 0 || self.players[index - 1].points != player.points {
                position = index + 1;
            }
            text.push_str(&format!(
                "{position:>3}. {:<width$}  {:>5}\n",
                player.name, player.points
            ));
        }
        text
    }

    /// The standings as an aligned text table, followed by a line explaining the forfeit
    /// letters when any player lost by forfeit.
    ///
    /// Columns: rank, name, points of the most possible (`29/60`: the points and those a win
    /// on the board in every game would have given), games, W-D-L as first player, W-D-L as
    /// second player, forfeits lost by cause, score % (the points column as a percentage), Elo
    /// against the field with its 95% error bar (as [`EloEstimate`] prints it; [`NO_PAIR_YET`]
    /// before one of the player's pairs is complete).
    pub fn table(&self) -> String {
        let headers = [
            "Rank",
            "Name",
            "Points",
            "Games",
            "First W-D-L",
            "Second W-D-L",
            "Forfeits",
            "Score%",
            "Elo",
        ];
        let align = [
            Align::Right,
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Left,
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Left,
        ];
        let rows: Vec<Vec<String>> = self
            .players
            .iter()
            .map(|standing| {
                vec![
                    standing.rank.to_string(),
                    standing.name.clone(),
                    format!("{}/{}", standing.points, standing.max_points),
                    standing.games.to_string(),
                    standing.as_first.to_string(),
                    standing.as_second.to_string(),
                    standing.forfeits.to_string(),
                    standing
                        .score_percent
                        .map_or_else(|| "-".to_string(), |percent| format!("{percent:.1}")),
                    standing
                        .elo
                        .map_or_else(|| NO_PAIR_YET.to_string(), |elo| elo.to_string()),
                ]
            })
            .collect();
        let mut text = render_table(&headers, &align, &rows);
        if self.players.iter().any(|p| p.forfeits.total() > 0) {
            text.push_str("Forfeits lost: t timeout, i illegal move, c crash, s stalled.\n");
        }
        text
    }
}

/// The summary of a two-player match, from the first-named player's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchSummary {
    /// The two players, in the order of the tournament's list.
    pub names: [String; 2],
    /// Each player's points under the scheme.
    pub points: [u32; 2],
    pub scoring: Scoring,
    /// Results of the first-named player in every game.
    pub wdl: Wdl,
    /// Scores of the first-named player per colour-swapped pair of games.
    pub pentanomial: Pentanomial,
    /// Games left out of `pentanomial`: the lone game of a pair whose other game is not
    /// finished (or a game whose pair number another game with the same colours took).
    pub unpaired_games: u32,
    /// The Elo difference of the first-named player ([`paired_elo`]: pentanomial); `None`
    /// before a pair is complete.
    pub elo: Option<EloEstimate>,
}

impl MatchSummary {
    /// The summary of the match between the two players `names` after `records` (grouped into
    /// pairs by [`GameRecord::pair`]).
    ///
    /// Errors: other than two names, or a record [`Standings::compute`] refuses.
    pub fn compute<S: AsRef<str>>(
        names: &[S],
        records: &[GameRecord],
        scoring: Scoring,
    ) -> Result<MatchSummary, StandingsError> {
        if names.len() != 2 {
            return Err(StandingsError::NotTwoPlayers(names.len()));
        }
        check_records(records, 2)?;
        let mut tally = MatchTally::default();
        for record in records {
            tally.add(record, scoring);
        }
        Ok(tally.summary(names, scoring))
    }

    /// The sample a test of this match should use: one score per complete pair; `None`
    /// before a pair is complete.
    pub fn sample(&self) -> Option<ScoreSample> {
        self.elo.map(|elo| elo.sample)
    }
}

/// A two-player match's results, game by game as they finish (in any order): points, wins,
/// draws and losses, and the colour-swapped pairs once both their games are in. Feed it only
/// records [`MatchSummary::compute`] would accept (two players, indexes 0 and 1, each game
/// once).
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    points: [u32; 2],
    wdl: Wdl,
    pentanomial: Pentanomial,
    /// Games waiting for the other game of their pair: pair -> (first player, half-points of
    /// player 0).
    waiting: HashMap<usize, (usize, usize)>,
    /// Games whose pair number another game with the same colours took.
    mismatched: u32,
}

impl MatchTally {
    /// Counts one more finished game.
    pub fn add(&mut self, record: &GameRecord, scoring: Scoring) {
        let game_points = scoring.points(record);
        for side in [Side::First, Side::Second] {
            self.points[record.player(side) & 1] += game_points[side.index()];
        }
        let half_points = half_points_of_player0(record);
        match half_points {
            2 => self.wdl.wins += 1,
            1 => self.wdl.draws += 1,
            _ => self.wdl.losses += 1,
        }
        match self.waiting.remove(&record.pair) {
            Some((first, other)) if first != record.first => {
                self.pentanomial.add_pair(half_points + other)
            }
            Some(_) => {
                self.mismatched += 1;
                self.waiting
                    .insert(record.pair, (record.first, half_points));
            }
            None => {
                self.waiting
                    .insert(record.pair, (record.first, half_points));
            }
        }
    }

    /// The complete pairs so far, from player 0's point of view.
    pub fn pentanomial(&self) -> &Pentanomial {
        &self.pentanomial
    }

    /// The summary of the games so far, between the players `names` (two of them).
    pub fn summary<S: AsRef<str>>(&self, names: &[S], scoring: Scoring) -> MatchSummary {
        MatchSummary {
            names: [0, 1].map(|i| names.get(i).map_or("", |n| n.as_ref()).to_string()),
            points: self.points,
            scoring,
            wdl: self.wdl,
            pentanomial: self.pentanomial,
            unpaired_games: self.waiting.len() as u32 + self.mismatched,
            elo: paired_elo(&self.pentanomial),
        }
    }
}

impl fmt::Display for MatchSummary {
    /// One line, e.g. `P0 vs P1: points 11-8 (cx), W-D-L 3-2-2, Ptnml(0-2) [0, 1, 0, 1, 1],
    /// Elo +120.4 (95% above -45.2) (pentanomial, 3 pairs), LOS 82.3%, draw ratio 28.6%`
    /// (the Elo as [`EloEstimate`] prints it), ending in `Elo n/a: no complete pair yet`
    /// before a pair is complete. The draw ratio counts games (drawn games of all games),
    /// never pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} vs {}: points {}-{} ({}), W-D-L {}, Ptnml(0-2) {}",
            self.names[0],
            self.names[1],
            self.points[0],
            self.points[1],
            self.scoring,
            self.wdl,
            self.pentanomial
        )?;
        let Some(elo) = self.elo else {
            return write!(f, ", Elo {NO_PAIR_YET}");
        };
        let plural = if elo.sample.count == 1 { "" } else { "s" };
        write!(
            f,
            ", Elo {elo} ({}, {} pair{plural}), LOS {:.1}%",
            elo.sample.unit.model(),
            elo.sample.count,
            100.0 * elo.los
        )?;
        if let Some(ratio) = self.wdl.draw_ratio() {
            write!(f, ", draw ratio {:.1}%", 100.0 * ratio)?;
        }
        Ok(())
    }
}

/// Refuses a record whose players are not two different indexes below `players`.
/// Checks that every record names two different players of `players` and that no game is
/// recorded twice.
fn check_records(records: &[GameRecord], players: usize) -> Result<(), StandingsError> {
    let mut seen = HashSet::new();
    for record in records {
        check_players(record, players)?;
        if !seen.insert(record.game) {
            return Err(StandingsError::DuplicateGame {
                game: record.game.saturating_add(1),
            });
        }
    }
    Ok(())
}

fn check_players(record: &GameRecord, players: usize) -> Result<(), StandingsError> {
    for player in [record.first, record.second] {
        if player >= players {
            return Err(StandingsError::UnknownPlayer {
                game: record.game.saturating_add(1),
                player,
                players,
            });
        }
    }
    if record.first == record.second {
        return Err(StandingsError::SamePlayerTwice {
            game: record.game.saturating_add(1),
            player: record.first,
        });
    }
    Ok(())
}

/// Half-points player 0 made in a game of a two-player match: 2 for a win, 1 for a draw, 0 for
/// a loss.
fn half_points_of_player0(record: &GameRecord) -> usize {
    half_points(record, 0)
}

/// Half-points `player` made in a game it played: 2 for a win, 1 for a draw, 0 for a loss.
fn half_points(record: &GameRecord, player: usize) -> usize {
    match record.outcome {
        Outcome::Draw => 1,
        Outcome::Win(side) if record.player(side) == player => 2,
        Outcome::Win(_) => 0,
    }
}

/// Each of `players` players' scores in its complete colour-swapped pairs: the two games of a
/// pair number with the same two players in exchanged colours.
fn pair_scores(records: &[GameRecord], players: usize) -> Vec<Pentanomial> {
    let mut by_pair: BTreeMap<usize, Vec<&GameRecord>> = BTreeMap::new();
    for record in records {
        by_pair.entry(record.pair).or_default().push(record);
    }
    let mut pentanomials = vec![Pentanomial::default(); players];
    for games in by_pair.values() {
        if let [one, other] = games.as_slice() {
            if one.first == other.second && one.second == other.first {
                let half = half_points(one, one.first) + half_points(other, one.first);
                pentanomials[one.first].add_pair(half);
                pentanomials[one.second].add_pair(4 - half);
            }
        }
    }
    pentanomials
}

/// Player indexes in ranking order (see the module documentation).
fn ranking<S: AsRef<str>>(
    names: &[S],
    tallies: &[Tally],
    head_to_head: &[Vec<CrossCell>],
) -> Vec<usize> {
    let wins = |p: usize| tallies[p].as_first.wins + tallies[p].as_second.wins;
    let key = |p: usize| (tallies[p].points, wins(p));
    let by_name = |a: &usize, b: &usize| names[*a].as_ref().cmp(names[*b].as_ref()).then(a.cmp(b));
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|a, b| key(*b).cmp(&key(*a)).then_with(|| by_name(a, b)));
    let mut start = 0;
    while start < order.len() {
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&p| key(p) == key(order[start]))
                .count();
        let group = order[start..end].to_vec();
        let mini_league = |p: usize| -> u32 {
            group
                .iter()
                .map(|&opponent| head_to_head[p][opponent].points)
                .sum()
        };
        order[start..end].sort_by(|a, b| {
            mini_league(*b)
                .cmp(&mini_league(*a))
                .then_with(|| by_name(a, b))
        });
        start = end;
    }
    order
}

/// How a column's cells line up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

/// Columns separated by two spaces, each as wide as its widest cell, one line per row after
/// the header, trailing spaces removed, every line ending in a newline.
fn render_table(headers: &[&str], align: &[Align], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| -> String {
        let padded: Vec<String> = cells
            .zip(widths.iter().zip(align))
            .map(|(cell, (&width, align))| match align {
                Align::Left => format!("{cell:<width$}"),
                Align::Right => format!("{cell:>width$}"),
            })
            .collect();
        let mut text = padded.join("  ").trim_end().to_string();
        text.push('\n');
        text
    };
    let mut text = line(&mut headers.iter().copied());
    for row in rows {
        text.push_str(&line(&mut row.iter().map(String::as_str)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::scoring::test_records::{game, normal};

    const FIRST: Option<Side> = Some(Side::First);
    const SECOND: Option<Side> = Some(Side::Second);
    const DRAW: Option<Side> = None;

    /// Three players where `bravo` and `alpha` tie on points and wins and `bravo` is ahead on
    /// their head-to-head games (player 0 `bravo`, 1 `alpha`, 2 `charlie`; scheme cx):
    ///
    /// | game | first   | second  | result                | points            |
    /// |------|---------|---------|-----------------------|-------------------|
    /// | 0    | bravo   | alpha   | first wins            | bravo 3           |
    /// | 1    | alpha   | bravo   | draw                  | alpha 1, bravo 1  |
    /// | 2    | bravo   | charlie | first wins            | bravo 3           |
    /// | 3    | charlie | bravo   | first wins            | charlie 3         |
    /// | 4    | alpha   | charlie | first wins            | alpha 3           |
    /// | 5    | charlie | alpha   | charlie times out     | alpha 3           |
    fn three_players() -> (Vec<&'static str>, Vec<GameRecord>) {
        let records = vec![
            normal(0, 0, 0, 1, FIRST),
            normal(1, 0, 1, 0, DRAW),
            normal(2, 1, 0, 2, FIRST),
            normal(3, 1, 2, 0, FIRST),
            normal(4, 2, 1, 2, FIRST),
            game(5, 2, 2, 1, Outcome::Win(Side::Second), Termination::Timeout),
        ];
        (vec!["bravo", "alpha", "charlie"], records)
    }

    #[test]
    fn tie_on_points_and_wins_is_broken_by_head_to_head() {
        let (names, records) = three_players();
        let standings = Standings::compute(&names, &records, Scoring::Cx).unwrap();
        // bravo 3 + 1 + 3 + 0 = 7 points, 2 wins; alpha 0 + 1 + 3 + 3 = 7 points, 2 wins;
        // between them bravo scored 3 + 1 = 4 and alpha 0 + 1 = 1: bravo first although
        // `alpha` comes first by name. charlie 0 + 3 + 0 + 0 = 3.
        let order: Vec<(&str, u32, usize)> = standings
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.points, p.rank))
            .collect();
        assert_eq!(order, [("bravo", 7, 1), ("alpha", 7, 2), ("charlie", 3, 3)]);
        let bravo = &standings.players[0];
        assert_eq!(bravo.as_first, Wdl::new(2, 0, 0)); // games 0 and 2
        assert_eq!(bravo.as_second, Wdl::new(0, 1, 1)); // games 1 and 3
        assert_eq!(bravo.games, 4);
        // 4 games of at most 3 points: 7 / 12 = 58.33%
        assert_eq!(bravo.max_points, 12);
        assert!((bravo.score_percent.unwrap() - 58.333).abs() < 1e-3);
        let alpha = &standings.players[1];
        assert_eq!(alpha.as_first, Wdl::new(1, 1, 0)); // games 4 and 1
        assert_eq!(alpha.as_second, Wdl::new(1, 0, 1)); // games 5 and 0
        let charlie = &standings.players[2];
        assert_eq!(charlie.wdl(), Wdl::new(1, 0, 3));
        assert_eq!(charlie.forfeits.timeout, 1);
        assert_eq!(charlie.forfeits.total(), 1);
        // charlie 1-0-3: p = 1/4, elo = -400 * log10(3) = -190.85
        assert!((charlie.elo.unwrap().elo + 190.849).abs() < 1e-3);
    }

    #[test]
    fn the_course_ranking_lists_points_and_shares_positions_on_equal_points() {
        let (names, records) = three_players();
        let standings = Standings::compute(&names, &records, Scoring::Cx).unwrap();
        assert_eq!(
            standings.course_ranking(),
            "Ranking after 6 games (win 3, draw 1, loss 0, forfeit 3 to the opponent)\n\
             \x20 1. bravo        7\n\
             \x20 1. alpha        7\n\
             \x20 3. charlie      3\n"
        );
    }

    #[test]
    fn more_wins_rank_before_more_draws() {
        // a (0) draws three games with c (2); b (1) beats c once and loses to it twice.
        let records = vec![
            normal(0, 0, 0, 2, DRAW),
            normal(1, 0, 2, 0, DRAW),
            normal(2, 1, 0, 2, DRAW),
            normal(3, 2, 1, 2, FIRST),
            normal(4, 2, 2, 1, FIRST),
            normal(5, 3, 1, 2, SECOND),
        ];
        let standings = Standings::compute(&["a", "b", "c"], &records, Scoring::Cx).unwrap();
        // c: 1 + 1 + 1 + 0 + 3 + 3 = 9; b: 3 points with 1 win; a: 3 points with 0 wins
        let order: Vec<(&str, u32)> = standings
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.points))
            .collect();
        assert_eq!(order, [("c", 9), ("b", 3), ("a", 3)]);
    }

    #[test]
    fn crosstable_of_three_players() {
        let (names, records) = three_players();
        let standings = Standings::compute(&names, &records, Scoring::Cx).unwrap();
        let crosstable = &standings.crosstable;
        assert_eq!(crosstable.names, ["bravo", "alpha", "charlie"]);
        let points: Vec<Vec<Option<u32>>> = crosstable
            .cells
            .iter()
            .map(|row| row.iter().map(|cell| cell.map(|c| c.points)).collect())
            .collect();
        // bravo: 3 + 1 against alpha (games 0, 1), 3 + 0 against charlie (games 2, 3)
        // alpha: 0 + 1 against bravo, 3 + 3 against charlie (games 4, 5)
        // charlie: 0 + 3 against bravo, 0 + 0 against alpha
        assert_eq!(
            points,
            [
                [None, Some(4), Some(3)],
                [Some(1), None, Some(6)],
                [Some(3), Some(0), None],
            ]
        );
        assert_eq!(crosstable.totals, [7, 7, 3]);
        assert_eq!(
            crosstable.to_string(),
            "\
Rank  Name     1  2  3  Total
   1  bravo    -  4  3      7
   2  alpha    1  -  6      7
   3  charlie  3  0  -      3
"
        );
    }

    #[test]
    fn standings_table_text() {
        let (names, records) = three_players();
        let standings = Standings::compute(&names, &records, Scoring::Cx).unwrap();
        // Elo per colour-swapped pair (games 0-1, 2-3, 4-5 are the pairs): bravo scored 3 and
        // 2 half-points (pair scores 0.75, 0.5): p = 0.625, -400 * log10(0.6) = +88.7,
        // variance 0.015625, se = sqrt(0.015625 / 2) = 0.0883883, ends 0.625 -/+ 0.1732412 =
        // 0.4517588 (-33.626) and 0.7982412 (+238.921), margin 136.3; alpha 1 and 4 (0.25, 1):
        // p = 0.625, variance 0.140625, upper end 0.625 + 1.96 * 0.2651650 > 1, lower end
        // 0.1052773 (-371.7); charlie 2 and 0 (0.5, 0): p = 0.25, -190.8, lower end 0.25 - 1.96
        // * 0.1767767 < 0, upper end 0.5964823 (+67.9). An unbounded end is never printed.
        assert_eq!(
            standings.table(),
            "\
Rank  Name     Points  Games  First W-D-L  Second W-D-L  Forfeits  Score%  Elo
   1  bravo      7/12      4  2-0-0        0-1-1         -           58.3  +88.7 +/- 136.3
   2  alpha      7/12      4  1-1-0        1-0-1         -           58.3  +88.7 (95% above -371.7)
   3  charlie    3/12      4  1-0-1        0-0-2         1t          25.0  -190.8 (95% below +67.9)
Forfeits lost: t timeout, i illegal move, c crash, s stalled.
"
        );
    }

    #[test]
    fn forfeits_are_counted_by_cause_and_scored_by_the_scheme() {
        let forfeit = |game_number, first, second, termination| {
            // The player to move forfeits: here always the loser, player 1.
            let winner = if first == 0 {
                Side::First
            } else {
                Side::Second
            };
            game(
                game_number,
                game_number / 2,
                first,
                second,
                Outcome::Win(winner),
                termination,
            )
        };
        let records = vec![
            forfeit(0, 0, 1, Termination::Timeout),
            forfeit(1, 1, 0, Termination::Timeout),
            forfeit(2, 0, 1, Termination::IllegalMove),
            forfeit(3, 1, 0, Termination::Crash),
            forfeit(4, 0, 1, Termination::Stalled),
            game(
                5,
                2,
                1,
                0,
                Outcome::Win(Side::Second),
                Termination::Adjudication,
            ),
        ];
        let standings = Standings::compute(&["winner", "loser"], &records, Scoring::Mnk).unwrap();
        let loser = &standings.players[1];
        assert_eq!(loser.name, "loser");
        assert_eq!(
            loser.forfeits,
            ForfeitCounts {
                timeout: 2,
                illegal_move: 1,
                crash: 1,
                stalled: 1,
            }
        );
        // The adjudicated loss is a loss but not a forfeit.
        assert_eq!(loser.wdl(), Wdl::new(0, 0, 6));
        assert_eq!(loser.forfeits.to_string(), "2t 1i 1c 1s");
        let winner = &standings.players[0];
        assert_eq!(winner.forfeits.to_string(), "-");
        // mnk: five forfeit wins of 2 whatever the colour, and an adjudicated win as second
        // player of 3: 5 * 2 + 3 = 13
        assert_eq!(winner.points, 13);
        // at most 2 as first (games 0, 2, 4) and 3 as second (games 1, 3, 5): 6 + 9 = 15
        assert_eq!(winner.max_points, 15);
    }

    #[test]
    fn players_without_games_get_zeros() {
        let standings = Standings::compute(&["b", "a"], &[], Scoring::Cx).unwrap();
        assert_eq!(standings.games, 0);
        // No games: ordered by name.
        assert_eq!(standings.players[0].name, "a");
        assert_eq!(standings.players[0].elo, None);
        assert_eq!(standings.players[0].score_percent, None);
        assert!(standings.table().contains(
            "   1  a        0/0      0  0-0-0        0-0-0         -              -  n/a: no complete pair yet\n"
        ));
        assert_eq!(standings.crosstable.cells[0][1], Some(CrossCell::default()));
        assert!(standings
            .crosstable
            .to_string()
            .contains("   1  a     -  .      0\n"));
    }

    #[test]
    fn records_naming_unknown_players_are_refused() {
        let records = [normal(6, 3, 0, 2, FIRST)];
        assert_eq!(
            Standings::compute(&["a", "b"], &records, Scoring::Cx)
                .unwrap_err()
                .to_string(),
            "game 7 names player 2, but there are only 2 players"
        );
        let records = [normal(0, 0, 1, 1, FIRST)];
        assert_eq!(
            Standings::compute(&["a", "b"], &records, Scoring::Cx).unwrap_err(),
            StandingsError::SamePlayerTwice { game: 1, player: 1 }
        );
    }

    #[test]
    fn a_game_recorded_twice_is_refused() {
        let records = [normal(0, 0, 0, 1, FIRST), normal(0, 0, 0, 1, FIRST)];
        let expected = StandingsError::DuplicateGame { game: 1 };
        assert_eq!(
            Standings::compute(&["a", "b"], &records, Scoring::Cx).unwrap_err(),
            expected
        );
        assert_eq!(
            MatchSummary::compute(&["a", "b"], &records, Scoring::Cx).unwrap_err(),
            expected
        );
        assert_eq!(expected.to_string(), "game 1 is recorded twice");
    }

    /// A match of 7 games between players 0 and 1, pairs 0 to 2 complete, pair 3 with one
    /// game: pair scores for player 0 of 2 + 1 = 3, 1 + 0 = 1 and 2 + 2 = 4 half-points.
    fn match_records() -> Vec<GameRecord> {
        vec![
            normal(0, 0, 0, 1, FIRST),
            normal(1, 0, 1, 0, DRAW),
            normal(2, 1, 0, 1, DRAW),
            normal(3, 1, 1, 0, FIRST),
            normal(4, 2, 0, 1, FIRST),
            normal(5, 2, 1, 0, SECOND),
            normal(6, 3, 0, 1, SECOND),
        ]
    }

    #[test]
    fn match_summary_uses_complete_pairs_only() {
        let summary = MatchSummary::compute(&["P0", "P1"], &match_records(), Scoring::Cx).unwrap();
        // cx points of P0: 3 + 1 + 1 + 0 + 3 + 3 + 0 = 11; of P1: 0 + 1 + 1 + 3 + 0 + 0 + 3 = 8
        assert_eq!(summary.points, [11, 8]);
        // P0 wins games 0, 4, 5, draws 1, 2, loses 3, 6
        assert_eq!(summary.wdl, Wdl::new(3, 2, 2));
        // pairs of 1.5, 0.5 and 2 points; game 6 waits for its pair
        assert_eq!(summary.pentanomial.counts, [0, 1, 0, 1, 1]);
        assert_eq!(summary.unpaired_games, 1);
        let elo = summary.elo.unwrap();
        // per pair: scores 0.75, 0.25, 1; mean 2/3; elo = -400 * log10(0.5) = 120.41
        assert!((elo.elo - 120.412).abs() < 1e-3);
        // variance (0.0069444 + 0.1736111 + 0.1111111) / 3 = 0.0972222, se = sqrt(0.0972222
        // / 3) = 0.1800206; LOS = Phi(0.1666667 / 0.1800206) = Phi(0.925820) = 0.82273
        assert!((elo.los - 0.822_73).abs() < 1e-5);
        // upper end 0.6667 + 1.96 * 0.1800206 = 1.0195 > 1, lower end 0.3138263 (-135.9); 2 of
        // the 7 games were drawn
        assert_eq!(
            summary.to_string(),
            "P0 vs P1: points 11-8 (cx), W-D-L 3-2-2, Ptnml(0-2) [0, 1, 0, 1, 1], \
             Elo +120.4 (95% above -135.9) (pentanomial, 3 pairs), LOS 82.3%, draw ratio 28.6%"
        );
        assert_eq!(summary.sample(), summary.pentanomial.sample());
    }

    #[test]
    fn one_error_bar_in_the_standings_and_the_match_lines() {
        let records = match_records();
        let summary = MatchSummary::compute(&["P0", "P1"], &records, Scoring::Cx).unwrap();
        let standings = Standings::compute(&["P0", "P1"], &records, Scoring::Cx).unwrap();
        let line = |name: &str| {
            let standing = standings.players.iter().find(|p| p.name == name).unwrap();
            standing.elo.unwrap()
        };
        // P0's line in the standings is the match line's estimate, from the same 3 pairs.
        assert_eq!(line("P0"), summary.elo.unwrap());
        assert_eq!(line("P0").sample.count, 3);
        // P1's is its mirror image: the pair scores 1 - x, the same interval turned round.
        let (p0, p1) = (line("P0"), line("P1"));
        assert!((p1.elo + p0.elo).abs() < 1e-9);
        assert!((p1.lower + p0.upper).abs() < 1e-9 || p1.lower == -p0.upper);
        assert!((p1.margin - p0.margin).abs() < 1e-9 || p1.margin == p0.margin);
        assert!((p1.sample.variance - p0.sample.variance).abs() < 1e-12);
        // Games fed one by one in another order give the same pairs.
        let mut tally = MatchTally::default();
        for record in records.iter().rev() {
            tally.add(record, Scoring::Cx);
        }
        assert_eq!(tally.summary(&["P0", "P1"], Scoring::Cx), summary);
    }

    #[test]
    fn match_summary_without_a_complete_pair_has_no_elo() {
        let records = &match_records()[..1];
        let summary = MatchSummary::compute(&["P0", "P1"], records, Scoring::Mnk).unwrap();
        assert_eq!(summary.pentanomial.pairs(), 0);
        assert_eq!(summary.unpaired_games, 1);
        // one win as first player: 2 points under mnk, and no Elo from a lone game
        assert_eq!(summary.points, [2, 0]);
        assert_eq!(summary.elo, None);
        assert_eq!(summary.sample(), None);
        assert_eq!(
            summary.to_string(),
            "P0 vs P1: points 2-0 (mnk), W-D-L 1-0-0, Ptnml(0-2) [0, 0, 0, 0, 0], \
             Elo n/a: no complete pair yet"
        );
        let empty = MatchSummary::compute(&["P0", "P1"], &[], Scoring::Cx).unwrap();
        assert_eq!(empty.sample(), None);
        assert!(empty
            .to_string()
            .ends_with(", Elo n/a: no complete pair yet"));
        assert_eq!(
            MatchSummary::compute(&["P0", "P1", "P2"], &[], Scoring::Cx).unwrap_err(),
            StandingsError::NotTwoPlayers(3)
        );
    }

    #[test]
    fn standings_serialize_to_json() {
        let (names, records) = three_players();
        let standings = Standings::compute(&names, &records, Scoring::Cx).unwrap();
        let json = serde_json::to_value(&standings).unwrap();
        assert_eq!(json["scoring"], "cx");
        assert_eq!(json["players"][0]["name"], "bravo");
        assert_eq!(json["players"][2]["forfeits"]["timeout"], 1);
        // An unbounded end is null (JSON has no infinity).
        assert_eq!(json["players"][1]["elo"]["upper"], serde_json::Value::Null);
        assert_eq!(json["crosstable"]["cells"][0][0], serde_json::Value::Null);
        assert_eq!(json["crosstable"]["cells"][1][2]["points"], 6);
    }
}
