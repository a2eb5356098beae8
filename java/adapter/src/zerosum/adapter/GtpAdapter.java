package zerosum.adapter;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one course player (an {@code MNKPlayer} or a {@code CXPlayer}, named by its class) as a
 * GTP v2 engine on standard input and output: {@code java -cp ADAPTER:PLAYER zerosum.adapter.GtpAdapter
 * CLASS}.
 *
 * <p>Contract with the controller (zerosum's arena): {@code zerosum-game mnk:MxNxK} or
 * {@code zerosum-game connectx:MxNxK} chooses the game, {@code clear_board} starts a game,
 * {@code time_settings 0 S 1} sets the course limit to S seconds per call (10 by default),
 * {@code zerosum-course-init b|w} calls {@code initPlayer} for the side it names (done at the first
 * {@code genmove} otherwise), {@code play} tells a move and {@code genmove} asks the player for one,
 * answering the move and the call's time in milliseconds as the course times it ({@code = a1 215}):
 * the referee judges a course player by that time alone.
 *
 * <p>Course rules kept: one player object for the whole process, {@code initPlayer} again before
 * every game, each call on a fresh thread timed by the wall clock ({@code initPlayer} gets 10 %
 * more, as in the course). A late call answers {@code ? timeout: ...}, a call that throws answers
 * {@code ? exception: ...}; an illegal choice is passed on as it is, for the referee to judge.
 * Protocol replies go to the process's real standard output; {@code System.out} is redirected to
 * standard error before the player class is loaded, so the player's prints cannot corrupt them.
 * The process exits on {@code quit} or at the end of input, whatever threads the player started.
 */
public final class GtpAdapter {
    private static final String[] COMMANDS = {
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "time_settings", "time_left",
        "zerosum-game", "zerosum-course-init",
    };

    private final PrintStream protocol;
    private final String className;
    /** The player object, or null when it could not be made (then {@link #loadError} says why). */
    private final Object player;
    private final String loadError;
    private CourseSession session;
    /** The spec of the game chosen with {@code zerosum-game}, null before. */
    private String spec;
    private int[] size;
    private int timeoutSecs = 10;
    private boolean initialised;
    /** How long the last timed call took, as the course referee times it. */
    private long lastCallNanos;

    private GtpAdapter(PrintStream protocol, String className) {
        this.protocol = protocol;
        this.className = className;
        Object made = null;
        String error = null;
        try {
            made = Class.forName(className).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException missing) {
            error = "class " + className + " not found on the classpath";
        } catch (NoSuchMethodException noDefault) {
            error = "class " + className + " has no constructor without arguments";
        } catch (ReflectiveOperationException | RuntimeException | LinkageError failed) {
            error = "cannot make a " + className + ": " + describe(failed);
        }
        this.player = made;
        this.loadError = error;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java -cp ADAPTER:PLAYER zerosum.adapter.GtpAdapter CLASS");
            System.exit(2);
        }
        PrintStream protocol = new PrintStream(
                new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        GtpAdapter adapter = new GtpAdapter(protocol, args[0]);
        BufferedReader input = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = input.readLine()) != null; ) {
            if (!adapter.handle(line)) {
                break;
            }
        }
        protocol.flush();
        System.exit(0);
    }

    /** Answers one input line; false once the controller said {@code quit}. */
    private boolean handle(String raw) {
        StringBuilder clean = new StringBuilder();
        for (char c : raw.toCharArray()) {
            if (c == '#') {
                break;
            }
            if (c == '\t') {
                clean.append(' ');
            } else if (c >= ' ' && c != 127) {
                clean.append(c);
            }
        }
        String[] words = clean.toString().trim().split(" +");
        if (words[0].isEmpty()) {
            return true;
        }
        String id = "";
        int at = 0;
        if (words[0].chars().allMatch(Character::isDigit)) {
            id = words[0];
            at = 1;
            if (words.length == 1) {
                reply(false, id, "no command");
                return true;
            }
        }
        String command = words[at].toLowerCase();
        String[] arguments = java.util.Arrays.copyOfRange(words, at + 1, words.length);
        try {
            reply(true, id, run(command, arguments));
        } catch (Refusal refusal) {
            reply(false, id, refusal.getMessage());
        }
        return !command.equals("quit");
    }

    private void reply(boolean success, String id, String text) {
        protocol.print((success ? "=" : "?") + id + (text.isEmpty() ? "" : " " + text) + "\n\n");
        protocol.flush();
    }

    /** A command's failure: its message is the text of the {@code ?} reply. */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message, null, false, false);
        }
    }

    private String run(String command, String[] arguments) throws Refusal {
        switch (command) {
            case "protocol_version":
                return "2";
            case "name":
                return player == null ? className : safeName();
            case "version":
                return "1";
            case "known_command":
                return Boolean.toString(arguments.length == 1
                        && java.util.Arrays.asList(COMMANDS).contains(arguments[0].toLowerCase()));
            case "list_commands":
                return String.join("\n", COMMANDS);
            case "quit":
            case "komi":
            case "time_left":
                return "";
            case "boardsize":
                throw new Refusal("unacceptable size: choose the game with zerosum-game");
            case "zerosum-game":
                chooseGame(argument(arguments, 0));
                return "";
            case "clear_board":
                newGame();
                return "";
            case "time_settings":
                setTime(arguments);
                return "";
            case "zerosum-course-init":
                initialise(isFirst(argument(arguments, 0)));
                return "";
            case "play":
                isFirst(argument(arguments, 0));
                play(argument(arguments, 1));
                return "";
            case "genmove":
                return genmove(isFirst(argument(arguments, 0)));
            default:
                throw new Refusal("unknown command: " + command);
        }
    }

    private static String argument(String[] arguments, int index) throws Refusal {
        if (index >= arguments.length) {
            throw new Refusal("missing argument");
        }
        return arguments[index];
    }

    /** True for black (the first player), false for white. */
    private static boolean isFirst(String colour) throws Refusal {
        switch (colour.toLowerCase()) {
            case "b":
            case "black":
                return true;
            case "w":
            case "white":
                return false;
            default:
                throw new Refusal("invalid color: " + colour);
        }
    }

    private void chooseGame(String text) throws Refusal {
        String[] parts = text.toLowerCase().split(":", 2);
        String sessionClass;
        String framework;
        switch (parts[0]) {
            case "mnk":
                sessionClass = "zerosum.adapter.MnkCourseSession";
                framework = "mnkgame.MNKPlayer";
                break;
            case "connectx":
                sessionClass = "zerosum.adapter.CxCourseSession";
                framework = "connectx.CXPlayer";
                break;
            default:
                throw new Refusal("a course player plays only mnk:MxNxK and connectx:MxNxK");
        }
        int[] dimensions = parts.length == 2 ? dimensions(parts[1]) : null;
        if (dimensions == null) {
            throw new Refusal("bad game " + text + " (expected " + parts[0] + ":MxNxK)");
        }
        if (player == null) {
            throw new Refusal(loadError);
        }
        if (spec == null || !spec.startsWith(parts[0] + ":")) {
            try {
                session = (CourseSession) Class.forName(sessionClass)
                        .getDeclaredConstructor(Object.class).newInstance(player);
            } catch (ReflectiveOperationException | LinkageError notThisFramework) {
                throw new Refusal(className + " is not a " + framework + ": cannot play " + text);
            }
        }
        spec = text;
        size = dimensions;
        newGame();
    }

    /** M, N and K of {@code MxNxK}, or null. */
    private static int[] dimensions(String text) {
        String[] parts = text.split("x");
        if (parts.length != 3) {
            return null;
        }
        int[] values = new int[3];
        for (int i = 0; i < 3; i++) {
            try {
                values[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException notANumber) {
                return null;
            }
            if (values[i] < 1) {
                return null;
            }
        }
        return values;
    }

    private void newGame() throws Refusal {
        if (session == null) {
            throw new Refusal("no game: send zerosum-game first");
        }
        session.newGame(size[0], size[1], size[2]);
        initialised = false;
    }

    /** {@code time_settings main byo_yomi stones}: the byo-yomi, else the main time, if any. */
    private void setTime(String[] arguments) throws Refusal {
        try {
            int main = Integer.parseInt(argument(arguments, 0));
            int byoYomi = Integer.parseInt(argument(arguments, 1));
            if (byoYomi > 0) {
                timeoutSecs = byoYomi;
            } else if (main > 0) {
                timeoutSecs = main;
            }
        } catch (NumberFormatException notANumber) {
            throw new Refusal("syntax error: time_settings MAIN BYO_YOMI STONES");
        }
    }

    private void play(String move) throws Refusal {
        if (session == null) {
            throw new Refusal("no game: send zerosum-game first");
        }
        try {
            session.play(move);
        } catch (IllegalArgumentException illegal) {
            throw new Refusal("illegal move: " + illegal.getMessage());
        }
    }

    /**
     * Calls {@code initPlayer} as the course referee does, with 10 % more than the limit, then
     * builds (and drops) what a move call gets, so that the JVM has compiled that code before
     * the first timed move.
     */
    private void initialise(boolean first) throws Refusal {
        if (session == null) {
            throw new Refusal("no game: send zerosum-game first");
        }
        timed("initPlayer", session.initCall(first, timeoutSecs),
                (long) (timeoutSecs * 1100L));
        session.selectCall();
        initialised = true;
    }

    private String genmove(boolean first) throws Refusal {
        if (!initialised) {
            initialise(first);
        }
        String move = timed(session.chooseMethod(),
                session.selectCall(), timeoutSecs * 1000L);
        long millis = lastCallNanos / 1_000_000L;
        try {
            session.play(move);
        } catch (IllegalArgumentException illegal) {
            // The referee forfeits the game on this move: the board no longer matters.
        }
        return move + " " + millis;
    }

    /**
     * Runs {@code call} on a fresh daemon thread and waits for it at most {@code millis}; the
     * time from handing the call over to its answer goes to {@link #lastCallNanos}.
     */
    private <T> T timed(String what, Callable<T> call, long millis) throws Refusal {
        ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "course-" + what);
            thread.setDaemon(true);
            return thread;
        });
        long start = System.nanoTime();
        Future<T> future = executor.submit(call);
        executor.shutdown();
        try {
            T answer = future.get(millis, TimeUnit.MILLISECONDS);
            lastCallNanos = System.nanoTime() - start;
            return answer;
        } catch (TimeoutException late) {
            future.cancel(true);
            throw new Refusal(String.format("timeout: %s took more than %.1f s", what,
                    millis / 1000.0));
        } catch (ExecutionException thrown) {
            throw new Refusal("exception: " + what + " threw " + describe(thrown.getCause()));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new Refusal("exception: interrupted while waiting for " + what);
        }
    }

    private String safeName() {
        try {
            String name = session == null ? null : session.playerName();
            return name == null || name.isBlank() ? className : name.replaceAll("\\s+", " ").trim();
        } catch (RuntimeException failed) {
            return className;
        }
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        String text = error.getClass().getName() + (message == null ? "" : ": " + message);
        return text.replaceAll("\\s+", " ").trim();
    }
}
