//! Course players written in Java (`java:CLASS,cp=PATH`): an `MNKPlayer` or a `CXPlayer` of the
//! course frameworks, run by zerosum's GTP adapter (`java/adapter` in the repository) in a JVM
//! of its own for each game.
//!
//! The adapter ships as Java source inside this binary. The first time a classpath needs it,
//! it is compiled with the user's `javac` against that classpath (which holds the user's own
//! copy of the framework) into a cache directory keyed by the sources, the classpath and the
//! JDK version, so nothing is built twice and a changed classpath or JDK gets a fresh build.
//! The cache is `$ZEROSUM_JAVA_CACHE`, else `$XDG_CACHE_HOME/zerosum/java-adapter`, else
//! `~/.cache/zerosum/java-adapter`.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use zerosum_core::Side;
use zerosum_games::GameSpec;

use crate::clock::TimeControl;

use super::external::{ExternalEngine, GtpDriver, Peer, Protocol};
use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, Remarks};

/// The adapter's sources, by their path under the source root.
const CORE_SOURCES: [(&str, &str); 3] = [
    (
        "zerosum/adapter/GtpAdapter.java",
        include_str!("../../../../java/adapter/src/zerosum/adapter/GtpAdapter.java"),
    ),
    (
        "zerosum/adapter/CourseSession.java",
        include_str!("../../../../java/adapter/src/zerosum/adapter/CourseSession.java"),
    ),
    (
        "zerosum/adapter/CellNames.java",
        include_str!("../../../../java/adapter/src/zerosum/adapter/CellNames.java"),
    ),
];

/// The framework-specific sessions: each compiles only against its own framework, so the
/// adapter keeps those the classpath allows.
const SESSION_SOURCES: [(&str, &str, &str); 2] = [
    (
        "mnkgame.MNKPlayer",
        "zerosum/adapter/MnkCourseSession.java",
        include_str!("../../../../java/adapter/src/zerosum/adapter/MnkCourseSession.java"),
    ),
    (
        "connectx.CXPlayer",
        "zerosum/adapter/CxCourseSession.java",
        include_str!("../../../../java/adapter/src/zerosum/adapter/CxCourseSession.java"),
    ),
];

/// The adapter's main class.
const ADAPTER_CLASS: &str = "zerosum.adapter.GtpAdapter";

/// The course's limit per call when the time control has no per-move limit.
const COURSE_DEFAULT_SECONDS: u64 = 10;

/// A course player class and where to find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaPlayer {
    /// The fully qualified name of a class implementing `mnkgame.MNKPlayer` or
    /// `connectx.CXPlayer`, with a constructor without arguments.
    pub class: String,
    /// The classpath of the compiled player and of the course framework (directories or jars,
    /// separated by `:`).
    pub classpath: String,
}

impl fmt::Display for JavaPlayer {
    /// `java:CLASS,cp=PATH`, as it is read back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "java:{},cp={}", self.class, self.classpath)
    }
}

impl JavaPlayer {
    /// The command that runs this player behind the adapter, compiling the adapter first if
    /// the cache does not have it for this classpath. Fails with a message saying what to do
    /// when `java` or `javac` is missing, an entry of the classpath does not exist or the
    /// classpath has neither framework.
    pub fn command(&self) -> Result<Vec<String>, String> {
        let adapter = compiled_adapter(&self.classpath)?;
        Ok(vec![
            "java".to_string(),
            "-cp".to_string(),
            format!("{}:{}", adapter.display(), self.classpath),
            ADAPTER_CLASS.to_string(),
            self.class.clone(),
        ])
    }
}

/// The first entry of `classpath` that does not exist, if any (`DIR/*` stands for the jars of
/// `DIR`; an empty entry is the current directory).
fn missing_entry(classpath: &str) -> Option<&str> {
    classpath.split(':').find(|entry| {
        let path = entry.strip_suffix('*').unwrap_or(entry);
        !path.is_empty() && !Path::new(path).exists()
    })
}

/// Compiled adapters of this process, by classpath.
static COMPILED: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);

/// The directory of the adapter's classes for `classpath`, compiled now if no cache has it.
fn compiled_adapter(classpath: &str) -> Result<PathBuf, String> {
    let mut compiled = COMPILED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let compiled = compiled.get_or_insert_with(HashMap::new);
    if let Some(dir) = compiled.get(classpath) {
        return Ok(dir.clone());
    }
    let java = tool_version("java")?;
    let javac = tool_version("javac")?;
    if let Some(entry) = missing_entry(classpath) {
        return Err(format!(
            "cp={classpath}: the classpath entry `{entry}` does not exist (cp= lists the \
             directories or jars of the compiled player and of the course framework, separated \
             by `:`)"
        ));
    }
    let mut hasher = DefaultHasher::new();
    (CORE_SOURCES, SESSION_SOURCES, classpath, &java, &javac).hash(&mut hasher);
    let dir = cache_root().join(format!("{:016x}", hasher.finish()));
    if !dir.join("zerosum/adapter/GtpAdapter.class").is_file() {
        compile(classpath, &dir)?;
    }
    compiled.insert(classpath.to_string(), dir.clone());
    Ok(dir)
}

/// What `tool -version` prints, or a message saying how to get a JDK.
fn tool_version(tool: &str) -> Result<String, String> {
    let output = Command::new(tool)
        .arg("-version")
        .output()
        .map_err(|error| {
            format!(
                "java: players need a JDK, and `{tool}` cannot be run ({error}); install one \
             (Debian: apt-get install default-jdk-headless) and put it on the PATH"
            )
        })?;
    if !output.status.success() {
        return Err(format!("`{tool} -version` failed ({})", output.status));
    }
    Ok(format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("ZEROSUM_JAVA_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("zerosum").join("java-adapter")
}

/// Compiles the adapter against `classpath` into `dir`: the core, then each framework session
/// the classpath can compile. Builds in a scratch directory renamed into place at the end, so
/// processes compiling at the same time never see half a build.
fn compile(classpath: &str, dir: &Path) -> Result<(), String> {
    let scratch = dir.with_extension(format!("building-{}", std::process::id()));
    let result = compile_into(classpath, &scratch).and_then(|()| {
        match std::fs::rename(scratch.join("classes"), dir) {
            Ok(()) => Ok(()),
            // Another process got there first with the same build.
            Err(_) if dir.join("zerosum/adapter/GtpAdapter.class").is_file() => Ok(()),
            Err(error) => Err(format!("cannot fill {}: {error}", dir.display())),
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn compile_into(classpath: &str, scratch: &Path) -> Result<(), String> {
    let sources = scratch.join("src");
    let classes = scratch.join("classes");
    let write = |path: &str, text: &str| -> Result<PathBuf, String> {
        let file = sources.join(path);
        std::fs::create_dir_all(file.parent().expect("a source has a directory"))
            .and_then(|()| std::fs::write(&file, text))
            .map_err(|error| format!("cannot write {}: {error}", file.display()))?;
        Ok(file)
    };
    let core = CORE_SOURCES
        .iter()
        .map(|(path, text)| write(path, text))
        .collect::<Result<Vec<_>, _>>()?;
    javac(classpath, &classes, &core)?;
    let mut refusals = Vec::new();
    for (interface, path, text) in SESSION_SOURCES {
        let file = write(path, text)?;
        let with_core = format!("{}:{classpath}", classes.display());
        if let Err(refusal) = javac(&with_core, &classes, &[file]) {
            refusals.push(format!("{interface}: {refusal}"));
        }
    }
    if refusals.len() == SESSION_SOURCES.len() {
        return Err(format!(
            "cp={classpath} holds neither course framework (mnkgame.MNKPlayer nor \
             connectx.CXPlayer compiled classes); javac said: {}",
            refusals.join("; ")
        ));
    }
    Ok(())
}

/// Runs `javac` on `files` with `classpath`, output into `classes`; on failure, a one-line
/// excerpt of its errors (see [`javac_excerpt`]).
fn javac(classpath: &str, classes: &Path, files: &[PathBuf]) -> Result<(), String> {
    let output = Command::new("javac")
        .args(["-nowarn", "-encoding", "UTF-8", "-implicit:none", "-d"])
        .arg(classes)
        .arg("-cp")
        .arg(classpath)
        .args(files)
        .output()
        .map_err(|error| format!("cannot run javac: {error}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(javac_excerpt(&String::from_utf8_lossy(&output.stderr)))
    }
}

/// javac's first error as one line, the file named without its directory, and how many
/// errors there were: `MnkCourseSession.java:7: package mnkgame does not exist (4 errors)`.
fn javac_excerpt(errors: &str) -> String {
    let first = errors
        .lines()
        .find(|line| line.contains(": error: "))
        .or_else(|| errors.lines().find(|line| !line.trim().is_empty()))
        .unwrap_or("no message");
    let first = match first.split_once(": error: ") {
        Some((place, message)) => {
            let file = place.rsplit(['/', '\\']).next().unwrap_or(place);
            format!("{file}: {message}")
        }
        None => first.trim().to_string(),
    };
    let count = errors
        .lines()
        .rev()
        .find(|line| line.trim_end().ends_with("errors") || line.trim_end().ends_with("error"))
        .filter(|line| line.trim().starts_with(|c: char| c.is_ascii_digit()));
    match count {
        Some(count) => format!("{first} ({})", count.trim()),
        None => first,
    }
}

/// A course player behind the adapter: a fresh JVM for every game, `initPlayer` called while
/// the game is set up (untimed by the referee, timed by the adapter as the course does), moves
/// timed by the adapter with the course's limit. A late call is a timeout, a call that throws
/// is a crash, and an illegal choice reaches the referee as it is.
pub(crate) struct JavaCoursePlayer {
    name: String,
    player: JavaPlayer,
    driver: Option<GtpDriver>,
}

impl JavaCoursePlayer {
    pub(crate) fn new(name: String, player: JavaPlayer) -> Self {
        JavaCoursePlayer {
            name,
            player,
            driver: None,
        }
    }
}

impl JavaPlayer {
    /// Starts the player once for `spec` and ends it: the class must be found on the
    /// classpath, be made, and be a player of the framework of `spec`. The error is the
    /// adapter's, in plain words (`class P not found on the classpath`).
    pub fn check_starts(&self, spec: &GameSpec, time: &TimeControl) -> Result<(), String> {
        let mut player = JavaCoursePlayer::new(self.class.clone(), self.clone());
        let setup = GameSetup {
            spec: spec.clone(),
            side: Side::First,
            time: *time,
            seed: 0,
        };
        player.new_game(&setup).map_err(|error| match error {
            PlayerError::Unsupported { reason, .. } => reason
                .strip_prefix("the engine refuses `zerosum-game`: ")
                .map_or(reason.clone(), String::from),
            other => other.to_string(),
        })
    }
}

impl Player for JavaCoursePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.driver = None;
        let command = self.player.command().map_err(PlayerError::Failed)?;
        // The course limit is whole seconds; the adapter learns it from `time_settings`.
        let mut setup = setup.clone();
        if setup.time.per_move.is_none() {
            setup.time.per_move = Some(Duration::from_secs(COURSE_DEFAULT_SECONDS));
        }
        let engine = ExternalEngine {
            command,
            protocol: Protocol::Gtp,
            init: Vec::new(),
            margin: None,
        };
        let peer = Peer {
            name: &self.name,
            engine: &engine,
            remarks: &Remarks::default(),
        };
        let mut driver = GtpDriver::start(peer, &setup)?;
        let colour = match setup.side {
            Side::First => "b",
            Side::Second => "w",
        };
        driver.expect(&format!("zerosum-course-init {colour}"))?;
        self.driver = Some(driver);
        Ok(())
    }

    /// The adapter times each call as the course referee does; the referee goes by that.
    fn keeps_own_time(&self) -> bool {
        true
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let driver = self
            .driver
            .as_mut()
            .ok_or_else(|| PlayerError::Failed("asked for a move before the game".into()))?;
        match driver.ask_move(request)? {
            Ok(answer) => course_answer(&answer),
            Err(refusal) if refusal.starts_with("timeout") => Err(PlayerError::OutOfTime(refusal)),
            Err(refusal) => Err(PlayerError::Failed(refusal)),
        }
    }
}

/// The adapter's answer to `genmove`: the move and the call's time in milliseconds
/// (`a1 215`).
fn course_answer(answer: &str) -> Result<MoveAnswer, PlayerError> {
    let mut words = answer.split_whitespace();
    let text = words.next().unwrap_or_default();
    let millis = words.next().and_then(|ms| ms.parse::<u64>().ok());
    match (millis, words.next()) {
        (Some(millis), None) => Ok(MoveAnswer {
            elapsed: Some(Duration::from_millis(millis)),
            ..MoveAnswer::new(text)
        }),
        _ => Err(PlayerError::Failed(format!(
            "the adapter answered `{answer}`, not a move and its time"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use crate::players::{PlayerKind, PlayerSpec};

    use super::{course_answer, JavaPlayer};

    #[test]
    fn the_adapter_answers_the_move_and_its_time() {
        let answer = course_answer("c3 215").unwrap();
        assert_eq!(answer.text, "c3");
        assert_eq!(answer.elapsed, Some(std::time::Duration::from_millis(215)));
        assert!(course_answer("c3").is_err());
        assert!(course_answer("c3 fast").is_err());
    }

    #[test]
    fn java_specs_read_back_as_written() {
        for text in [
            "java:player.MyPlayer,cp=course/bin",
            "java:Solo,cp=a.jar:b/classes,name=solo",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        let spec: PlayerSpec = "java:p.Q$Inner,cp=x,name=Q".parse().unwrap();
        assert_eq!(spec.display_name(), "Q");
        assert_eq!(
            spec.kind,
            PlayerKind::Java(JavaPlayer {
                class: "p.Q$Inner".into(),
                classpath: "x".into(),
            })
        );
    }

    #[test]
    fn a_missing_classpath_entry_is_named() {
        let player = JavaPlayer {
            class: "P".into(),
            classpath: format!("{}:/nonexistent/course.jar", env!("CARGO_MANIFEST_DIR")),
        };
        let Err(error) = player.command() else {
            panic!("a missing entry is refused")
        };
        if error.contains("players need a JDK") {
            return;
        }
        assert_eq!(
            error,
            format!(
                "cp={}: the classpath entry `/nonexistent/course.jar` does not exist (cp= \
                 lists the directories or jars of the compiled player and of the course \
                 framework, separated by `:`)",
                player.classpath
            )
        );
        assert_eq!(super::missing_entry("src:/*::"), None);
    }

    #[test]
    fn javac_errors_are_one_short_line() {
        let errors = "/tmp/x/src/zerosum/adapter/MnkCourseSession.java:7: error: package \
                      mnkgame does not exist\nimport mnkgame.MNKCell;\n              ^\n\
                      /tmp/x/Other.java:8: error: cannot find symbol\n2 errors\n";
        assert_eq!(
            super::javac_excerpt(errors),
            "MnkCourseSession.java:7: package mnkgame does not exist (2 errors)"
        );
        assert_eq!(
            super::javac_excerpt("javac: invalid flag\n"),
            "javac: invalid flag"
        );
    }

    #[test]
    fn bad_java_specs_say_what_is_wrong() {
        for (text, words) in [
            ("java:player.MyPlayer", "no cp="),
            ("java:,cp=x", "not a Java class name"),
            ("java:1st.Player,cp=x", "not a Java class name"),
            ("java:a..b,cp=x", "not a Java class name"),
            ("java:P,cp=", "empty cp="),
            ("java:P,cp=x,time=3", "unknown setting `time`"),
        ] {
            let error = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(error.contains(words), "{text}: {error}");
        }
    }
}
