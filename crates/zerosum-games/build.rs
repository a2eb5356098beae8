//! Finds the shared test data (`../shared/data/connect4` beside the repository) for the
//! data-driven solver tests (see `build-support/detect.rs`).

#[path = "../../build-support/detect.rs"]
#[allow(dead_code)] // each build script uses its own part
mod detect;

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let data = Path::new(&manifest).join("../../../shared/data/connect4");
    detect::require(
        "zerosum_no_data",
        detect::directory(&data),
        "ZEROSUM_REQUIRE_DATA",
        "the test data ../shared/data/connect4 is not beside the repository",
    );
}
