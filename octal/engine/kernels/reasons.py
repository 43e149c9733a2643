"""Why a sparse kernel stops before the heap it was asked to reach (its last return value; 0 when it reached it).
Plain numbers in a module of their own, so the drivers name them without importing the compiled kernels."""

NEW_RARE = 1  # right after a rare value never seen before: the driver may re-choose the mask
WIDEN = 2  # heap n's value would not fit G's dtype: nothing stored, the driver widens
RARE_FULL = 3  # the rare list is full: nothing stored, the driver doubles it
LARGE_VALUE = 4  # fill_sparse_small only: heap n's value is SMALL or more, fill_sparse takes over from n
GAP = 5  # heap n needs a value that has left memory (stream mode): nothing stored, the driver widens
NARROW = 6  # (the driver's, not a kernel's) values below 64 held wider than uint8: narrowed for the word kernel
RARE_SEEN = 7  # (a turn's, within a parallel pass) it reached se past a rare value never seen before: the pass goes
# on, and says NEW_RARE where it stops (any mask gives the same values, so the driver's re-choice may wait until
# then, and the far work already done for the heaps after it is kept)
