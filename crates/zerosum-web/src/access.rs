//! Who may use the server: only the page itself, opened on this machine. A request must be
//! addressed (its `Host`) to a loopback name or to the server's address, on the server's port,
//! so a foreign web site cannot reach the server through a DNS name it rebinds to 127.0.0.1;
//! and a request that names its page (`Origin`) must come from the server's own origin, so
//! another site open in the browser cannot start games or programs.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::http::Request;

/// Why a request is refused: the status line and what the answer says.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: &'static str,
    pub message: &'static str,
}

/// The addresses a request may name as the server's, besides `localhost` and loopback ones.
#[derive(Clone, Copy, Debug)]
pub struct OwnAddress {
    /// The server's port.
    pub port: u16,
    /// The address the server is bound to (with `--bind`; `0.0.0.0` when bound to all).
    pub bound: IpAddr,
    /// The address the connection reached (one of this machine's when bound to all).
    pub reached: IpAddr,
}

/// Checks `request`, which reached the server at `own`, against the rules above. A request
/// without `Origin` (not sent by a page of another site) passes on its `Host` alone.
pub fn check(request: &Request, own: OwnAddress) -> Result<(), Refusal> {
    let Some(host) = &request.host else {
        return Err(Refusal {
            status: "400 Bad Request",
            message: "a request must name its Host",
        });
    };
    if !is_own_authority(host, own) {
        return Err(Refusal {
            status: "421 Misdirected Request",
            message: "this server answers only requests addressed to localhost",
        });
    }
    let from_elsewhere = request.origin.as_deref().is_some_and(|origin| {
        !origin
            .strip_prefix("http://")
            .is_some_and(|authority| is_own_authority(authority, own))
    });
    if from_elsewhere {
        return Err(Refusal {
            status: "403 Forbidden",
            message: "this server answers only its own page",
        });
    }
    Ok(())
}

/// Whether `authority` (`host[:port]`, as in `Host` or after `http://` in `Origin`) names this
/// server: `localhost`, a loopback address or one of `own`'s, with `own`'s port (80 when none
/// is written). An address, unlike a name, cannot be rebound to this machine by a foreign site.
fn is_own_authority(authority: &str, own: OwnAddress) -> bool {
    let (name, port) = match authority.rsplit_once(':') {
        // `[::1]` alone has a `:` but no port.
        Some((name, port)) if !port.ends_with(']') => (name, port.parse::<u16>().ok()),
        _ => (authority, Some(80)),
    };
    if port != Some(own.port) {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let literal = name
        .strip_prefix('[')
        .and_then(|name| name.strip_suffix(']'))
        .map_or_else(
            || name.parse::<Ipv4Addr>().map(IpAddr::V4),
            |v6| v6.parse::<Ipv6Addr>().map(IpAddr::V6),
        );
    literal.is_ok_and(|address| {
        address.is_loopback() || address == own.bound || address == own.reached
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(host: Option<&str>, origin: Option<&str>) -> Request {
        Request {
            method: "POST".into(),
            path: "/command".into(),
            query: String::new(),
            host: host.map(String::from),
            origin: origin.map(String::from),
            content_type: Some("application/json".into()),
            body: Vec::new(),
        }
    }

    const LOOPBACK: &str = "127.0.0.1:8080";

    fn status(host: Option<&str>, origin: Option<&str>, reached: &str) -> Option<&'static str> {
        let bound = reached.rsplit_once(':').unwrap().0;
        let bound = bound.trim_start_matches('[').trim_end_matches(']');
        status_at(host, origin, bound, reached)
    }

    /// The status `request(host, origin)` is refused with by a server bound to `bound` and
    /// reached at `reached` (`IP:PORT`), if any.
    fn status_at(
        host: Option<&str>,
        origin: Option<&str>,
        bound: &str,
        reached: &str,
    ) -> Option<&'static str> {
        let reached: std::net::SocketAddr = reached.parse().unwrap();
        let own = OwnAddress {
            port: reached.port(),
            bound: bound.parse().unwrap(),
            reached: reached.ip(),
        };
        check(&request(host, origin), own)
            .err()
            .map(|refusal| refusal.status)
    }

    #[test]
    fn loopback_names_on_the_right_port_pass() {
        for host in [
            "localhost:8080",
            "LocalHost:8080",
            LOOPBACK,
            "[::1]:8080",
            "127.1.2.3:8080",
        ] {
            assert_eq!(status(Some(host), None, LOOPBACK), None, "{host}");
            let origin = format!("http://{host}");
            assert_eq!(status(Some(host), Some(&origin), LOOPBACK), None, "{host}");
        }
        assert_eq!(status(Some("localhost"), None, "127.0.0.1:80"), None);
        assert_eq!(status(Some("[::1]"), None, "[::1]:80"), None);
    }

    #[test]
    fn other_names_and_ports_are_misdirected() {
        for host in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example:8080",
            "localhost:8081",
            "localhost",
            "192.168.1.5:8080",
            "[::1]",
            "",
            ":8080",
            "localhost:",
            "[::1:8080",
        ] {
            assert_eq!(
                status(Some(host), None, LOOPBACK),
                Some("421 Misdirected Request"),
                "{host}"
            );
        }
        assert_eq!(status(None, None, LOOPBACK), Some("400 Bad Request"));
    }

    #[test]
    fn the_bound_address_passes_when_the_connection_reached_it() {
        let lan = "192.168.1.5:8080";
        assert_eq!(
            status(Some(lan), Some("http://192.168.1.5:8080"), lan),
            None
        );
        assert_eq!(status(Some("localhost:8080"), None, lan), None);
        assert_eq!(
            status(Some("192.168.1.6:8080"), None, lan),
            Some("421 Misdirected Request")
        );
        // Bound to every interface: the printed `0.0.0.0` and whichever address was reached.
        let everywhere = |host| status_at(Some(host), None, "0.0.0.0", lan);
        assert_eq!(everywhere("0.0.0.0:8080"), None);
        assert_eq!(everywhere("192.168.1.5:8080"), None);
        assert_eq!(
            everywhere("192.168.1.6:8080"),
            Some("421 Misdirected Request")
        );
        assert_eq!(
            everywhere("evil.example:8080"),
            Some("421 Misdirected Request")
        );
    }

    #[test]
    fn a_foreign_origin_is_forbidden() {
        for origin in [
            "http://evil.example",
            "http://evil.example:8080",
            "https://localhost:8080",
            "http://localhost:9999",
            "null",
            "",
        ] {
            assert_eq!(
                status(Some("localhost:8080"), Some(origin), LOOPBACK),
                Some("403 Forbidden"),
                "{origin}"
            );
        }
    }
}
