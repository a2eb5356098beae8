//! Finds a JDK for the Java course-player tests (see `build-support/detect.rs`).

#[path = "../../build-support/detect.rs"]
mod detect;

fn main() {
    let javac = detect::program(None, &["javac"]);
    detect::require(
        "zerosum_no_javac",
        javac,
        "ZEROSUM_REQUIRE_TOOLS",
        "javac is not on PATH (Debian: apt-get install default-jdk-headless)",
    );
}
