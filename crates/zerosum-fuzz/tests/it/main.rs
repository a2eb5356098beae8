//! Integration tests of zerosum-fuzz, a module per area.

mod targets;
