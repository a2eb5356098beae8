//! Charts of a record's games (see [`zerosum_charts`]): the standings with their Elo error
//! bars, each player's Elo against the number of games played, the score of every pair of
//! players and the time players used per move. `zerosum report` writes them as SVG files; the
//! web page shows the Elo chart of the tournament it watches.
//!
//! Every Elo drawn is the one the standings print ([`Standings::compute`]): against the field,
//! from colour-swapped pairs once a pair is complete, with its 95% interval. Players are drawn
//! in ranking order, each in the same colour in every chart.

use std::collections::BTreeMap;

use thiserror::Error;
use zerosum_charts::{Chart, GridCell, GridChart, IntervalChart, IntervalRow, LineChart, Series};
use zerosum_core::{Outcome, Side};

use crate::records::record::GameRecord;
use crate::statistics::elo::{EloEstimate, NO_PAIR_YET};
use crate::statistics::scoring::Scoring;
use crate::statistics::standings::{Standings, StandingsError};

/// Most players a record may name (player indexes run below it).
pub const MAX_PLAYERS: usize = 4096;

/// Most points of a line: longer records are sampled evenly (the last game always drawn).
const MAX_POINTS: usize = 200;

/// Why a record cannot be charted.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error("the record holds no game: there is nothing to chart")]
    NoGames,
    #[error("game {game} names player {index}; a record holds at most {MAX_PLAYERS} players")]
    TooManyPlayers { game: usize, index: usize },
    #[error(transparent)]
    Standings(#[from] StandingsError),
}

/// The charts of a record, each a whole SVG document, and the standings they show.
pub struct Report {
    pub standings: Standings,
    /// `(name, svg)`: `standings`, `elo`, `pairs`, `move-times`.
    pub charts: Vec<(&'static str, String)>,
}

/// The players of `records`, indexed as the records' `first` and `second`: the name a
/// record gives each (the first one met), `player N` for an index no record names.
pub fn player_names(records: &[GameRecord]) -> Result<Vec<String>, ReportError> {
    let mut names: Vec<Option<String>> = Vec::new();
    for record in records {
        for (index, name) in [
            (record.first, &record.first_name),
            (record.second, &record.second_name),
        ] {
            if index >= MAX_PLAYERS {
                return Err(ReportError::TooManyPlayers {
                    game: record.game.saturating_add(1),
                    index,
                });
            }
            if names.len() <= index {
                names.resize(index + 1, None);
            }
            names[index].get_or_insert_with(|| name.clone());
        }
    }
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(index, name)| name.unwrap_or_else(|| format!("player {}", index + 1)))
        .collect())
}

/// Every chart of `records`, players ranked with `scoring`.
pub fn report(records: &[GameRecord], scoring: Scoring) -> Result<Report, ReportError> {
    if records.is_empty() {
        return Err(ReportError::NoGames);
    }
    let names = player_names(records)?;
    let standings = Standings::compute(&names, records, scoring)?;
    let order: Vec<usize> = standings.players.iter().map(|p| p.player).collect();
    let charts = vec![
        ("standings", standings_chart(&standings).to_svg()),
        ("elo", elo_chart(&names, records, scoring)?.to_svg()),
        ("pairs", pairs_chart(&names, &order, records).to_svg()),
        (
            "move-times",
            move_time_chart(&names, &order, records).to_svg(),
        ),
    ];
    Ok(Report { standings, charts })
}

/// `1 game`, `2 games`.
fn games(count: usize) -> String {
    match count {
        1 => "1 game".into(),
        _ => format!("{count} games"),
    }
}

/// `+35.2 +/- 20.1` (as [`EloEstimate`] prints it), or [`NO_PAIR_YET`].
fn estimate_text(elo: Option<&EloEstimate>) -> String {
    elo.map_or_else(|| NO_PAIR_YET.to_string(), |e| e.to_string())
}

/// The standings: each player's Elo against the field with its 95% interval.
pub fn standings_chart(standings: &Standings) -> IntervalChart {
    let rows = standings
        .players
        .iter()
        .map(|player| {
            let (value, low, high) = player.elo.map_or((f64::NAN, f64::NAN, f64::NAN), |e| {
                (e.elo, e.lower, e.upper)
            });
            let wdl = player.wdl();
            let estimate = estimate_text(player.elo.as_ref());
            IntervalRow {
                label: format!("{}. {}", player.rank, player.name),
                value,
                low,
                high,
                note: format!("{estimate}  ({wdl}, {})", games(player.games as usize)),
                tooltip: format!(
                    "{}: Elo {estimate}{}; {} points of {}; W-D-L {wdl}",
                    player.name,
                    player
                        .elo
                        .map_or_else(String::new, |e| format!(", {}", e.interval_text())),
                    player.points,
                    player.max_points
                ),
            }
        })
        .collect();
    let mut chart = IntervalChart::new(
        &format!(
            "Standings after {}: Elo against the field, 95% interval",
            games(standings.games)
        ),
        "Elo difference against the field (arrows: unbounded)",
        rows,
    );
    chart.reference = Some(0.0);
    chart
}

/// Each player's Elo (with its 95% interval shaded) after each number of games of `records`,
/// in the order they were played; players in ranking order.
pub fn elo_chart(
    names: &[String],
    records: &[GameRecord],
    scoring: Scoring,
) -> Result<LineChart, ReportError> {
    let total = records.len();
    let every = total.div_ceil(MAX_POINTS).max(1);
    let mut counts: Vec<usize> = (every..=total).step_by(every).collect();
    if counts.last() != Some(&total) {
        counts.push(total);
    }
    let last = Standings::compute(names, records, scoring)?;
    let mut series: Vec<Series> = last
        .players
        .iter()
        .map(|player| Series {
            // A line that cannot be drawn says why in the legend.
            name: match player.elo {
                Some(elo) if !elo.elo.is_finite() => format!("{} (Elo {elo})", player.name),
                _ => player.name.clone(),
            },
            ..Series::default()
        })
        .collect();
    let row_of: BTreeMap<usize, usize> = last
        .players
        .iter()
        .enumerate()
        .map(|(row, player)| (player.player, row))
        .collect();
    for &count in &counts {
        let standings = if count == total {
            last.clone()
        } else {
            Standings::compute(names, &records[..count], scoring)?
        };
        for player in &standings.players {
            let Some(elo) = player.elo else { continue };
            let line = &mut series[row_of[&player.player]];
            let x = count as f64;
            line.points.push((x, elo.elo));
            line.band.push((x, elo.lower, elo.upper));
        }
    }
    for (line, player) in series.iter_mut().zip(&last.players) {
        if let Some(index) = line.points.len().checked_sub(1) {
            let elo = estimate_text(player.elo.as_ref());
            line.marks.push((
                index,
                format!("{}: Elo {elo} after {}", player.name, games(total)),
            ));
        }
    }
    let mut chart = LineChart::new(
        "Elo against games played (shaded: 95% interval)",
        "games played",
        "Elo difference against the field",
        series,
    );
    chart.reference_y = Some(0.0);
    chart.whole_x = true;
    chart.empty_note =
        "no finite Elo yet: no colour-swapped pair is complete, or every player has won or lost all its pairs".into();
    Ok(chart)
}

/// Game points (win 1, draw 1/2) of `player` in `record`.
fn game_points(record: &GameRecord, player: usize) -> f64 {
    match record.outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(side) if record.player(side) == player => 1.0,
        Outcome::Win(_) => 0.0,
    }
}

/// What each player scored against each other (win 1, draw 1/2), rows and columns in
/// `order`.
pub fn pairs_chart(names: &[String], order: &[usize], records: &[GameRecord]) -> GridChart {
    // scores[a][b]: (points, games) of player a against player b.
    let mut scores = vec![vec![(0.0, 0u32); names.len()]; names.len()];
    for record in records {
        for side in [Side::First, Side::Second] {
            let (player, opponent) = (record.player(side), record.player(side.opponent()));
            let cell = &mut scores[player][opponent];
            cell.0 += game_points(record, player);
            cell.1 += 1;
        }
    }
    let cells = order
        .iter()
        .map(|&row| {
            order
                .iter()
                .map(|&column| {
                    let (points, games) = scores[row][column];
                    (row != column && games > 0).then(|| GridCell {
                        share: points / f64::from(games),
                        text: format!("{points}/{games}"),
                        tooltip: format!(
                            "{} against {}: {points} of {games} ({:.0}%)",
                            names[row],
                            names[column],
                            100.0 * points / f64::from(games)
                        ),
                    })
                })
                .collect()
        })
        .collect();
    GridChart {
        title: "Score of each pair (win 1, draw 1/2)".into(),
        caption: "row player's points against the column player (numbered by rank), of the games between them".into(),
        rows: order.iter().map(|&p| names[p].clone()).collect(),
        cells,
    }
}

/// The mean time each player used for its first, second, ... move of a game (opening moves
/// left out), in order; move numbers reached in fewer than a tenth of the player's games are
/// left out.
pub fn move_time_chart(names: &[String], order: &[usize], records: &[GameRecord]) -> LineChart {
    // sums[player][n]: (total ms, count) of the player's move n (from 0).
    let mut sums: Vec<Vec<(f64, u32)>> = vec![Vec::new(); names.len()];
    let mut games = vec![0u32; names.len()];
    for record in records {
        games[record.first] += 1;
        games[record.second] += 1;
        let opening = if record.opening.is_some() {
            record.move_ms.iter().take_while(|&&ms| ms == 0).count()
        } else {
            0
        };
        let mut own = [0usize; 2];
        for (ply, &ms) in record.move_ms.iter().enumerate().skip(opening) {
            // Turns alternate from the first player, the opening included.
            let side = if ply % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let player = record.player(side);
            let number = &mut own[side.index()];
            let line = &mut sums[player];
            if line.len() <= *number {
                line.resize(*number + 1, (0.0, 0));
            }
            line[*number].0 += ms as f64;
            line[*number].1 += 1;
            *number += 1;
        }
    }
    let series = order
        .iter()
        .map(|&player| {
            let least = (games[player] / 10).max(1);
            let points: Vec<(f64, f64)> = sums[player]
                .iter()
                .enumerate()
                .filter(|(_, &(_, count))| count >= least)
                .map(|(number, &(total, count))| ((number + 1) as f64, total / f64::from(count)))
                .collect();
            // A dot with its tooltip on each point, while they are few enough to tell apart.
            let marks = if points.len() <= 40 {
                points
                    .iter()
                    .enumerate()
                    .map(|(i, &(number, ms))| {
                        (i, format!("{}: move {number}, {ms:.1} ms", names[player]))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Series {
                name: names[player].clone(),
                points,
                band: Vec::new(),
                marks,
            }
        })
        .collect();
    let mut chart = LineChart::new(
        "Time used per move (mean over games)",
        "the player's move number in the game (opening moves and moves of under 10% of its games left out)",
        "mean time used (ms)",
        series,
    );
    chart.whole_x = true;
    chart.empty_note = "no timed move".into();
    chart
}
