//! The finished games of the tournaments the tabs watch, listed and downloaded by plain GETs:
//!
//! - `GET /games?feed=F&from=N`: `{"finished": T, "from": N, "games": [...]}`, the games from
//!   the `N`th to finish on (from 0; `from` may be left out), at most [`MAX_LISTED`] of them:
//!   each with `number` (from 1, its place in the schedule), `round` (from 1), `spec`,
//!   `players` (first, second), `result` (`1-0`, `0-1`, `1/2-1/2`), `reason`, `moves` (how
//!   many) and `formats` (the downloads it has);
//! - `GET /game?feed=F&number=N&format=FMT`: game `N` as a file to save: `json` (its line of
//!   the record), `pgn` (the PGN-style text, every game), `sgf` (Hex and Atoll) or `psq`
//!   (m,n,k), as [`zerosum_arena::records::export`] writes them.
//!
//! Both only read: they start and change nothing, answer only what a tab watching the feed
//! is shown anyway (finished games, never the game under way) and are bounded (one game, or
//! [`MAX_LISTED`] summaries). Like every request they pass [`crate::access::check`] first, and
//! no answer carries a CORS header, so a page of another site can neither send them through a
//! rebound name nor read what they answer.

use serde_json::{json, Value};
use zerosum_arena::records::export::game_file;
use zerosum_arena::GameRecord;
use zerosum_formats::Format;
use zerosum_games::GameSpec;

use crate::http::Request;
use crate::tournament_feed::FeedTable;

/// Most games one `/games` answer lists; the page asks again from where it stopped.
pub const MAX_LISTED: usize = 500;

/// A file to download.
#[derive(Debug)]
pub struct Download {
    pub content_type: &'static str,
    /// The name to save it under, `zerosum-game-N.EXT` (no text of the game in it).
    pub file_name: String,
    pub body: String,
}

impl Download {
    /// The header lines that make the browser save the answer under its name.
    pub fn headers(&self) -> String {
        format!(
            "Content-Disposition: attachment; filename=\"{}\"\r\nX-Content-Type-Options: nosniff\r\n",
            self.file_name
        )
    }
}

/// Why there is nothing to answer: the status line and what the answer says.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: &'static str,
    pub message: String,
}

fn not_found(message: impl Into<String>) -> Refusal {
    Refusal {
        status: "404 Not Found",
        message: message.into(),
    }
}

fn bad_request(message: impl Into<String>) -> Refusal {
    Refusal {
        status: "400 Bad Request",
        message: message.into(),
    }
}

/// The number `name` of the request's query.
fn number<T: std::str::FromStr>(request: &Request, name: &str) -> Result<T, Refusal> {
    let text = request
        .query_value(name)
        .ok_or_else(|| bad_request(format!("the request names no `{name}`")))?;
    text.parse()
        .map_err(|_| bad_request(format!("`{name}` is a number, not `{text}`")))
}

/// The feed the request names, while it lasts.
fn feed(
    request: &Request,
    feeds: &FeedTable,
) -> Result<crate::tournament_feed::TournamentFeed, Refusal> {
    feeds
        .get(number(request, "feed")?)
        .ok_or_else(|| not_found("no such tournament: reload the page"))
}

/// The formats game `record` downloads in, `json` first.
fn formats(record: &GameRecord) -> Vec<&'static str> {
    let spec = record.spec.parse::<GameSpec>().ok();
    let mut names = vec!["json"];
    names.extend(
        [Format::Pgn, Format::Sgf, Format::Psq]
            .into_iter()
            .filter(|format| spec.as_ref().is_some_and(|spec| format.holds(spec)))
            .map(Format::name),
    );
    names
}

/// The answer to `GET /games`.
pub(crate) fn list(request: &Request, feeds: &FeedTable) -> Result<Download, Refusal> {
    let feed = feed(request, feeds)?;
    let from = match request.query_value("from") {
        Some(_) => number(request, "from")?,
        None => 0,
    };
    let (records, finished) = feed.finished(from, MAX_LISTED);
    let games: Vec<Value> = records
        .iter()
        .map(|record| {
            json!({
                "number": record.game + 1,
                "round": record.round + 1,
                "spec": record.spec,
                "players": [record.first_name, record.second_name],
                "result": record.result_text(),
                "reason": record.reason,
                "moves": record.moves.len(),
                "formats": formats(record),
            })
        })
        .collect();
    Ok(Download {
        content_type: "application/json",
        file_name: "zerosum-games.json".into(),
        body: json!({ "finished": finished, "from": from, "games": games }).to_string(),
    })
}

/// The answer to `GET /game`.
pub(crate) fn game(request: &Request, feeds: &FeedTable) -> Result<Download, Refusal> {
    let feed = feed(request, feeds)?;
    let number: usize = number(request, "number")?;
    let format = request.query_value("format").unwrap_or("json");
    let record = feed
        .finished_game(number)
        .ok_or_else(|| not_found(format!("game {number} has not finished")))?;
    let file_name = |extension: &str| format!("zerosum-game-{number}.{extension}");
    if format == "json" {
        let line = serde_json::to_string(&record)
            .map_err(|error| not_found(format!("game {number}: {error}")))?;
        return Ok(Download {
            content_type: "application/json",
            file_name: file_name("json"),
            body: line + "\n",
        });
    }
    let chosen = Format::parse(format)
        .ok_or_else(|| bad_request("the formats are json, pgn, sgf and psq".to_string()))?;
    let text = game_file(&record)
        .map_err(|error| not_found(error.to_string()))
        .and_then(|file| {
            chosen
                .write(&file)
                .map_err(|reason| not_found(format!("game {number}: {reason}")))
        })?;
    Ok(Download {
        content_type: match chosen {
            Format::Sgf => "application/x-go-sgf",
            Format::Psq | Format::Pgn => "text/plain; charset=utf-8",
        },
        file_name: file_name(chosen.name()),
        body: text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_arena::run::Run;
    use zerosum_arena::{Format as Schedule, TimeControl, TournamentSettings};

    use crate::tournament_feed::TournamentFeed;

    /// A feed of two finished games of tic-tac-toe, in a table.
    fn played() -> (TournamentFeed, FeedTable) {
        let settings = TournamentSettings::new(
            vec!["quasi".into(), "random".into()],
            vec!["tictactoe".into()],
            Schedule::RoundRobin { rounds: 1 },
            TimeControl::per_move(1.0),
            5,
        );
        let run = Run::unrecorded(settings, 1).unwrap();
        let feed = TournamentFeed::of_run(&run);
        run.play(&mut feed.clone()).unwrap();
        let table = FeedTable::default();
        table.add(&feed);
        (feed, table)
    }

    fn get(query: &str) -> Request {
        Request {
            method: "GET".into(),
            path: "/game".into(),
            query: query.into(),
            host: Some("localhost:8080".into()),
            origin: None,
            content_type: None,
            body: Vec::new(),
        }
    }

    #[test]
    fn finished_games_are_listed_and_downloaded_in_their_formats() {
        let (feed, table) = played();
        let id = feed.id();
        let listed = list(&get(&format!("feed={id}")), &table).unwrap();
        let listed: Value = serde_json::from_str(&listed.body).unwrap();
        assert_eq!(listed["finished"], 2);
        let games = listed["games"].as_array().unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0]["formats"], json!(["json", "pgn", "psq"]));
        let later = list(&get(&format!("feed={id}&from=1")), &table).unwrap();
        let later: Value = serde_json::from_str(&later.body).unwrap();
        assert_eq!(later["games"].as_array().unwrap().len(), 1);

        let number = games[0]["number"].as_u64().unwrap();
        let download = |format: &str| {
            game(
                &get(&format!("feed={id}&number={number}&format={format}")),
                &table,
            )
        };
        let line = download("json").unwrap();
        let record: GameRecord = serde_json::from_str(&line.body).unwrap();
        assert_eq!(record.game + 1, number as usize);
        assert!(line
            .headers()
            .contains(&format!("filename=\"zerosum-game-{number}.json\"")));
        let pgn = download("pgn").unwrap();
        assert!(pgn.body.contains("quasi"), "{}", pgn.body);
        assert!(download("psq").is_ok());
        assert_eq!(download("sgf").unwrap_err().status, "404 Not Found");
        assert_eq!(download("exe").unwrap_err().status, "400 Bad Request");
    }

    #[test]
    fn only_finished_games_of_known_feeds_are_answered() {
        let (feed, table) = played();
        let id = feed.id();
        let status = |query: String| game(&get(&query), &table).unwrap_err().status;
        assert_eq!(status(format!("feed={id}&number=3")), "404 Not Found");
        assert_eq!(status(format!("feed={id}&number=0")), "404 Not Found");
        assert_eq!(status(format!("feed={id}&number=x")), "400 Bad Request");
        assert_eq!(
            status(format!("feed={}&number=1", id + 1000)),
            "404 Not Found"
        );
        assert_eq!(status("number=1".into()), "400 Bad Request");
        drop(feed);
        // A feed nobody holds any more is gone.
        assert_eq!(status(format!("feed={id}&number=1")), "404 Not Found");
    }
}
