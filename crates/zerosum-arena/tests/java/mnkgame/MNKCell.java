package mnkgame;

/** Stand-in: a cell (row i, column j) and its owner. */
public class MNKCell {
    public final int i;
    public final int j;
    public final MNKCellState state;

    public MNKCell(int i, int j, MNKCellState state) {
        this.i = i;
        this.j = j;
        this.state = state;
    }

    public MNKCell(int i, int j) {
        this(i, j, MNKCellState.FREE);
    }
}
