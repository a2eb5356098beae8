//! How the command line reports failure: one line on standard error, `error: <what went
//! wrong>`, and exit code 1, whether the problem was found by the argument parser or by a
//! command. `--help` and `--version` print as usual and exit 0.

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

/// Parses the arguments into `T`; on failure, prints the help or version it asks for (exit 0)
/// or its error as one line (exit 1), and returns the exit code.
pub fn parse_arguments<T: Parser>() -> Result<T, ExitCode> {
    T::try_parse().map_err(|error| match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let commands: Vec<String> = T::command()
                .get_subcommands()
                .map(|command| command.get_name().to_string())
                .filter(|name| name != "help")
                .collect();
            fail(&format!(
                "no command given: one of {} (`zerosum --help` says what each does)",
                commands.join(", ")
            ))
        }
        _ => fail(&parser_message(
            &error.render().to_string(),
            &command_path::<T>(std::env::args().skip(1)),
        )),
    })
}

/// The command `args` name, as far as they name one: `zerosum`, `zerosum perft`,
/// `zerosum bench connect4`.
fn command_path<T: CommandFactory>(args: impl Iterator<Item = String>) -> String {
    let mut command = T::command();
    let mut path = vec![command.get_name().to_string()];
    for arg in args {
        let Some(sub) = command.find_subcommand(&arg).cloned() else {
            break;
        };
        path.push(sub.get_name().to_string());
        command = sub;
    }
    path.join(" ")
}

/// Prints `message` as the one error line and returns the failure exit code (an error line
/// standard error cannot take is lost: the code still says the command failed).
pub fn fail(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: {}", one_line(message));
    ExitCode::FAILURE
}

/// `text` on one line: its non-empty lines, trimmed, joined by `; `.
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    lines.join("; ")
}

/// The parser's rendered error as one message: its lines without the usage and the pointer
/// to `--help`, a list under a heading ending in `:` joined by commas, and `command` whose
/// help to read. The leading `error: ` is left to [`fail`].
fn parser_message(rendered: &str, command: &str) -> String {
    let mut message = String::new();
    let mut listing = false;
    for line in rendered.lines().map(str::trim) {
        if line.is_empty()
            || line.starts_with("Usage: ")
            || line.starts_with("For more information")
        {
            listing = false;
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !message.is_empty() {
            message.push_str(match (listing, message.ends_with(':')) {
                (_, true) => " ",
                (true, false) => ", ",
                (false, false) => "; ",
            });
        }
        listing = line.ends_with(':') || listing;
        message.push_str(line);
    }
    format!("{message} (see `{command} --help`)")
}

#[cfg(test)]
mod tests {
    use super::{command_path, one_line, parser_message};

    #[test]
    fn parser_errors_become_one_line() {
        assert_eq!(
            parser_message(
                "error: invalid value 'x' for '<DEPTH>': invalid digit found in string\n\n\
                 For more information, try '--help'.\n",
                "zerosum perft"
            ),
            "invalid value 'x' for '<DEPTH>': invalid digit found in string \
             (see `zerosum perft --help`)"
        );
        assert_eq!(
            parser_message(
                "error: the following required arguments were not provided:\n  <SPEC>\n  \
                 <DEPTH>\n\nUsage: zerosum perft [OPTIONS] <SPEC> <DEPTH>\n\n\
                 For more information, try '--help'.\n",
                "zerosum perft"
            ),
            "the following required arguments were not provided: <SPEC>, <DEPTH> \
             (see `zerosum perft --help`)"
        );
        assert_eq!(
            parser_message(
                "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a \
                 value, use '-- --bogus'\n\nUsage: zerosum show [OPTIONS] <SPEC>\n",
                "zerosum show"
            ),
            "unexpected argument '--bogus' found; tip: to pass '--bogus' as a value, use \
             '-- --bogus' (see `zerosum show --help`)"
        );
    }

    #[test]
    fn the_command_path_follows_the_subcommands() {
        let path =
            |args: &[&str]| command_path::<crate::Cli>(args.iter().map(|arg| arg.to_string()));
        assert_eq!(path(&[]), "zerosum");
        assert_eq!(path(&["perft", "tictactoe", "x"]), "zerosum perft");
        assert_eq!(
            path(&["bench", "connect4", "--limit"]),
            "zerosum bench connect4"
        );
        assert_eq!(path(&["nonsense", "perft"]), "zerosum");
    }

    #[test]
    fn messages_of_several_lines_are_joined() {
        assert_eq!(one_line("first\n\n  second\n"), "first; second");
    }
}
