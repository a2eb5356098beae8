//! The web server's HTTP request parser (zerosum-web `http::read_request`) on a byte stream.

use zerosum_web::http::read_request;

use super::{corpus_of, Target, Verdict};

pub const REQUEST: Target = Target {
    name: "http-request",
    about: "HTTP request parser (zerosum-web http::read_request) reading the input as a stream",
    corpus: || {
        corpus_of(&[
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
            "GET /events HTTP/1.1\r\nHost: localhost:8080\r\nAccept: text/event-stream\r\n\r\n",
            "POST /command?session=12345 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 33\r\n\r\n{\"type\":\"move\",\"move\":\"b2\"}extra",
            "POST /command?session=1&x=y HTTP/1.1\r\ncontent-length: 4\r\n\r\nabcd",
            "GET /app.js?v=1 HTTP/1.0\n\n",
            "POST /command HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
            "PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n",
        ])
    },
    tokens: &[
        "GET",
        "POST",
        "HTTP/1.1",
        "HTTP/1.0",
        "\r\n",
        "\r\n\r\n",
        "Content-Length:",
        "content-length: ",
        "Host: ",
        "Origin: ",
        "?",
        "&",
        "session=",
        "/events",
        "/command",
        "65536",
        "65537",
        "16384",
    ],
    share: 1,
    run: |input| {
        let mut reader = input;
        let request = read_request(&mut reader);
        if let Ok(request) = &request {
            let _ = request.query_value("session");
            assert!(
                request.body.len() <= input.len(),
                "a body longer than the request"
            );
        }
        Verdict::of(&request)
    },
};
