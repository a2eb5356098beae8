//! Finds a JDK for the Java course-player tests and Chromium with chromedriver for the browser
//! test and tmux for the terminal test of `play` (see `build-support/detect.rs`).

#[path = "../../build-support/detect.rs"]
#[allow(dead_code)] // each build script uses its own part
mod detect;

fn main() {
    let javac = detect::program(None, &["javac"]);
    detect::require(
        "zerosum_no_javac",
        javac,
        "ZEROSUM_REQUIRE_TOOLS",
        "javac is not on PATH (Debian: apt-get install default-jdk-headless)",
    );
    let chromium = detect::program(
        Some("CHROMIUM"),
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let chromedriver = detect::program(Some("CHROMEDRIVER"), &["chromedriver"]);
    detect::require(
        "zerosum_no_browser",
        chromium && chromedriver,
        "ZEROSUM_REQUIRE_TOOLS",
        "chromium and chromedriver are not both on PATH \
         (Debian: apt-get install chromium chromium-driver)",
    );
    detect::require(
        "zerosum_no_tmux",
        detect::program(None, &["tmux"]),
        "ZEROSUM_REQUIRE_TOOLS",
        "tmux is not on PATH (Debian: apt-get install tmux)",
    );
}
