//! Charts in Chromium. The charts of `zerosum report`: each SVG of a 120-game tournament's
//! record is opened as a file, must render as an SVG document whose every text lies inside the
//! chart (no label cut off), and is saved as a screenshot, `chart-NAME.png`, where the page's
//! screenshots go (`docs/screenshots/` with `ZEROSUM_UPDATE_SCREENSHOTS=1`). The page's charts:
//! the score graph under a game against the engine and the Elo chart of a tournament started
//! from the page (`chart-score-graph.png`, `chart-page-elo.png`).

use serde_json::json;

use super::webdriver::{Browser, WebDriver};
use super::{Page, ServeProcess};
use crate::charts::{report, tournament_record};
use crate::support::scratch;

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn report_charts_render_in_chromium() {
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let dir = scratch("browser", "charts");
    let (record, _) = tournament_record(&dir, 10);
    let svg_dir = dir.join("svg");
    let (_, charts) = report(&record, &svg_dir);
    let page = Page {
        driver: WebDriver::start(&browser),
    };
    for (name, svg) in &charts {
        let size = |attribute: &str| -> u32 {
            let start = svg.find(&format!(" {attribute}=\"")).unwrap() + attribute.len() + 3;
            let digits: String = svg[start..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            digits.parse::<f64>().unwrap().ceil() as u32
        };
        let (width, height) = (size("width"), size("height"));
        // The window is the viewport and the browser's frame: make the viewport the chart's size.
        page.driver.set_window_size(width, height);
        let viewport = page
            .driver
            .execute("return [window.innerWidth, window.innerHeight];", json!([]));
        let frame = |i: usize, size: u32| size.saturating_sub(viewport[i].as_u64().unwrap() as u32);
        page.driver
            .set_window_size(width + frame(0, width), height + frame(1, height));
        let path = svg_dir.join(format!("tournament-{name}.svg"));
        page.driver.goto(&format!("file://{}", path.display()));
        let seen = page.driver.execute(
            "const root = document.documentElement;
             const box = root.getBoundingClientRect();
             const texts = [...root.querySelectorAll('text')];
             const outside = texts.filter((t) => {
               const b = t.getBoundingClientRect();
               return b.width === 0 || b.left < box.left - 0.5 || b.right > box.right + 0.5
                 || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5;
             }).map((t) => t.textContent);
             return { root: root.tagName, width: box.width, height: box.height,
                      texts: texts.length, outside,
                      marks: root.querySelectorAll('polyline, circle, rect, line').length };",
            json!([]),
        );
        assert_eq!(seen["root"], "svg", "{name}: {seen}");
        assert_eq!(
            seen["width"].as_f64(),
            Some(f64::from(width)),
            "{name}: {seen}"
        );
        assert!(seen["texts"].as_u64() > Some(5), "{name}: {seen}");
        assert!(seen["marks"].as_u64() > Some(10), "{name}: {seen}");
        assert_eq!(seen["outside"], json!([]), "{name}: text cut off: {seen}");
        page.save_screenshot(&format!("chart-{name}"));
    }
}

#[test]
#[cfg_attr(
    zerosum_no_browser,
    ignore = "needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
)]
fn the_page_draws_the_score_graph_and_the_tournament_elo() {
    let browser =
        Browser::find().expect("chromium or chromedriver is gone since the build found them");
    let server = ServeProcess::start();
    let page = Page {
        driver: WebDriver::start(&browser),
    };
    page.driver.goto(&server.url);
    page.wait_for("the opening game", |s| s["playable"] == 9);
    let chart = |id: &str| {
        page.driver.execute(
            "const e = document.getElementById(arguments[0]);
             const svg = e && e.querySelector('svg');
             return { shown: !!e && !e.hidden, svg: svg ? svg.outerHTML : '',
                      width: svg ? svg.getBoundingClientRect().width : 0,
                      dots: svg ? svg.querySelectorAll('circle').length : 0 };",
            json!([id]),
        )
    };
    assert_eq!(
        chart("score-graph")["shown"],
        false,
        "no graph before an engine moved"
    );

    page.new_game("connectx:6x7x4", "engine:depth=4");
    for _ in 0..4 {
        page.play_one_of(&["4", "3", "5", "2"]);
    }
    let graph = chart("score-graph");
    let seen = page.driver.execute(
        "return { graph: page.latest.score_graph, search: page.search };",
        json!([]),
    );
    assert_eq!(graph["shown"], true, "{graph} {seen}");
    let svg = graph["svg"].as_str().unwrap();
    assert!(
        svg.contains("Engine evaluation for the first player, human"),
        "labelled with the player: {svg}"
    );
    assert_eq!(graph["dots"], 4, "one proof per engine move: {graph}");
    // Evaluations, not proofs: gomoku on 9x9.
    page.new_game("mnk:9x9x5", "engine:depth=4");
    let mut engine_moves = 0;
    for _ in 0..8 {
        let state = page.play_one_of(&["e5", "d4", "f6", "c3", "g7", "e4", "d5", "f4"]);
        engine_moves = state["game"]["ply"].as_u64().unwrap() / 2;
        if !state["result"].as_str().unwrap_or_default().is_empty() {
            break;
        }
    }
    let graph = chart("score-graph");
    let seen = page.driver.execute(
        "return { search: page.search, moves: page.latest.game.moves, result: page.latest.result };",
        json!([]),
    );
    assert_eq!(
        graph["dots"], engine_moves,
        "one evaluation per engine move: {seen}"
    );
    page.driver.execute(
        "document.getElementById('score-graph').scrollIntoView();",
        json!([]),
    );
    page.save_screenshot("chart-score-graph");
    // A new game starts a new graph.
    page.new_game("mnk:3x3x3", "engine:time=0.1");
    assert_eq!(chart("score-graph")["shown"], false);

    page.driver.execute(
        "document.querySelectorAll('#tour-players input').forEach((box) =>
           box.checked = ['engine:time=0.1', 'quasi', 'random'].includes(box.value));
         document.getElementById('tour-games').value = 'tictactoe';
         document.getElementById('tour-seconds').value = '0.02';
         document.getElementById('tour-rounds').value = '2';",
        json!([]),
    );
    page.driver.click("#tour-start");
    page.wait_for("the tournament's end", |_| {
        page.driver.execute(
            "return document.getElementById('tour-status').textContent;",
            json!([]),
        ) == "Tournament over: 12 of 12 games played."
    });
    let elo = chart("tour-elo");
    assert_eq!(elo["shown"], true, "{elo}");
    assert!(
        elo["svg"]
            .as_str()
            .unwrap()
            .contains("Elo against games played"),
        "{elo}"
    );
    page.driver.execute(
        "document.getElementById('tour-elo').scrollIntoView();",
        json!([]),
    );
    page.save_screenshot("chart-page-elo");
    // In a narrow window the charts shrink to its width.
    page.driver.set_window_size(420, 900);
    let narrow = chart("tour-elo");
    assert!(narrow["width"].as_f64() < Some(420.0), "{narrow}");
}
