"""The defaults every command and its API twin share, written once (no numpy: the CLI reads them at start-up).

Each is a budget of work or a size, never a time: the same command gives the same answer on any machine."""

from __future__ import annotations

RUN_N = 1000  # heaps a run computes when N is not given
RUN_MAX_N = 2**24  # heaps --until-proven may grow to
HEX_MAX_N = 2**14  # the same for a code whose moves may leave three heaps, unless told (--max-n), and the heaps
# `octal solve` computes for one: its kernel costs about n·W/3 words a heap, W growing with the values, so about n³ in
# all (0.F6: about 3 s to 2¹⁴ heaps here, 2-core EPYC; eight times that for each doubling)
ROW_WIDTH = 12  # values a table row holds, as Winning Ways prints them
CHECKPOINT_EVERY = 5.0  # seconds between checkpoint saves (when to save, never what is computed)
STREAM_WINDOW = 1 << 20  # heaps a stream run keeps at the start and at the end
STATS_N = 2**16  # heaps `octal stats` computes
PLOT_N = 2**14  # heaps `octal plot` draws
PLOT_FILE = "octal.png"

MISERE_MAX_ORDER = 600  # a quotient past this order is reported as growing
MISERE_MAX_WORK = 1_000_000_000  # steps of verification before a quotient is reported as growing

CENSUS_DB = "octal-census.sqlite"
CENSUS_DIGITS = 2
CENSUS_MAX_N = 2**16  # heaps per code in a normal-play census
CENSUS_HEX_MAX_N = 2**12  # with --hex: the table of 3,584 codes in minutes (2¹⁴ for its open ones: about 2 s a code)
CENSUS_UNTIL_PROVEN = 2**20  # census --until-proven: heaps per code at most (0.16 needs 509,622, 0.56 653,570)
CENSUS_MAX_HEAP = 200  # heaps per code in a misère census (Kayles needs 168 for its proof)
CENSUS_MAX_ORDER = 150
CENSUS_MAX_WORK = 60_000_000  # steps per code: about 4 s here (2-core EPYC), 10⁷–1.7·10⁷ steps a second

SITE_DIR = "site"
SITE_MAX_N = 2**16  # heaps per game named on the command line
