package connectx;

/** Stand-in: the owner of a cell. */
public enum CXCellState { P1, P2, FREE }
