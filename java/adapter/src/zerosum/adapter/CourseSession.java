package zerosum.adapter;

import java.util.concurrent.Callable;

/**
 * One course player and the board the course referee would keep for it, in one framework
 * (m,n,k or Connect-X). The adapter calls {@link #newGame} when a game starts, {@link #play} for
 * every move (the opponent's and the player's own), and runs the calls {@link #initCall} and
 * {@link #selectCall} prepare on a timed thread, as the course referee does.
 */
interface CourseSession {
    /** Forgets the last game and sets up an empty M x N board where K in a row wins. */
    void newGame(int m, int n, int k);

    /**
     * Plays {@code move}, in zerosum's notation, for whoever is to move.
     *
     * @throws IllegalArgumentException when the move is not a legal move here
     */
    void play(String move);

    /** The call of {@code initPlayer} for a game on the current board size. */
    Callable<Void> initCall(boolean first, int timeoutSecs);

    /**
     * The call of the player's move choice with exactly what the course referee gives it, built
     * now (outside the timed call). The call answers the player's choice in zerosum's notation,
     * legal or not: the arena's referee judges it.
     */
    Callable<String> selectCall();

    /** The name of the player's method that chooses a move, for messages. */
    String chooseMethod();

    /** The player's own name ({@code playerName()}). */
    String playerName();
}
