//! What a tournament leaves behind: each game's record, the JSON-lines record file a run
//! appends to and resumes from, and game files (SGF, PSQ, PGN) written from records.

pub mod export;
pub mod record;
pub mod record_file;
