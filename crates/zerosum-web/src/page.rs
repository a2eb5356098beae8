//! The page's files, embedded at build time so the page works offline.

/// A file of the page: its path on the server, content type and contents.
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../page/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/app.js"),
    },
    Asset {
        path: "/address.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/address.js"),
    },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/board.js"),
    },
    Asset {
        path: "/charts.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/charts.js"),
    },
    Asset {
        path: "/clocks.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/clocks.js"),
    },
    Asset {
        path: "/keyboard.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/keyboard.js"),
    },
    Asset {
        path: "/games.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/games.js"),
    },
    Asset {
        path: "/tournament.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../page/tournament.js"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../page/style.css"),
    },
];

/// The file served at `path`, if any.
pub fn asset(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|asset| asset.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_games::Layout;

    #[test]
    fn the_board_draws_every_layout() {
        let board = asset("/board.js").unwrap().body;
        for layout in Layout::ALL {
            let case = format!("case \"{}\":", layout.name());
            assert!(board.contains(&case), "board.js does not draw {layout:?}");
        }
    }
}
