//! The built-in players and the text that names them: `random`, `quasi`, `engine` with any
//! search settings (`engine:time=0.5,depth=12,nodes=100000,hash=64,algo=mtdf,eval=patterns,weights=FILE`) and `human`,
//! each with an optional `name=`; external engines (`cmd=PROGRAM ARGS,proto=gtp|gomocup`, with
//! optional `init=` setup commands and `margin=` milliseconds, values quoted shell-like: see
//! [`quoting`]) and course players in Java (`java:CLASS,cp=PATH`).

pub(crate) mod engine;
pub mod engine_list;
mod external;
mod human;
mod java;
mod knowledge;
mod quasi;
mod quoting;
mod random;
pub mod table_budget;
mod typed;

use std::fmt;
use std::io::BufReader;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;
use zerosum_search::TranspositionTable;

pub use engine::{
    default_algorithm, oracle_limits, read_weights, EngineSettings, WeightsFile, MAX_WEIGHTS_BYTES,
};
pub use external::{ExternalEngine, Protocol};
pub use human::Human;
pub use java::JavaPlayer;

use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};
use engine::EngineFactory;
use external::ExternalPlayer;
use java::JavaCoursePlayer;
use quasi::QuasiFactory;
use random::RandomFactory;
use typed::{session, TypedSession};

/// A player description that cannot be understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad player: {0}")]
pub struct PlayerSpecError(String);

/// Which built-in player.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// A uniformly random legal move (R4nd0m, L0).
    Random,
    /// Win in one, else block (R4nd0m++), or on Connect-X: win in one, else a move that does
    /// not allow a win in one (L1).
    Quasi,
    /// The search engine.
    Engine(EngineSettings),
    /// A person at the terminal.
    Human,
    /// A program driven through a protocol (`cmd=PATH ARGS,proto=gtp`).
    External(ExternalEngine),
    /// A course player class run by the Java adapter (`java:CLASS,cp=PATH`).
    Java(JavaPlayer),
    /// A seat for a player the program running the tournament brings itself (a Python
    /// function, through the Python package): [`crate::run::Run::seat_guest`] seats it. A
    /// guest seat nobody took forfeits each game with the reason ([`PlayerSpec::build`]).
    Guest,
}

/// A built-in player as named on the command line: `KIND[:key=value,...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// The name given with `name=`, if any.
    pub name: Option<String>,
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(text: &str) -> Result<Self, PlayerSpecError> {
        let text = text.trim();
        if text.starts_with("cmd=") {
            return parse_external(text);
        }
        if let Some(settings) = text.strip_prefix("java:") {
            return parse_java(text, settings);
        }
        let (kind, settings) = text.split_once(':').unwrap_or((text, ""));
        let mut kind = match kind.to_ascii_lowercase().as_str() {
            "random" => PlayerKind::Random,
            "quasi" => PlayerKind::Quasi,
            "engine" => PlayerKind::Engine(EngineSettings::default()),
            "human" => PlayerKind::Human,
            "guest" => PlayerKind::Guest,
            _ => {
                return Err(PlayerSpecError(format!(
                    "unknown player `{kind}` (expected random, quasi, engine, human, guest, \
                     cmd=PROGRAM,proto=gtp|gomocup or java:CLASS,cp=PATH, e.g. engine:time=0.5)"
                )))
            }
        };
        let mut name = None;
        for (key, value) in settings_of(text, settings)? {
            match (key, &mut kind) {
                ("name", _) => name = Some(value.to_string()),
                (_, PlayerKind::Engine(engine)) => engine.set(key, value)?,
                _ => {
                    return Err(PlayerSpecError(format!(
                        "unknown setting `{key}` in `{text}` (this player takes only name=)"
                    )))
                }
            }
        }
        Ok(PlayerSpec { kind, name })
    }
}

/// The `key=value` pairs of `settings` (comma-separated), with an error naming `text` for a
/// setting without `=` or an empty name.
fn settings_of<'a>(
    text: &str,
    settings: &'a str,
) -> Result<Vec<(&'a str, &'a str)>, PlayerSpecError> {
    let mut pairs = Vec::new();
    for setting in settings.split(',').filter(|s| !s.trim().is_empty()) {
        let (key, value) = setting.split_once('=').ok_or_else(|| {
            PlayerSpecError(format!(
                "`{setting}` in `{text}` is not a key=value setting"
            ))
        })?;
        let (key, value) = (key.trim(), value.trim());
        if key == "name" && value.is_empty() {
            return Err(PlayerSpecError(format!("empty name in `{text}`")));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// The words of a command line, split shell-like (`mohex --config 'a b'`: three words).
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    quoting::split_words(line)
}

/// Separates the commands of one `init=` value (`init=param_mohex max_time 0.9;param_mohex
/// ...`): a character no GTP or Gomocup command needs, kept by the shell inside the quotes an
/// engine's spec needs anyway for its spaces.
pub const INIT_SEPARATOR: char = ';';

/// Most milliseconds `margin=` may give: a minute.
pub(crate) const MAX_MARGIN_MS: u64 = 60_000;

/// `cmd=PROGRAM ARGS,proto=gtp|gomocup[,init=CMD;CMD...][,margin=MS][,name=NAME]`, values
/// quoted as [`quoting`] reads them (`cmd="mohex --config a,b"`); `init=` may also come
/// several times, its commands in the order given.
fn parse_external(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
    let bad = |why: String| PlayerSpecError(format!("{why} in `{text}`"));
    let (mut command, mut protocol, mut name) = (None, None, None);
    let (mut init, mut margin) = (Vec::new(), None);
    for setting in quoting::split_settings(text).map_err(PlayerSpecError)? {
        if setting.trim().is_empty() {
            continue;
        }
        let (key, value) = setting
            .split_once('=')
            .ok_or_else(|| bad(format!("`{setting}` is not a key=value setting")))?;
        let key = key.trim();
        let value = quoting::unquote_value(value).map_err(PlayerSpecError)?;
        match key {
            "cmd" => {
                let words = quoting::split_words(&value).map_err(PlayerSpecError)?;
                if words.is_empty() {
                    return Err(bad("empty cmd=".into()));
                }
                command = Some(words);
            }
            "proto" => protocol = Some(value.parse().map_err(PlayerSpecError)?),
            "init" => init.extend(
                value
                    .split(INIT_SEPARATOR)
                    .map(str::trim)
                    .filter(|command| !command.is_empty())
                    .map(String::from),
            ),
            "margin" => {
                let ms = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&ms| ms <= MAX_MARGIN_MS)
                    .ok_or_else(|| {
                        bad(format!(
                            "margin= must be whole milliseconds up to {MAX_MARGIN_MS}, not `{value}`"
                        ))
                    })?;
                margin = Some(std::time::Duration::from_millis(ms));
            }
            "name" if value.is_empty() => return Err(bad("empty name".into())),
            "name" => name = Some(value),
            _ => {
                return Err(bad(format!(
                    "unknown setting `{key}` (an engine program takes cmd=, proto=, init=, \
                     margin= and name=)"
                )))
            }
        }
    }
    let command = command.ok_or_else(|| bad("no cmd=".into()))?;
    let protocol = protocol.ok_or_else(|| bad("no proto= (gtp or gomocup)".into()))?;
    Ok(PlayerSpec {
        kind: PlayerKind::External(ExternalEngine {
            command,
            protocol,
            init,
            margin,
        }),
        name,
    })
}

/// `java:CLASS,cp=PATH[,name=NAME]`: `settings` is what follows `java:`.
fn parse_java(text: &str, settings: &str) -> Result<PlayerSpec, PlayerSpecError> {
    let (class, settings) = settings.split_once(',').unwrap_or((settings, ""));
    let class = class.trim();
    let is_class_name = !class.is_empty()
        && class.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
    if !is_class_name {
        return Err(PlayerSpecError(format!(
            "`{class}` in `{text}` is not a Java class name (expected java:CLASS,cp=PATH, e.g. \
             java:player.MyPlayer,cp=course/bin)"
        )));
    }
    let (mut classpath, mut name) = (None, None);
    for (key, value) in settings_of(text, settings)? {
        match key {
            "cp" if !value.is_empty() => classpath = Some(value.to_string()),
            "cp" => return Err(PlayerSpecError(format!("empty cp= in `{text}`"))),
            "name" => name = Some(value.to_string()),
            _ => {
                return Err(PlayerSpecError(format!(
                    "unknown setting `{key}` in `{text}` (a Java course player takes cp= and \
                     name=)"
                )))
            }
        }
    }
    let classpath = classpath.ok_or_else(|| {
        PlayerSpecError(format!(
            "no cp= in `{text}`: give the classpath of the player and of the course framework"
        ))
    })?;
    Ok(PlayerSpec {
        kind: PlayerKind::Java(JavaPlayer {
            class: class.to_string(),
            classpath,
        }),
        name,
    })
}

impl fmt::Display for PlayerSpec {
    /// The spec in the form it is read back from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, mut settings) = match &self.kind {
            PlayerKind::Random => (Some("random"), Vec::new()),
            PlayerKind::Quasi => (Some("quasi"), Vec::new()),
            PlayerKind::Human => (Some("human"), Vec::new()),
            PlayerKind::Guest => (Some("guest"), Vec::new()),
            PlayerKind::Engine(engine) => {
                let text = engine.to_string();
                (
                    Some("engine"),
                    [text].into_iter().filter(|t| !t.is_empty()).collect(),
                )
            }
            PlayerKind::Java(player) => (None, vec![player.to_string()]),
            PlayerKind::External(engine) => {
                let line = quoting::command_line(&engine.command);
                let mut settings = vec![
                    format!("cmd={}", quoting::quote_value(&line)),
                    format!("proto={}", engine.protocol),
                ];
                if !engine.init.is_empty() {
                    let init = engine.init.join(&INIT_SEPARATOR.to_string());
                    settings.push(format!("init={}", quoting::quote_value(&init)));
                }
                if let Some(margin) = engine.margin {
                    settings.push(format!("margin={}", margin.as_millis()));
                }
                (None, settings)
            }
        };
        if let Some(name) = &self.name {
            match &self.kind {
                PlayerKind::External(_) => {
                    settings.push(format!("name={}", quoting::quote_value(name)))
                }
                _ => settings.push(format!("name={name}")),
            }
        }
        match kind {
            Some(kind) if settings.is_empty() => f.write_str(kind),
            Some(kind) => write!(f, "{kind}:{}", settings.join(",")),
            None => f.write_str(&settings.join(",")),
        }
    }
}

impl PlayerSpec {
    /// The name results show: the `name=` given, else for an external engine its program's
    /// file name (`mybot` for `cmd=./bots/mybot --fast`), for a Java course player its class's
    /// simple name, and for the others the spec itself (`engine:time=0.5`).
    pub fn display_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let short = match &self.kind {
            PlayerKind::External(engine) => engine
                .command
                .first()
                .and_then(|program| std::path::Path::new(program).file_name())
                .map(|file| file.to_string_lossy().into_owned()),
            PlayerKind::Java(player) => player.class.rsplit('.').next().map(String::from),
            _ => None,
        };
        short
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| self.to_string())
    }

    /// A fresh player. A human reads standard input and writes prompts to standard error.
    pub fn build(&self) -> Box<dyn Player> {
        let name = self.display_name();
        match &self.kind {
            PlayerKind::Human => Box::new(Human::new(
                name,
                Box::new(BufReader::new(std::io::stdin())),
                Box::new(std::io::stderr()),
            )),
            PlayerKind::Random => BuiltinPlayer::boxed(name, BuiltinKind::Random),
            PlayerKind::Quasi => BuiltinPlayer::boxed(name, BuiltinKind::Quasi),
            PlayerKind::Engine(settings) => {
                BuiltinPlayer::boxed(name, BuiltinKind::Engine(settings.clone(), None))
            }
            PlayerKind::External(engine) => Box::new(ExternalPlayer::new(name, engine.clone())),
            PlayerKind::Java(player) => Box::new(JavaCoursePlayer::new(name, player.clone())),
            PlayerKind::Guest => Box::new(EmptySeat { name }),
        }
    }
}

/// A guest seat that nobody took: it cannot play.
struct EmptySeat {
    name: String,
}

impl Player for EmptySeat {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        Err(PlayerError::Unsupported {
            spec: setup.spec.to_string(),
            reason: "a guest seat is played by the program that brings its player (the Python \
                     package), and none was brought here"
                .to_string(),
        })
    }

    fn choose(&mut self, _request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        Err(PlayerError::Failed(
            "a guest seat has no player".to_string(),
        ))
    }
}

/// The players whose decision runs on the concrete game.
enum BuiltinKind {
    Random,
    Quasi,
    /// The engine, and its transposition table once a game has made it.
    Engine(EngineSettings, Option<Arc<TranspositionTable>>),
}

/// Random, quasi-random and engine players.
struct BuiltinPlayer {
    name: String,
    kind: BuiltinKind,
    session: Option<Box<dyn TypedSession>>,
}

impl BuiltinPlayer {
    fn boxed(name: String, kind: BuiltinKind) -> Box<dyn Player> {
        Box::new(BuiltinPlayer {
            name,
            kind,
            session: None,
        })
    }
}

impl Drop for BuiltinPlayer {
    /// An engine's table goes to the next engine player.
    fn drop(&mut self) {
        self.session = None;
        if let BuiltinKind::Engine(_, table) = &mut self.kind {
            if let Some(table) = table.take() {
                engine::return_table(table);
            }
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The engine searches a timed move on a thread of its own and only waits for it (see
    /// `EngineStrategy`).
    fn waits_when_timed(&self) -> bool {
        matches!(self.kind, BuiltinKind::Engine(..))
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        let seed = setup.seed;
        self.session = None;
        let session = match &mut self.kind {
            BuiltinKind::Random => session(&setup.spec, RandomFactory { seed })?,
            BuiltinKind::Quasi => session(
                &setup.spec,
                QuasiFactory {
                    seed,
                    gravity: setup.spec.family().layout().gravity(),
                },
            )?,
            BuiltinKind::Engine(settings, table) => session(
                &setup.spec,
                EngineFactory {
                    settings: settings.clone(),
                    table,
                },
            )?,
        };
        self.session = Some(session);
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        self.session
            .as_mut()
            .ok_or_else(|| PlayerError::Failed("asked for a move before the game".into()))?
            .choose(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn external(text: &str) -> (ExternalEngine, Option<String>) {
        match text.parse::<PlayerSpec>() {
            Ok(PlayerSpec {
                kind: PlayerKind::External(engine),
                name,
            }) => (engine, name),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn engine_specs_take_quoted_commands_init_commands_and_a_margin() {
        let (engine, name) = external(
            r#"cmd="mohex --config 'my dir/a,b'",proto=gtp,init="param_mohex max_time 0.9; param_mohex reuse_subtree 0",init=showboard,margin=200,name=MoHex"#,
        );
        assert_eq!(engine.command, ["mohex", "--config", "my dir/a,b"]);
        assert_eq!(
            engine.init,
            [
                "param_mohex max_time 0.9",
                "param_mohex reuse_subtree 0",
                "showboard"
            ]
        );
        assert_eq!(engine.margin, Some(Duration::from_millis(200)));
        assert_eq!(name.as_deref(), Some("MoHex"));
        // Unquoted as before.
        let (engine, _) = external("cmd=/bin/mybot --fast,proto=gomocup");
        assert_eq!(engine.command, ["/bin/mybot", "--fast"]);
        assert!(engine.init.is_empty() && engine.margin.is_none());
    }

    #[test]
    fn engine_specs_read_back_from_their_written_form() {
        for text in [
            "cmd=/bin/mybot --fast,proto=gtp,name=mybot",
            r#"cmd="mohex --config 'a b,c' \"q\"",proto=gtp,init="a, b;c",margin=0,name="x, y""#,
            "cmd='/my dir/bot',proto=gomocup,init=INFO max_memory 0",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            let written = spec.to_string();
            assert_eq!(written.parse::<PlayerSpec>().unwrap(), spec, "{written}");
        }
        assert_eq!(
            "cmd=/bin/mybot --fast,proto=gtp,name=mybot"
                .parse::<PlayerSpec>()
                .unwrap()
                .to_string(),
            "cmd=/bin/mybot --fast,proto=gtp,name=mybot"
        );
    }

    #[test]
    fn bad_engine_specs_name_the_problem() {
        for (text, words) in [
            (r#"cmd="mohex,proto=gtp"#, "unclosed quote"),
            (
                "cmd=x,proto=gtp,margin=fast",
                "margin= must be whole milliseconds",
            ),
            ("cmd=x,proto=gtp,margin=60001", "up to 60000"),
            ("cmd=x,proto=gtp,speed=9", "unknown setting `speed`"),
            ("cmd='',proto=gtp", "empty cmd="),
            ("cmd=  ,proto=gtp", "empty cmd="),
            ("cmd=x", "no proto="),
        ] {
            let error = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(error.contains(words), "{text}: {error}");
        }
    }
}
