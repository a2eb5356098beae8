//! The charts of `zerosum report` in Chromium: each SVG of a 120-game tournament's record is
//! opened as a file, must render as an SVG document whose every text lies inside the chart
//! (no label cut off, none overlapping the next chart of a stack), and is saved as a
//! screenshot, `chart-NAME.png`, where the page's screenshots go (`docs/screenshots/` with
//! `ZEROSUM_UPDATE_SCREENSHOTS=1`).

use serde_json::json;

use super::webdriver::{Browser, WebDriver};
use super::Page;
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
