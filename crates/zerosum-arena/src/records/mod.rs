//! What a tournament leaves behind: each game's record, the JSON-lines record file a run
//! appends to and resumes from, and game files (SGF, PSQ, PGN) written from
//! records, afterwards or as the games finish.

pub mod export;
pub mod game_files;
pub mod record;
pub mod record_file;
