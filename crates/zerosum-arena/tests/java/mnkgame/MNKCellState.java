package mnkgame;

/** Stand-in: the owner of a cell. */
public enum MNKCellState { P1, P2, FREE }
