package mnkgame;

/** Stand-in: the state of a game. */
public enum MNKGameState { WINP1, WINP2, DRAW, OPEN }
