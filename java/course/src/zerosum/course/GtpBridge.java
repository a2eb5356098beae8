package zerosum.course;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * zerosum's engine behind a course player: a {@code zerosum gtp} process (or the command in the
 * system property {@code zerosum.gtp}, else the environment variable {@code ZEROSUM_GTP}, split
 * at spaces) driven over GTP, one process per game.
 *
 * <p>Contract: {@link #newGame} starts the engine for a game; {@link #move} tells it the moves it
 * has not seen and asks for its own by a deadline. Whenever the engine is late, dies or answers
 * something unusable, {@link #move} answers null, so the caller plays a fallback move in time,
 * and the engine is restarted and told the whole game at the next move.
 */
final class GtpBridge {
    /** Share of the course limit after which the caller falls back rather than wait on. */
    private static final double DEADLINE_SHARE = 0.95;

    private final String spec;
    private final int timeoutSecs;
    private Process process;
    private Writer input;
    private BlockingQueue<String> output;
    /** Moves of the game the running engine knows. */
    private int known;

    private GtpBridge(String spec, int timeoutSecs) {
        this.spec = spec;
        this.timeoutSecs = timeoutSecs;
    }

    /** A bridge for a game {@code spec} (e.g. {@code mnk:7x7x4}), the engine started now. */
    static GtpBridge newGame(String spec, int timeoutSecs) {
        GtpBridge bridge = new GtpBridge(spec, timeoutSecs);
        bridge.start(System.nanoTime() + timeoutSecs * 1_000_000_000L);
        return bridge;
    }

    /** The time the course gives a call, less a reserve for answering in time. */
    long deadlineFrom(long startNanos) {
        return startNanos + (long) (timeoutSecs * DEADLINE_SHARE * 1e9);
    }

    /**
     * The engine's move after {@code moves} (the game so far, in zerosum's notation), or null
     * when it has none by {@code deadlineNanos} ({@link System#nanoTime}).
     */
    String move(List<String> moves, long deadlineNanos) {
        if (process == null || known > moves.size()) {
            stop();
            if (!start(deadlineNanos)) {
                return null;
            }
        }
        for (; known < moves.size(); known++) {
            String colour = known % 2 == 0 ? "b" : "w";
            if (command("play " + colour + " " + moves.get(known), deadlineNanos) == null) {
                stop();
                return null;
            }
        }
        String answer = command("genmove " + (moves.size() % 2 == 0 ? "b" : "w"), deadlineNanos);
        if (answer == null || answer.isEmpty()) {
            stop();
            return null;
        }
        known++;
        // The move is the first word (zerosum's course adapter adds the call's time after it).
        return answer.trim().split("\\s+")[0];
    }

    /** Ends the engine process (at the end of a game, or when it misbehaved). */
    void stop() {
        if (process != null) {
            process.destroyForcibly();
            process = null;
        }
        known = 0;
    }

    private boolean start(long deadlineNanos) {
        String command = System.getProperty("zerosum.gtp", System.getenv("ZEROSUM_GTP"));
        if (command == null || command.isBlank()) {
            command = "zerosum gtp";
        }
        try {
            process = new ProcessBuilder(command.trim().split("\\s+"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException cannotStart) {
            System.err.println("zerosum: cannot start `" + command + "`: " + cannotStart);
            process = null;
            return false;
        }
        input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        output = new LinkedBlockingQueue<>();
        BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BlockingQueue<String> queue = output;
        Thread reader = new Thread(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    queue.add(line);
                }
            } catch (IOException closed) {
                // The engine is gone: the next wait times out.
            }
        }, "zerosum-gtp-reader");
        reader.setDaemon(true);
        reader.start();
        known = 0;
        boolean ready = command("zerosum-game " + spec, deadlineNanos) != null
                && command("clear_board", deadlineNanos) != null
                && command("time_settings 0 " + engineSeconds() + " 1", deadlineNanos) != null;
        if (!ready) {
            stop();
        }
        return ready;
    }

    /**
     * Whole seconds the engine is told it has: one less than the course limit from 3 s up, so
     * the round trip through the process never makes the player late; the limit itself below.
     */
    private int engineSeconds() {
        return timeoutSecs >= 3 ? timeoutSecs - 1 : Math.max(1, timeoutSecs);
    }

    /** The text of the success reply to {@code text}, or null on a refusal, silence or death. */
    private String command(String text, long deadlineNanos) {
        try {
            input.write(text + "\n");
            input.flush();
            String first;
            do {
                first = output.poll(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (first == null) {
                    return null;
                }
            } while (first.isBlank());
            StringBuilder reply = new StringBuilder(first);
            for (String more; (more = output.poll(deadlineNanos - System.nanoTime(),
                    TimeUnit.NANOSECONDS)) != null && !more.isBlank(); ) {
                reply.append('\n').append(more);
            }
            if (reply.charAt(0) != '=') {
                return null;
            }
            return reply.substring(1).replaceFirst("^\\d*", "").trim();
        } catch (IOException | InterruptedException gone) {
            return null;
        }
    }
}
