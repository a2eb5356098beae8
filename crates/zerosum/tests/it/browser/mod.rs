//! The page in a real browser: starts `zerosum serve` on a free port, drives headless
//! Chromium through chromedriver, plays a whole game of tic-tac-toe against the engine by
//! clicking (the engine never loses) and a few moves of Connect Four, Hex, Atoll and Unstable,
//! a move by keyboard, a tournament started from the page to its standings, and looks at the
//! page in a narrow window; watches `zerosum tournament --serve` to its end and after; checks
//! what the page says and draws (the contrast of both sides' stones against an empty cell, from
//! the page's computed colours, on every family; errors next to the control that caused them)
//! and saves a screenshot of each board, the tournaments and the narrow page to
//! `target/tmp/screenshots/` (to `docs/screenshots/`, the web page chapter's images, only with
//! `ZEROSUM_UPDATE_SCREENSHOTS=1`). Ignored, with the reason, when the build found no Chromium
//! or chromedriver.

mod charts;
mod first_output;
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

/// The least WCAG contrast ratio between a side's stones and an empty cell (the level WCAG
/// asks of the graphics a user must tell apart).
const LEAST_CONTRAST: f64 = 3.0;

/// `zerosum serve`, or `zerosum tournament --serve`, on a free port, killed on drop.
struct ServeProcess {
    child: Child,
    url: String,
}

impl ServeProcess {
    fn start() -> ServeProcess {
        ServeProcess::run(&["serve", "--port", "0"])
    }

    /// Runs `zerosum ARGS` and reads the page's address from the first line that has one (on
    /// standard output for `serve`, standard error for `tournament --serve`).
    fn run(args: &[&str]) -> ServeProcess {
        let tournament = args[0] == "tournament";
        let mut command = Command::new(env!("CARGO_BIN_EXE_zerosum"));
        command.args(args);
        if tournament {
            command.stdout(Stdio::null()).stderr(Stdio::piped());
        } else {
            command.stdout(Stdio::piped());
        }
        let mut child = command.spawn().expect("zerosum starts");
        let output: Box<dyn std::io::Read + Send> = if tournament {
            Box::new(child.stderr.take().expect("piped stderr"))
        } else {
            Box::new(child.stdout.take().expect("piped stdout"))
        };
        let mut output = BufReader::new(output);
        let mut url = None;
        while url.is_none() {
            let mut line = String::new();
            let read = output
                .read_line(&mut line)
                .expect("zerosum prints the page's address");
            assert!(
                read > 0,
                "zerosum ended without printing the page's address"
            );
            url = line
                .split_whitespace()
                .find(|word| word.starts_with("http://"))
                .map(String::from);
        }
        // The rest is read (and dropped) on a thread of its own: a process whose output pipe
        // closes fails when it next writes.
        std::thread::spawn(move || std::io::copy(&mut output, &mut std::io::sink()));
        ServeProcess {
            child,
            url: url.expect("the address"),
        }
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
               notice: document.getElementById('error').hidden ? '' : document.getElementById('error-text').textContent,
               game: page.latest && page.latest.game,
               thinking: page.latest && page.latest.thinking,
               playable: q('[data-move]'),
               cells: q('.cell'),
               stones: q('.stone'),
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

    /// The WCAG contrast ratio of each side's stones (atoms on Unstable) against an empty
    /// cell (a hole on Connect-X), from the colours the page computes for them.
    fn stone_contrast(&self) -> Value {
        self.driver.execute(
            "const rgb = (e) => getComputedStyle(e).fill.match(/[\\d.]+/g).slice(0, 3).map(Number);
             const linear = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
             const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
             const ratio = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
             const board = document.querySelector('#board svg');
             const family = page.latest.game.family;
             const empty = board.querySelector(family === 'connectx' ? '.hole'
               : '.cell:not(.island-first):not(.island-second):not(.owner-first):not(.owner-second)');
             const shape = family === 'unstable' ? '.atom' : '.stone';
             const out = { family };
             for (const side of ['first', 'second']) {
               const stone = board.querySelector(shape + '.' + side);
               out[side] = stone && empty ? ratio(rgb(stone), rgb(empty)) : null;
             }
             return out;",
            json!([]),
        )
    }

    /// Checks that both sides' stones on the board stand out from an empty cell.
    fn check_contrast(&self) {
        let contrast = self.stone_contrast();
        for side in ["first", "second"] {
            let ratio = contrast[side].as_f64().unwrap_or_else(|| {
                panic!("no {side} stone or no empty cell to compare: {contrast}")
            });
            assert!(
                ratio >= LEAST_CONTRAST,
                "{side} stones against an empty cell: contrast {ratio:.2} < {LEAST_CONTRAST}: {contrast}"
            );
        }
        eprintln!("stone contrast against an empty cell: {contrast}");
    }

    /// Where the page's error message is: its text, whether it lies within the viewport, the
    /// id of the control it is about (`for`), and how far below that control's label it starts
    /// (`below`, in pixels).
    fn error_place(&self) -> Value {
        self.driver.execute(
            "const error = document.getElementById('error');
             const box = error.getBoundingClientRect();
             const control = error.dataset.for && document.getElementById(error.dataset.for);
             const anchor = control && (control.closest('label, fieldset') || control);
             return {
               text: error.hidden ? '' : document.getElementById('error-text').textContent,
               in_view: box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
                 && box.left >= 0 && box.right <= window.innerWidth,
               for: error.dataset.for || null,
               below: anchor ? box.top - anchor.getBoundingClientRect().bottom : null,
             };",
            json!([]),
        )
    }

    /// Checks that the error message shows just under the control `id`, in view.
    fn check_error_under(&self, id: &str) -> Value {
        let error = self.error_place();
        assert_eq!(error["for"], id, "{error:#}");
        let below = error["below"].as_f64().unwrap_or(f64::NAN);
        assert!((0.0..=12.0).contains(&below), "{error:#}");
        assert_eq!(error["in_view"], true, "{error:#}");
        error
    }

    /// The texts of the elements `css` whose text wraps onto a second line.
    fn wrapped(&self, css: &str) -> Value {
        self.driver.execute(
            "return [...document.querySelectorAll(arguments[0])]
               .filter((e) => e.getClientRects().length > 1).map((e) => e.textContent);",
            json!([css]),
        )
    }

    /// Whether the element `css` exists and is shown.
    fn shows(&self, css: &str) -> bool {
        self.driver.execute(
            "const e = document.querySelector(arguments[0]); return !!e && !e.closest('[hidden]');",
            json!([css]),
        ) == true
    }

    /// Waits until no animation runs (a disc falling), so that a screenshot shows the board
    /// at rest.
    fn wait_for_rest(&self) {
        let started = Instant::now();
        while self.driver.execute(
            "return document.getAnimations().every((a) => a.playState !== 'running');",
            json!([]),
        ) != true
        {
            assert!(started.elapsed() < PATIENCE, "an animation runs on and on");
            sleep(Duration::from_millis(20));
        }
    }

    /// Saves a screenshot as `<name>.png` in the target directory, or over the web page
    /// chapter's image in `docs/screenshots/` when `ZEROSUM_UPDATE_SCREENSHOTS=1`; the board
    /// at rest.
    fn save_screenshot(&self, family: &str) {
        self.wait_for_rest();
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
    page.check_contrast();
    page.save_screenshot("mnk");

    // Connect Four: discs fall to the bottom of the clicked column.
    page.new_game("connectx:6x7x4", "engine:time=0.1");
    for _ in 0..3 {
        state = page.play_one_of(&["4", "3", "5"]);
    }
    assert_eq!(state["stones"], 6, "{state:#}");
    assert_eq!(state["game"]["board"]["cells"][5][3], "X", "{state:#}");
    assert!(
        text(&state["turn"]).starts_with("Your move: Red"),
        "{state:#}"
    );
    // The engine's line, a search's or the proof of the book or the solver, in the words of
    // the terminal's `zerosum play`.
    let line = text(&state["search"]);
    assert!(line.contains("Yellow thinks "), "{state:#}");
    page.check_contrast();
    let fits = page.driver.execute(
        "return document.documentElement.scrollWidth <= window.innerWidth;",
        json!([]),
    );
    assert_eq!(fits, true, "the page is wider than the window");
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
    // It says whose view it is; its variation is drawn as rings, never as stones.
    assert!(text(&live["search"]).contains("White thinks "), "{live:#}");
    assert_eq!(live["stones"], 1, "the variation is no stones: {live:#}");
    let fills = page.driver.execute(
        "return [...document.querySelectorAll('#board .pv circle')].map((c) => getComputedStyle(c).fill);",
        json!([]),
    );
    assert!(
        fills
            .as_array()
            .is_some_and(|fills| !fills.is_empty() && fills.iter().all(|fill| fill == "none")),
        "the variation's rings are not filled: {fills}"
    );
    page.driver.click("#show-pv");
    let hidden = page.snapshot();
    assert_eq!(
        hidden["pv"], 0,
        "the toggle hides the variation: {hidden:#}"
    );
    page.driver.click("#show-pv");

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
    page.check_contrast();
    // After a swap the first player holds white: its stones, variation and legend stay white.
    let swapped = page.driver.execute(
        "const game = { family: 'hex', layout: 'hexes', sides: { first: 'White', second: 'Black' },
           legal_moves: [], board: { rows: 1, cols: 2, cells: [['W', 'B']],
           colours: { first: 'white', second: 'black' }, last_move: null, winning_cells: [] } };
         const drawn = document.createElement('div');
         drawn.innerHTML = Board.draw(game, { playable: false, pv: { side: 'second', moves: ['b1', 'a1'] } });
         return [...drawn.querySelectorAll('.stone')].map((s) => s.getAttribute('class'))
           .concat([drawn.querySelector('.pv-stone').getAttribute('class'), Board.swatch(game, 'first')]);",
        json!([]),
    );
    assert_eq!(swapped[0], "stone second", "{swapped}");
    assert_eq!(swapped[1], "stone first", "{swapped}");
    assert_eq!(swapped[2], "pv-stone second", "{swapped}");
    assert!(text(&swapped[3]).contains("stone second"), "{swapped}");
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
    page.check_contrast();
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
    page.check_contrast();
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
    assert_eq!(
        page.wrapped("#players .clock-used"),
        json!([]),
        "a clock wraps"
    );

    // A bad game in the tournament form: the error shows next to the games, in view.
    page.driver.execute(
        "document.querySelectorAll('#tour-players input').forEach((box) =>
           box.checked = ['engine:time=0.1', 'quasi'].includes(box.value));
         document.getElementById('tour-games').value = 'tictactoe,connectx:3x3x9';
         document.getElementById('tour-seconds').value = '0.05';
         document.getElementById('tour-rounds').value = '1';
         document.getElementById('tournament').scrollIntoView();",
        json!([]),
    );
    page.driver.click("#tour-start");
    page.wait_for("the tournament form's error", |_| {
        !text(&page.error_place()["text"]).is_empty()
    });
    let error = page.check_error_under("tour-games");
    assert!(text(&error["text"]).contains("connectx:3x3x9"), "{error:#}");

    // A tournament started from the page, watched to its standings.
    page.driver.execute(
        "document.getElementById('tour-games').value = 'tictactoe';
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
    assert!(
        rows.iter()
            .all(|row| text(&row[8]).contains('±') || text(&row[8]).contains("n/a")),
        "Elo with its error bar: {standings}"
    );
    // Times a move under 0.1 s show as given.
    let limits = page.driver.execute(
        "return [...document.querySelectorAll('#tour-clocks .clock-left')].map((c) => c.textContent);",
        json!([]),
    );
    assert_eq!(limits, json!(["0.05 s", "0.05 s"]), "{limits}");
    check_finished_games(&page, 2);
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
    assert_eq!(
        page.wrapped("#players .clock-used, #tour-clocks .clock-used, #tour-clocks .clock-left"),
        json!([]),
        "a clock wraps"
    );
    page.save_screenshot("narrow");

    // A bad move typed by keyboard is refused with a message next to the move box.
    page.driver
        .execute("document.getElementById('move').value = 'Z99';", json!([]));
    page.driver.click("#entry button[type=submit]");
    let refused = page.wait_for("the refusal", |s| !text(&s["notice"]).is_empty());
    assert!(text(&refused["notice"]).contains("Z99"), "{refused:#}");
    page.check_error_under("move");
    drop(server);
    let gone = page.wait_for("the server-gone banner", |_| {
        page.driver.execute(
            "return !document.getElementById('banner').hidden;",
            json!([]),
        ) == true
    });
    drop(gone);
}

/// Checks the page lists `count` finished games, newest first, each with its downloads, and
/// that the first one's JSON line and PGN text download.
/// A family defined in a test (`own_family`, misère m,n,k), on the page of an in-process
/// server: drawn and played to the end by clicking, though the page has no line for it.
#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn the_page_plays_a_family_defined_in_a_test() {
    crate::own_family::registered();
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let server = zerosum_web::Server::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}/", server.local_addr().expect("its address"));
    std::thread::spawn(move || server.run());
    let page = Page {
        driver: WebDriver::start(&browser),
    };
    page.driver.goto(&url);
    page.wait_for("the opening game", |s| s["playable"] == 9);
    page.new_game("misere:3x3x3", "engine:depth=4");
    let mut state = page.snapshot();
    while text(&state["result"]).is_empty() {
        state = page.play_one_of(&["b2", "a1", "c3", "c1", "a3", "b1", "a2", "c2", "b3"]);
        let ply = state["game"]["ply"].as_u64().unwrap();
        assert_eq!(state["cells"], 9, "{state:#}");
        assert_eq!(state["stones"].as_u64(), Some(ply), "{state:#}");
        assert_eq!(state["last"], 1, "{state:#}");
    }
    assert_eq!(text(&state["turn"]), "Game over:");
    page.check_contrast();
    page.save_screenshot("misere");
}

fn check_finished_games(page: &Page, count: usize) {
    page.wait_for("the finished games", |_| {
        page.driver.execute(
            "return document.querySelectorAll('#finished-games tr[data-game]').length;",
            json!([]),
        ) == count
    });
    let rows = page.driver.execute(
        "return [...document.querySelectorAll('#finished-games tr[data-game]')].map((row) =>
           ({ number: Number(row.dataset.game),
              links: [...row.querySelectorAll('a[download]')].map((a) => a.textContent) }));",
        json!([]),
    );
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows[0]["number"], count, "newest first: {rows:?}");
    for row in rows {
        let links = row["links"].as_array().unwrap();
        assert!(
            links.contains(&json!("JSON")) && links.contains(&json!("PGN")),
            "{row}"
        );
    }
    let downloads = page.driver.execute(
        "return [...document.querySelectorAll('#finished-games tr[data-game] a[download]')].slice(0, 2).map((a) => {
           const request = new XMLHttpRequest();
           request.open('GET', a.href, false);
           request.send();
           return [request.status, request.getResponseHeader('Content-Disposition'), request.responseText];
         });",
        json!([]),
    );
    let downloads = downloads.as_array().expect("downloads");
    for download in downloads {
        assert_eq!(download[0], 200, "{download}");
        assert!(text(&download[1]).starts_with("attachment"), "{download}");
    }
    let line: Value = serde_json::from_str(text(&downloads[0][2])).expect("a JSON line");
    assert_eq!(line["game"], count - 1, "{line}");
    assert!(
        text(&downloads[1][2]).contains("[Result"),
        "{}",
        downloads[1][2]
    );
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn the_page_of_tournament_serve_keeps_the_final_standings() {
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let record = std::env::temp_dir().join(format!(
        "zerosum-browser-serve-{}.jsonl",
        std::process::id()
    ));
    let server = ServeProcess::run(&[
        "tournament",
        "--players",
        "engine:time=0.05",
        "quasi",
        "random",
        "--games",
        "connect4",
        "--st",
        "0.05",
        "--serve",
        "--port",
        "0",
        "--record",
        record.to_str().unwrap(),
    ]);
    let page = Page {
        driver: WebDriver::start(&browser),
    };
    page.driver.goto(&server.url);
    // The page opens on the tournament, with no form to start another.
    page.wait_for("the tournament's first event", |_| {
        page.driver.execute(
            "return !document.getElementById('tour-live').hidden;",
            json!([]),
        ) == true
    });
    let layout = page.driver.execute(
        "return { watching: document.body.classList.contains('watching'),
                  top: document.getElementById('tournament').getBoundingClientRect().top,
                  form: getComputedStyle(document.getElementById('tour-setup')).display,
                  start: document.getElementById('tour-start').getClientRects().length };",
        json!([]),
    );
    assert_eq!(layout["watching"], true, "{layout}");
    assert!(
        layout["top"].as_f64() < Some(150.0),
        "the tournament first: {layout}"
    );
    assert_eq!(layout["form"], "none", "{layout}");
    assert_eq!(layout["start"], 0, "no Start button: {layout}");

    page.wait_for("the tournament's end", |_| {
        page.driver.execute(
            "return document.getElementById('tour-status').textContent;",
            json!([]),
        ) == "Tournament over: 6 of 6 games played."
    });
    // Some time after the end, the server is still there and the page shows the standings.
    sleep(Duration::from_secs(2));
    let after = page.driver.execute(
        "return { banner: document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent,
                  rows: document.querySelectorAll('#standings tr').length - 1,
                  status: document.getElementById('tour-status').textContent };",
        json!([]),
    );
    assert_eq!(after["banner"], "", "the server went away: {after}");
    assert_eq!(after["rows"], 3, "{after}");
    check_finished_games(&page, 6);
    page.save_screenshot("watch");
    // A tab opened after the end shows the same.
    page.driver.goto(&server.url);
    page.wait_for("the final standings in a new tab", |_| {
        page.driver.execute(
            "return document.getElementById('tour-status').textContent;",
            json!([]),
        ) == "Tournament over: 6 of 6 games played."
    });
    check_finished_games(&page, 6);
    drop(server);
    let _ = std::fs::remove_file(&record);
    let _ = std::fs::remove_file(record.with_extension("ranking.txt"));
}
