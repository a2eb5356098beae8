package connectx;

/** Stand-in: a cell (row i, column j) and its owner. */
public class CXCell {
    public final int i;
    public final int j;
    public final CXCellState state;

    public CXCell(int i, int j, CXCellState state) {
        this.i = i;
        this.j = j;
        this.state = state;
    }
}
