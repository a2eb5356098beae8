package zerosum.adapter;

/**
 * zerosum's names of grid cells: column letters ({@code a}..{@code z}, then {@code aa},
 * {@code ab}, ...) followed by the row number from 1, counted from the top.
 */
final class CellNames {
    private CellNames() {}

    /**
     * The name of the cell at 0-based {@code row} and {@code column}; a cell with a negative
     * coordinate (never on a board) gets a name no board accepts, {@code (row,column)}.
     */
    static String name(int row, int column) {
        if (row < 0 || column < 0) {
            return "(" + row + "," + column + ")";
        }
        StringBuilder letters = new StringBuilder();
        for (int rest = column + 1; rest > 0; rest = (rest - 1) / 26) {
            letters.append((char) ('a' + (rest - 1) % 26));
        }
        return letters.reverse().toString() + (row + 1);
    }

    /** The 0-based {row, column} of a cell name (either case), or null if it is not one. */
    static int[] parse(String name) {
        String text = name.trim().toLowerCase();
        int split = 0;
        long column = 0;
        while (split < text.length() && text.charAt(split) >= 'a' && text.charAt(split) <= 'z') {
            column = column * 26 + (text.charAt(split) - 'a' + 1);
            if (column > Integer.MAX_VALUE) {
                return null;
            }
            split++;
        }
        if (split == 0 || split == text.length()) {
            return null;
        }
        int row;
        try {
            row = Integer.parseInt(text.substring(split));
        } catch (NumberFormatException notANumber) {
            return null;
        }
        if (row < 1 || text.charAt(split) == '+') {
            return null;
        }
        return new int[] {row - 1, (int) column - 1};
    }
}
