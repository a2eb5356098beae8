//! The page's first impression in Chromium (issue 31, item 6): games named as people name them,
//! every game at an address of its own that reopens it (reload, a pasted link, back and
//! forward), marks that leave the stones readable (measured on screenshots), errors that float
//! without moving anything, and a score graph counted in whole moves.

use serde_json::{json, Value};

use super::webdriver::{Browser, WebDriver};
use super::{text, Page, ServeProcess};

/// The least share of a stone's inner disc that must show the stone's own colour with every
/// mark drawn (the last move, a winning line, the keyboard cursor, the mouse over a column).
const LEAST_READABLE: f64 = 0.75;

/// A browser on a fresh `zerosum serve`.
fn open_page() -> (ServeProcess, Page) {
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let server = ServeProcess::start();
    let page = Page {
        driver: WebDriver::start(&browser),
    };
    page.driver.goto(&server.url);
    page.wait_for("the opening game", |s| s["playable"] == 9);
    (server, page)
}

impl Page {
    /// The address the page shows: its query, e.g. `?game=mnk:3x3x3&first=human&...`.
    fn address(&self) -> String {
        text(&self.driver.execute("return location.search;", json!([]))).to_string()
    }

    /// Opens the page at `query` (as a pasted link would) and waits for the game it names.
    fn open(&self, url: &str, query: &str, moves: usize) -> Value {
        self.driver.goto(&format!("{url}{query}"));
        self.wait_for(&format!("the game of {query}"), |s| {
            s["game"]["moves"].as_array().map(Vec::len) == Some(moves)
                && self.driver.execute(
                    "return page.reopening === null && page.number > 0;",
                    json!([]),
                ) == true
        })
    }

    /// The name and board words the page heads the game with, and the window's title.
    fn heading(&self) -> Value {
        self.driver.execute(
            "return { name: document.getElementById('game-name').textContent,
                      board: document.getElementById('game-board').textContent,
                      title: document.title };",
            json!([]),
        )
    }

    /// For every stone (atom on Unstable) drawn on the board and shown in the window: its
    /// class and the share of the pixels of its inner disc (nine tenths of its radius), in a
    /// screenshot, that show its own colour; and the contrast of the last-move ring with the
    /// stone it marks.
    fn readability(&self) -> Value {
        self.wait_for_rest();
        let png = self.driver.screenshot_base64();
        self.driver.execute_async(
            "const [png, done] = arguments;
             const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
             const linear = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
             const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
             const ratio = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
             const board = document.querySelector('#board svg');
             const shown = (b) => b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight && b.right <= window.innerWidth;
             const probes = [...board.querySelectorAll('.stone, .atom')].map((shape) => {
               const b = shape.getBoundingClientRect();
               return { x: b.left + b.width / 2, y: b.top + b.height / 2, r: b.width / 2, shown: shown(b),
                        rgb: rgb(getComputedStyle(shape).fill), class: shape.getAttribute('class') };
             });
             const last = board.querySelector('circle.last-mark');
             let lastContrast = null;
             if (last) {
               const at = [...board.querySelectorAll('.stone')].find((s) =>
                 Math.abs(s.cx.baseVal.value - last.cx.baseVal.value) < 0.5 && Math.abs(s.cy.baseVal.value - last.cy.baseVal.value) < 0.5);
               if (at) lastContrast = ratio(rgb(getComputedStyle(last).stroke), rgb(getComputedStyle(at).fill));
             }
             const image = new Image();
             image.onload = () => {
               const canvas = document.createElement('canvas');
               canvas.width = image.width; canvas.height = image.height;
               const context = canvas.getContext('2d');
               context.drawImage(image, 0, 0);
               const pixels = context.getImageData(0, 0, image.width, image.height).data;
               const k = image.width / window.innerWidth;
               const stones = probes.filter((p) => p.shown).map((p) => {
                 const cx = p.x * k, cy = p.y * k, r = p.r * 0.9 * k;
                 let all = 0, own = 0;
                 for (let y = Math.ceil(cy - r); y <= cy + r; y++) for (let x = Math.ceil(cx - r); x <= cx + r; x++) {
                   if ((x - cx) ** 2 + (y - cy) ** 2 > r * r || x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
                   const i = (y * image.width + x) * 4;
                   all += 1;
                   const distance = Math.abs(pixels[i] - p.rgb[0]) + Math.abs(pixels[i + 1] - p.rgb[1]) + Math.abs(pixels[i + 2] - p.rgb[2]);
                   if (distance < 60) own += 1;
                 }
                 return { class: p.class, share: all ? own / all : 0 };
               });
               done({ stones, last_contrast: lastContrast, drawn: probes.length });
             };
             image.onerror = () => done({ error: 'the screenshot does not load' });
             image.src = 'data:image/png;base64,' + png;",
            json!([png]),
        )
    }

    /// Checks that every stone shown stays readable under the marks, and that the last move's
    /// ring stands out from its stone.
    fn check_readable(&self, what: &str) {
        let seen = self.readability();
        let stones = seen["stones"].as_array().expect("stones measured");
        assert!(!stones.is_empty(), "{what}: no stone in view: {seen}");
        for stone in stones {
            let share = stone["share"].as_f64().unwrap_or(0.0);
            assert!(
                share >= LEAST_READABLE,
                "{what}: a stone shows its colour on {:.0}% of its disc: {stone} of {seen}",
                share * 100.0
            );
        }
        if let Some(contrast) = seen["last_contrast"].as_f64() {
            assert!(
                contrast >= 3.0,
                "{what}: the last move's ring against its stone: contrast {contrast:.2}"
            );
        }
        eprintln!("{what}: {} stones readable", stones.len());
    }

    /// The page box of each of `ids`, to tell whether anything moved.
    fn layout_of(&self, ids: &[&str]) -> Value {
        self.driver.execute(
            "return arguments[0].map((id) => { const b = document.getElementById(id).getBoundingClientRect();
               return [id, Math.round(b.left + scrollX), Math.round(b.top + scrollY), Math.round(b.width), Math.round(b.height)]; });",
            json!([ids]),
        )
    }
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn games_are_named_and_reopened_from_their_address() {
    let (server, page) = open_page();

    // Names: the families listed and the game headed as people name them.
    let families = page.driver.execute(
        "return [...document.querySelectorAll('#family option')].map((o) => o.textContent);",
        json!([]),
    );
    for name in [
        "Tic-tac-toe, Gomoku, Renju (m,n,k)",
        "Connect Four (Connect-X)",
        "Hex",
        "Atoll",
        "Chain Reaction (Unstable)",
    ] {
        assert!(
            families.as_array().unwrap().contains(&json!(name)),
            "{families}"
        );
    }
    let heading = page.heading();
    assert_eq!(heading["name"], "Tic-tac-toe", "{heading}");
    assert!(
        text(&heading["title"]).starts_with("Tic-tac-toe"),
        "{heading}"
    );
    // The opening game has its address from the start.
    assert!(
        page.address()
            .starts_with("?game=mnk:3x3x3&first=human&second=engine:time=0.5"),
        "{}",
        page.address()
    );

    // A game started from the form: its own history entry, its moves in its address.
    page.new_game("connectx:6x7x4", "engine:depth=4");
    let heading = page.heading();
    assert_eq!(heading["name"], "Connect Four", "{heading}");
    assert!(
        text(&heading["board"]).starts_with("6 rows x 7 columns, four in a row"),
        "{heading}"
    );
    let mut state = page.snapshot();
    for _ in 0..2 {
        state = page.play_one_of(&["4", "3"]);
    }
    let moves = state["game"]["moves"].clone();
    let address = page.address();
    let listed: Vec<&str> = moves.as_array().unwrap().iter().map(text).collect();
    assert!(
        address.starts_with("?game=connectx:6x7x4&first=human&second=engine:depth=4")
            && address.ends_with(&format!("&moves={}", listed.join(","))),
        "{address} for {moves}"
    );

    // Reloading the address reopens the game where it was, the human to move.
    let reopened = page.open(&server.url, &address, listed.len());
    assert_eq!(reopened["game"]["moves"], moves, "{reopened:#}");
    assert_eq!(page.heading()["name"], "Connect Four");
    assert_eq!(page.address(), address);
    assert!(
        text(&reopened["turn"]).starts_with("Your move: Red"),
        "{reopened:#}"
    );

    // Another game from the form, between two people, played to its end.
    page.new_game("mnk:3x3x3", "human");
    for (ply, mv) in ["a1", "b1", "a2", "b2", "a3"].into_iter().enumerate() {
        page.driver.click(&format!("#board [data-move=\"{mv}\"]"));
        page.wait_for(&format!("move {mv}"), |s| s["game"]["ply"] == ply + 1);
    }
    let finished = page.address();
    assert!(finished.ends_with("&moves=a1,b1,a2,b2,a3"), "{finished}");

    // Back returns to the Connect Four game as it was left; forward to the finished one.
    page.driver.execute("history.back();", json!([]));
    let back = page.wait_for("the previous game", |s| {
        s["game"]["spec"] == "connectx:6x7x4" && s["game"]["moves"] == moves
    });
    assert!(
        text(&back["turn"]).starts_with("Your move: Red"),
        "{back:#}"
    );
    assert_eq!(page.address(), address);
    page.driver.execute("history.forward();", json!([]));
    page.wait_for("the finished game again", |s| {
        s["game"]["spec"] == "mnk:3x3x3" && text(&s["result"]) == "first player wins"
    });
    assert_eq!(page.address(), finished);

    // A pasted link to a finished game opens at its end, the winning line marked.
    let won = page.open(
        &server.url,
        "?game=tictactoe&first=human&second=human&moves=a1,b1,a2,b2,a3",
        5,
    );
    assert_eq!(text(&won["result"]), "first player wins", "{won:#}");
    assert_eq!(won["wins"], 3, "{won:#}");
    assert_eq!(won["playable"], 0, "{won:#}");
    assert_eq!(page.heading()["name"], "Tic-tac-toe");

    // An address whose moves cannot be played says why, under the game's spec, and the page
    // shows the game the tab opened with.
    page.driver.goto(&format!(
        "{}?game=tictactoe&first=human&second=human&moves=a1,a1",
        server.url
    ));
    let refused = page.wait_for("the refusal of the address", |s| {
        !text(&s["notice"]).is_empty() && !s["game"].is_null()
    });
    assert!(
        text(&refused["notice"]).contains("move 2 (a1)"),
        "{refused:#}"
    );
    page.check_error_under("spec");
    assert_eq!(refused["game"]["ply"], 0, "{refused:#}");
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn marks_leave_the_stones_readable() {
    let (server, page) = open_page();
    page.driver.set_window_size(1280, 1000);

    // Connect Four: a column of discs under the keyboard cursor and the mouse, the last disc
    // marked.
    page.open(
        &server.url,
        "?game=connect4&first=human&second=human&moves=4,4,4,4,3",
        5,
    );
    page.driver
        .execute("document.getElementById('board').focus();", json!([]));
    page.driver.press_keys(&['\u{E015}']);
    let cursor = page.driver.execute("return Keyboard.cursor();", json!([]));
    assert_eq!(cursor, "4", "the cursor starts in the middle column");
    page.driver.hover("#board [data-move=\"4\"]");
    page.check_readable("Connect Four, cursor and mouse on a column of discs");

    // Tic-tac-toe won: the winning line and the last move marked.
    page.open(
        &server.url,
        "?game=tictactoe&first=human&second=human&moves=a1,b1,a2,b2,a3",
        5,
    );
    page.check_readable("tic-tac-toe, won");

    // Hex: the last stone marked, on both colours.
    for moves in ["c3,b3", "c3,b3,d2"] {
        page.open(
            &server.url,
            &format!("?game=hex:5&first=human&second=human&moves={moves}"),
            moves.split(',').count(),
        );
        page.check_readable(&format!("Hex after {moves}"));
    }

    // Atoll and Unstable: their own stones and atoms, the last move marked.
    page.open(
        &server.url,
        "?game=atoll:standard&first=human&second=human&moves=f6",
        1,
    );
    page.check_readable("Atoll");
    page.open(
        &server.url,
        "?game=unstable:4x4&first=human&second=human&moves=B2,C3,B2",
        3,
    );
    page.driver
        .execute("document.getElementById('board').focus();", json!([]));
    page.driver.press_keys(&['\u{E015}']);
    page.check_readable("Unstable, with the cursor");
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn errors_float_and_the_score_graph_counts_whole_moves() {
    let (_server, page) = open_page();

    // The score graph of a game against the engine: its x axis ticks whole moves.
    page.new_game("connectx:6x7x4", "engine:depth=4");
    for _ in 0..2 {
        page.play_one_of(&["4", "3"]);
    }
    page.wait_for("the score graph", |_| page.shows("#score-graph svg"));
    let ticks = page.driver.execute(
        "return [...document.querySelectorAll('#score-graph svg text')]
           .filter((t) => t.getAttribute('text-anchor') === 'middle' && /^-?[\\d.]+$/.test(t.textContent))
           .map((t) => t.textContent);",
        json!([]),
    );
    let ticks = ticks.as_array().expect("tick labels");
    assert!(!ticks.is_empty(), "no x tick labels");
    for tick in ticks {
        assert!(
            text(tick).parse::<u64>().is_ok(),
            "a tick of the move axis is not a whole move: {ticks:?}"
        );
    }

    // A refused move: the message floats under the move box; nothing moves, and Escape puts
    // it away.
    let watched = [
        "setup",
        "game-title",
        "board",
        "entry",
        "controls",
        "players",
        "moves",
        "tour-setup",
    ];
    let before = page.layout_of(&watched);
    page.driver
        .execute("document.getElementById('move').value = 'Z99';", json!([]));
    page.driver.click("#entry button[type=submit]");
    let refused = page.wait_for("the refusal", |s| !text(&s["notice"]).is_empty());
    assert!(text(&refused["notice"]).contains("Z99"), "{refused:#}");
    page.check_error_under("move");
    assert_eq!(page.layout_of(&watched), before, "the error moved the page");
    page.driver.press_keys(&['\u{E00C}']);
    let cleared = page.wait_for("the message put away", |s| text(&s["notice"]).is_empty());
    assert_eq!(cleared["notice"], "");

    // A bad spec: under the spec box, nothing moves; editing the spec puts it away.
    page.driver.execute(
        "document.getElementById('spec').value = 'connectx:3x3x9';",
        json!([]),
    );
    page.driver.click("#new");
    page.wait_for("the spec's error", |s| !text(&s["notice"]).is_empty());
    page.check_error_under("spec");
    assert_eq!(page.layout_of(&watched), before, "the error moved the page");
    page.driver.execute(
        "const spec = document.getElementById('spec'); spec.value = 'connect4';
         spec.dispatchEvent(new Event('input', { bubbles: true }));",
        json!([]),
    );
    page.wait_for("the message put away", |s| text(&s["notice"]).is_empty());
}
