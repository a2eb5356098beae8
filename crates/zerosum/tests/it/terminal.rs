//! `zerosum play` as a person meets it: the binary runs in a real terminal (a detached tmux
//! session), the test types keys into it and reads the screen back with `capture-pane`, as a
//! person reads it. Needs tmux: without it the test is reported as ignored (required where
//! `ZEROSUM_REQUIRE_TOOLS` is set, see `build-support/detect.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::support;

/// How long the screen may take to show what the test waits for: generous, for a loaded machine.
const WATCHDOG: Duration = Duration::from_secs(180);

/// What the program prints when it is done (the shell prints it after the binary exits).
const EXITED: &str = "(play exited)";

/// The human's prompt.
const PROMPT: &str = "X to move (you); a move, or help, undo, quit:";

/// A detached tmux server of its own (its socket in a scratch directory), one window running
/// a command; killed when dropped.
struct Terminal {
    socket: PathBuf,
}

impl Terminal {
    /// Starts `command` (a shell line) in a `width x height` window.
    fn start(dir: &Path, command: &str, width: u16, height: u16) -> Terminal {
        let terminal = Terminal {
            socket: dir.join("tmux.sock"),
        };
        let (width, height) = (width.to_string(), height.to_string());
        let status = terminal
            .tmux()
            .args([
                "new-session",
                "-d",
                "-s",
                "play",
                "-x",
                &width,
                "-y",
                &height,
            ])
            .arg(command)
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux cannot start a session");
        terminal
    }

    fn tmux(&self) -> Command {
        let mut command = Command::new("tmux");
        command.arg("-S").arg(&self.socket).env_remove("TMUX");
        command
    }

    /// Types `text` and Enter.
    fn type_line(&self, text: &str) {
        for keys in [["-l", text], ["Enter", ""]] {
            let keys: Vec<&str> = keys.into_iter().filter(|k| !k.is_empty()).collect();
            let status = self
                .tmux()
                .args(["send-keys", "-t", "play"])
                .args(keys)
                .status()
                .expect("tmux runs");
            assert!(status.success(), "tmux cannot send keys");
        }
    }

    /// The screen as it shows now (`whole`: with everything scrolled off above it).
    fn capture(&self, whole: bool) -> String {
        let mut command = self.tmux();
        command.args(["capture-pane", "-p", "-t", "play"]);
        if whole {
            command.args(["-S", "-"]);
        }
        let output = command.output().expect("tmux runs");
        assert!(output.status.success(), "tmux cannot capture the pane");
        support::text(&output.stdout)
    }

    /// The whole history once `ready` holds for it, within the watchdog.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let history = self.capture(true);
            if ready(&history) {
                return history;
            }
            assert!(
                started.elapsed() < WATCHDOG,
                "waited {WATCHDOG:?} for {what}; the screen:\n{history}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// The glyphs framed (`[X X X X]`, `[X]`) on the last board `screen` shows: the six rows
/// above its last line of column numbers.
fn framed_glyphs(screen: &str) -> Vec<char> {
    let lines: Vec<&str> = screen.lines().collect();
    let numbers = lines
        .iter()
        .rposition(|line| line.trim() == "1 2 3 4 5 6 7")
        .expect("a board on the screen");
    let mut glyphs = Vec::new();
    for line in &lines[numbers.saturating_sub(6)..numbers] {
        let mut inside = false;
        for c in line.chars() {
            match c {
                '[' => inside = true,
                ']' => inside = false,
                ' ' => {}
                _ if inside => glyphs.push(c),
                _ => {}
            }
        }
    }
    glyphs
}

/// A game of Connect Four against a depth-limited engine (reproducible: no clock decides its
/// moves), typed key by key: a move, `undo` once the engine has answered, then columns in
/// turn until the game ends. The final screen must show the legend, the winning four framed
/// and the winner named with the reason.
#[test]
#[cfg_attr(zerosum_no_tmux, ignore = "needs tmux on PATH")]
fn connect_four_at_the_terminal_with_an_undo() {
    let dir = support::scratch("terminal", "connect4");
    let command = format!(
        "{} play connect4 --second engine:depth=4 --st 60; echo '{EXITED}'; sleep 600",
        env!("CARGO_BIN_EXE_zerosum")
    );
    let terminal = Terminal::start(&dir, &command, 100, 50);
    let prompts = |history: &str| history.matches(PROMPT).count();
    let mut seen = 0;
    let mut typed = 0;
    let columns = ["4", "undo", "3", "3", "3", "5", "2", "6", "1", "7", "4"];
    loop {
        let history = terminal.wait_for("the next prompt or the end", |history| {
            history.contains(EXITED) || prompts(history) > seen
        });
        if history.contains(EXITED) {
            break;
        }
        seen = prompts(&history);
        // After the listed keys, columns in turn (a full one is refused and asked again).
        let key = columns
            .get(typed)
            .copied()
            .unwrap_or(["1", "2", "3", "4", "5", "6", "7"][typed % 7]);
        terminal.type_line(key);
        typed += 1;
        assert!(typed < 200, "the game does not end:\n{history}");
    }
    let history = terminal.capture(true);
    assert!(
        history.contains("took back 4 and 4: you to move again"),
        "the undo is not reported:\n{history}"
    );
    let screen = terminal.capture(false);
    assert!(
        screen.contains("X = you, O = engine:depth=4"),
        "no legend:\n{screen}"
    );
    assert!(
        screen.contains("the engine wins: four in a row, framed [ ] on the board"),
        "the winner is not named:\n{screen}"
    );
    let framed = framed_glyphs(&screen);
    assert!(
        framed.len() >= 4 && framed.iter().all(|&glyph| glyph == 'O'),
        "the winning line is not framed (framed: {framed:?}):\n{screen}"
    );
    // The tmux server goes first: its socket is in the directory.
    drop(terminal);
    let _ = std::fs::remove_dir_all(&dir);
}
