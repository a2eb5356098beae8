package connectx;

/** Stand-in: the state of a game. */
public enum CXGameState { WINP1, WINP2, DRAW, OPEN }
