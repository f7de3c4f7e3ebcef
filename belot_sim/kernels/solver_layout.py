"""The solver's context array layout and table stamps: plain constants, importable without
compiling the solver (whose recursive search compiles when :mod:`.solver` is imported)."""

# --- ctx layout ------------------------------------------------------------------------------
# ctx[0..3]: the four hands of the solve (fixed; a seat's cards are hand & remaining).
C_CONTRACT, C_TEAM, C_UNDER, C_ATOP, C_BELOT, C_LAST, C_GEN, C_TTMASK, C_NODES = 4, 5, 6, 7, 8, 9, 10, 11, 12
C_TEAMCARDS = 13   # the team's cards (both seats)
C_MIDTT = 14       # positions inside a trick are stored with this many cards or more left
C_ZEROS = 15       # the contract's zero-point cards
C_POINTS = 16      # 32 card points, NT doubling applied
C_MOVES = 48       # ordered move lists, 8 per depth (33 depths)
C_SCORES = C_MOVES + 33 * 8
C_HIST = C_SCORES + 33 * 8  # history bonus [leads, follows in the led suit, other cards][card]
C_VALS = C_HIST + 96  # values of the searched moves, by card, 32 per depth
C_ZMASK = C_VALS + 33 * 32  # per suit: the 8-bit mask of its zero-point ranks (the weakest ones)
C_CANON = C_ZMASK + 4      # [suit * 8 + live zero ranks]: canonical stand-in (see _canon)
# The structure table (see solver._struct_probe) lives in ctx, not in the caller's table: it is
# small, and a counter of this ctx (not the caller's stamps) tells its entries apart.
C_SON = C_CANON + 32        # 1: this solve uses the structure table (more than 12 cards at the root)
C_SEPOCH = C_SON + 1        # the structure table's stamp: this ctx's solves counted 1 .. 2**13 - 1
C_OWNSEQ = C_SEPOCH + 1     # [suit * 256 + live ranks]: seats of the live cards, weakest first (2 bits
                            # each) | their count << 16; -1 if a card is not in the hands
S_BITS = 13                 # 2**S_BITS entries (measured on 240 deals: 2**15 ~2 % faster, 2**11 5 % slower)
C_PSEQ = C_OWNSEQ + 1024    # [suit * 256 + live ranks]: points of the live cards, weakest first (6 bits each)
C_STAB = C_PSEQ + 1024      # the structure table: two words per entry, see solver._struct_store
CTX_SIZE = C_STAB + (2 << S_BITS)

#: Table entries: key word, then lb (16 bits) | ub (16) | best card (8) | generation (bits 40..62).
MAX_GEN = (1 << 23) - 1
