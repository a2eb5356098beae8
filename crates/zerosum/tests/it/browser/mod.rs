//! The page in a real browser: starts `zerosum serve` on a free port, drives headless
//! Chromium through chromedriver, plays a whole game of tic-tac-toe against the engine by
//! clicking (the engine never loses) and a few moves of Connect Four, Hex, Atoll and Unstable,
//! a move by keyboard, a tournament started from the page to its standings, and looks at the
//! page in a narrow window; checks what the page says and draws, and saves a screenshot of each
//! board, the tournament and the narrow page to `target/tmp/screenshots/` (to `docs/screenshots/`,
//! the README's images, only with `ZEROSUM_UPDATE_SCREENSHOTS=1`). Ignored, with the reason, when
//! the build found no Chromium or chromedriver.

mod charts;
mod webdriver;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webdriver::{Browser, WebDriver};

/// How long the page may take to reach an expected state.
const PATIENCE: Duration = Duration::from_secs(30);

/// `zerosum serve` on a free port, killed on drop.
struct ServeProcess {
    child: Child,
    url: String,
}

impl ServeProcess {
    fn start() -> ServeProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("zerosum serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line)
            .expect("zerosum serve prints its address");
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        ServeProcess { child, url }
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The page as the test reads it.
struct Page {
    driver: WebDriver,
}

impl Page {
    /// What the page shows: turn and result text, the game JSON, whether a human may click,
    /// and counts of what the board draws.
    fn snapshot(&self) -> Value {
        self.driver.execute(
            "const q = (s) => document.querySelectorAll('#board ' + s).length;
             return {
               turn: document.getElementById('turn').textContent,
               result: document.getElementById('result').textContent,
               notice: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
               game: page.latest && page.latest.game,
               thinking: page.latest && page.latest.thinking,
               playable: q('[data-move]'),
               cells: q('.cell'),
               stones: q('.stone:not(.pv .stone)'),
               atoms: q('.atom'),
               last: q('.last-mark'),
               wins: q('.win-mark'),
               pv: q('.pv'),
               search: document.getElementById('search').textContent,
             };",
            json!([]),
        )
    }

    /// Polls the page until `ready` holds for its snapshot, which it returns.
    fn wait_for(&self, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let snapshot = self.snapshot();
            if ready(&snapshot) {
                return snapshot;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "waited in vain for {what}; the page shows {snapshot:#}"
            );
            sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the human may click or the game is over.
    fn wait_for_turn(&self) -> Value {
        self.wait_for("the human's turn or the end", |s| {
            !s["result"].as_str().unwrap_or_default().is_empty()
                || (s["playable"].as_u64() > Some(0) && s["thinking"].is_null())
        })
    }

    /// Starts `spec` (in its canonical spelling) with the page as first player against `engine`, by the setup form.
    fn new_game(&self, spec: &str, engine: &str) -> Value {
        self.driver.execute(
            "document.getElementById('spec').value = arguments[0];
             document.getElementById('family').value = arguments[0].split(':')[0];
             document.getElementById('first').value = 'human';
             document.getElementById('second').value = arguments[1];",
            json!([spec, engine]),
        );
        let started = Instant::now();
        self.driver.click("#new");
        let state = self.wait_for("the new game", |s| {
            s["game"]["spec"] == spec && s["game"]["ply"] == 0 && s["playable"] != 0
        });
        eprintln!(
            "{spec}: new game drawn {} ms after the click",
            started.elapsed().as_millis()
        );
        state
    }

    /// Clicks the first of `moves` the board offers, then waits for the engine's reply.
    fn play_one_of(&self, moves: &[&str]) -> Value {
        let before = self.wait_for_turn();
        let ply = before["game"]["ply"].as_u64().unwrap();
        let legal: Vec<&str> = before["game"]["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let chosen = moves
            .iter()
            .find(|mv| legal.contains(mv))
            .copied()
            .unwrap_or(legal[0]);
        self.driver
            .click(&format!("#board [data-move=\"{chosen}\"]"));
        let after = self.wait_for("the move and the reply", |s| {
            let played = s["game"]["ply"].as_u64().unwrap_or(0);
            !s["result"].as_str().unwrap_or_default().is_empty()
                || (played >= ply + 2 && s["thinking"].is_null())
        });
        assert_eq!(after["game"]["moves"][ply as usize], chosen, "{after:#}");
        assert_eq!(after["notice"], "", "{after:#}");
        after
    }

    /// Whether the element `css` exists and is shown.
    fn shows(&self, css: &str) -> bool {
        self.driver.execute(
            "const e = document.querySelector(arguments[0]); return !!e && !e.closest('[hidden]');",
            json!([css]),
        ) == true
    }

    /// Saves a screenshot as `<name>.png` in the target directory, or over the README's image in
    /// `docs/screenshots/` when `ZEROSUM_UPDATE_SCREENSHOTS=1`.
    fn save_screenshot(&self, family: &str) {
        let directory = if std::env::var_os("ZEROSUM_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1")
        {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots")
        } else {
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots")
        };
        std::fs::create_dir_all(&directory).expect("the screenshot folder");
        let png = self.driver.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(directory.join(format!("{family}.png")), png).expect("screenshot saved");
    }
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn the_page_plays_every_family_in_chromium() {
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let server = ServeProcess::start();
    let page = Page {
        driver: WebDriver::start(&browser),
    };

    let loading = Instant::now();
    page.driver.goto(&server.url);
    let opening = page.wait_for("the opening game", |s| s["playable"] == 9);
    eprintln!(
        "page loaded and its game drawn in {} ms",
        loading.elapsed().as_millis()
    );
    assert!(
        text(&opening["turn"]).starts_with("Your move: X"),
        "{opening:#}"
    );

    // Tic-tac-toe, the whole game: the engine never loses.
    page.new_game("mnk:3x3x3", "engine:time=0.1");
    let mut state = page.snapshot();
    while text(&state["result"]).is_empty() {
        state = page.play_one_of(&["b2", "a1", "c3", "c1", "a3", "b1", "a2", "c2", "b3"]);
        let ply = state["game"]["ply"].as_u64().unwrap();
        assert_eq!(state["cells"], 9);
        assert_eq!(state["stones"].as_u64(), Some(ply), "{state:#}");
        assert_eq!(state["last"], 1);
        if text(&state["result"]).is_empty() {
            let last = text(&state["game"]["board"]["last_move"]);
            assert!(
                text(&state["turn"]).contains(&format!("Last move: {last}.")),
                "{state:#}"
            );
        }
    }
    assert_eq!(text(&state["turn"]), "Game over:");
    assert!(
        ["draw", "second player wins"].contains(&text(&state["result"])),
        "the engine lost: {state:#}"
    );
    assert_eq!(state["playable"], 0, "a finished board takes no clicks");
    page.save_screenshot("mnk");

    // Connect Four: discs fall to the bottom of the clicked column.
    page.new_game("connectx:6x7x4", "engine:time=0.1");
    for _ in 0..3 {
        state = page.play_one_of(&["4", "3", "5"]);
    }
    assert_eq!(state["stones"], 6, "{state:#}");
    assert_eq!(state["game"]["board"]["cells"][5][3], "X", "{state:#}");
    assert!(
        text(&state["turn"]).starts_with("Your move: X"),
        "{state:#}"
    );
    // The engine's line: a search's, or the proof of the book or the solver.
    let line = text(&state["search"]);
    assert!(
        line.contains("depth") || line.contains("exact"),
        "{state:#}"
    );
    page.save_screenshot("connectx");

    // While the engine thinks, its line after each iteration shows, and its principal
    // variation is drawn on the board.
    page.new_game("hex:7", "engine:time=2");
    page.driver.click("#board [data-move=\"d4\"]");
    let live = page.wait_for("a live search line and its variation", |s| {
        !s["thinking"].is_null()
            && text(&s["search"]).starts_with("thinking")
            && s["pv"].as_u64() > Some(0)
    });
    assert!(text(&live["search"]).contains("depth"), "{live:#}");

    // Hex: 121 hexagons, stones where clicked.
    page.new_game("hex:11", "engine:time=0.1");
    for _ in 0..3 {
        state = page.play_one_of(&["f6", "e7", "g5", "d8"]);
    }
    assert_eq!(state["cells"], 121);
    assert_eq!(state["stones"], 6, "{state:#}");
    assert!(
        text(&state["turn"]).starts_with("Your move: Black"),
        "{state:#}"
    );
    page.save_screenshot("hex");

    // Atoll: the islands' stones are drawn from the start.
    let atoll = page.new_game("atoll:standard", "engine:time=0.1");
    let island_stones = atoll["stones"].as_u64().unwrap();
    assert!(island_stones >= 8, "{atoll:#}");
    for _ in 0..3 {
        state = page.play_one_of(&["f6", "e6", "g6", "f5"]);
    }
    assert_eq!(
        state["stones"].as_u64(),
        Some(island_stones + 6),
        "{state:#}"
    );
    page.save_screenshot("atoll");

    // Unstable: atoms, and a cell owned by the engine is not offered.
    page.new_game("unstable:10x6", "engine:time=0.1");
    for _ in 0..3 {
        state = page.play_one_of(&["E3", "A1", "J6", "E4", "D3"]);
    }
    assert!(state["atoms"].as_u64() >= Some(4), "{state:#}");
    let theirs = page.driver.execute(
        "const cells = page.latest.game.board.cells; const names = [];
         cells.forEach((row, r) => row.forEach((n, c) => { if (n < 0) names.push(String.fromCharCode(65 + r) + (c + 1)); }));
         return names.filter((name) => document.querySelector(`#board [data-move=\"${name}\"]`)).length;",
        json!([]),
    );
    assert_eq!(theirs, 0, "the engine's cells cannot be played");
    page.save_screenshot("unstable");

    // Keyboard: the board takes the focus, the arrows move the cursor, Enter plays its cell.
    page.new_game("mnk:3x3x3", "engine:time=0.1");
    page.driver
        .execute("document.getElementById('board').focus();", json!([]));
    page.driver
        .press_keys(&['\u{E014}', '\u{E015}', '\u{E012}']);
    let cursor = page.driver.execute(
        "return document.activeElement.classList.contains('cursor') ? document.activeElement.dataset.move : null;",
        json!([]),
    );
    let cursor = text(&cursor).to_string();
    assert!(!cursor.is_empty(), "the focused cell is the cursor");
    page.driver.press_keys(&['\u{E007}']);
    let played = page.wait_for("the keyboard move and the reply", |s| {
        s["game"]["ply"].as_u64() >= Some(2) && s["thinking"].is_null()
    });
    assert_eq!(text(&played["game"]["moves"][0]), cursor, "{played:#}");
    let clocks = page.driver.execute(
        "return [...document.querySelectorAll('#players .used')].map((c) => c.textContent);",
        json!([]),
    );
    assert_eq!(clocks.as_array().map(Vec::len), Some(2), "{clocks}");

    // A tournament started from the page, watched to its standings.
    page.driver.execute(
        "document.querySelectorAll('#tour-players input').forEach((box) =>
           box.checked = ['engine:time=0.1', 'quasi'].includes(box.value));
         document.getElementById('tour-games').value = 'tictactoe';
         document.getElementById('tour-seconds').value = '0.05';
         document.getElementById('tour-rounds').value = '1';
         document.getElementById('tournament').scrollIntoView();",
        json!([]),
    );
    let started = Instant::now();
    page.driver.click("#tour-start");
    page.wait_for("the tournament's end", |_| {
        page.driver.execute(
            "return document.getElementById('tour-status').textContent;",
            json!([]),
        ) == "Tournament over: 2 of 2 games played."
    });
    eprintln!(
        "tournament of 2 games played in {} ms",
        started.elapsed().as_millis()
    );
    let standings = page.driver.execute(
        "return [...document.querySelectorAll('#standings tr')].slice(1).map((row) =>
           [...row.cells].map((cell) => cell.textContent));",
        json!([]),
    );
    assert!(page.shows("#tour-board svg"), "the last game's board");
    let last_game = page.driver.execute(
        "return document.getElementById('tour-game').textContent;",
        json!([]),
    );
    assert!(text(&last_game).starts_with("Game 2: "), "{last_game}");
    let rows = standings.as_array().expect("standings rows");
    assert_eq!(rows.len(), 2, "{standings}");
    let points: u64 = rows
        .iter()
        .map(|row| text(&row[2]).parse::<u64>().unwrap())
        .sum();
    assert!(
        (4..=6).contains(&points),
        "two games of 2 (draw) or 3 points: {standings}"
    );
    assert!(page.shows("#crosstable tr"));
    page.driver.execute(
        "document.getElementById('tournament').scrollIntoView();",
        json!([]),
    );
    page.save_screenshot("tournament");

    // A narrow window: everything fits its width.
    page.driver.set_window_size(420, 900);
    page.driver.execute("window.scrollTo(0, 0);", json!([]));
    let too_wide = page.driver.execute(
        "if (document.documentElement.scrollWidth <= window.innerWidth) return [];
         return [...document.querySelectorAll('body *')]
           .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
           .map((e) => e.tagName + ' ' + e.id);",
        json!([]),
    );
    assert_eq!(too_wide, json!([]), "wider than the window");
    page.save_screenshot("narrow");

    // A bad move typed by keyboard is refused with a message on the page, not a crash.
    page.driver
        .execute("document.getElementById('move').value = 'Z99';", json!([]));
    page.driver.click("#entry button[type=submit]");
    let refused = page.wait_for("the refusal", |s| !text(&s["notice"]).is_empty());
    assert!(text(&refused["notice"]).contains("Z99"), "{refused:#}");
    drop(server);
    let gone = page.wait_for("the server-gone banner", |_| {
        page.driver.execute(
            "return !document.getElementById('banner').hidden;",
            json!([]),
        ) == true
    });
    drop(gone);
}
