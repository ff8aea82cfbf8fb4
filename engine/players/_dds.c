/* The hot loop of engine/players/solver.py in C: the same search, the same tables.
 *
 * The rules are not repeated here: Python builds the tables of a game type (class of each
 * card, which cards beat it, equal-point runs, points) in internal bit order and passes them
 * in; this file only searches. The pure-Python search in solver.py stays the fallback and the
 * test oracle (tests/players/test_solver.py checks identical answers).
 *
 * search(tables, tt, h0, h1, h2, leader, need, max_nodes, max_seconds, stop, variant)
 *   -> (result, nodes)
 *   result is True, False, or None when max_nodes (0: no limit) ran out first, or
 *   max_seconds of wall-clock time (0: no limit; the clock is read every 4096 nodes), or
 *   another thread set the first byte of the buffer `stop` (None: no such flag; read as
 *   often as the clock); variant (0: none) searches the root's leads (bit 0), second cards
 *   (bit 1) or third cards (bit 2) in the reverse order, so that threads asking the same
 *   question on one table start in different places
 * search_value(the same) -> (bound, nodes): the fail-soft bound instead of True/False
 *   (bound >= need: the declarer can reach at least bound; bound < need: at most bound;
 *   None as above), for searches of the exact value that step by these bounds
 *   tables: bytes, 4 x 32 uint32 (cls_mask, beats, run_mask, value) + 4 bytes
 *           (maxer[0..2], declarer) + uint32 bonus (1 per trick in trick mode, else 0)
 *           + uint32 trumps (the trump cards, 0 in null)
 *   tt:     a writable buffer of 16-byte entries (zeroed = empty), the transposition table;
 *           threads may share one (see Entry)
 *
 * null_search(tt, declarer, next, other, leader, max_nodes, max_seconds, stop)
 * -> (safe, nodes):
 * null's own search (below), the hands relative to the declarer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Past the node budget, or (checked every 4096 nodes: the clock costs far more than a
 * node) past the time limit, or told to stop by another thread (`stop`: a byte another
 * thread sets when this question's answer is no longer wanted): a decision's deadline
 * holds inside one search too. */
static inline int out_of_budget(uint64_t nodes, uint64_t max_nodes, double stop_at,
                                const uint8_t *stop) {
    if (max_nodes && nodes > max_nodes)
        return 1;
    if (nodes & 4095)
        return 0;
    if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
        return 1;
    return stop_at > 0 && now_seconds() >= stop_at;
}

typedef struct {
    uint32_t cls_mask[32];
    uint32_t beats[32];
    uint32_t run_mask[32];
    uint32_t value[32];
    uint8_t maxer[3];
    uint8_t declarer;
    uint32_t bonus;
    uint32_t trumps; /* 0 in null */
} Tables;

/* An entry of the transposition table: two words, so that threads sharing one table need
 * no lock. `data` holds h2, the leader + 1 (0: an empty slot), the bounds lo and hi and the
 * lead that decided the last search here plus one (0: none), a byte each from bit 32;
 * `check` is h0 | h1 << 32 xor `data`. An entry two threads wrote at once (one's check,
 * the other's data) fails the check and reads as empty. */
typedef struct {
    uint64_t check;
    uint64_t data;
} Entry;

typedef struct {
    const Tables *t;
    Entry *tt;
    size_t tt_mask;
    uint64_t nodes;
    uint64_t max_nodes; /* 0: no limit */
    double stop_at;     /* now_seconds() past which the search gives up; 0: none */
    const uint8_t *stop; /* see out_of_budget; NULL: none */
    uint32_t root;       /* the cards out at the root */
    int variant;         /* at the root: bit 0 the leads, 1 the second cards, 2 the third
                          * cards in the reverse order (another thread's start) */
    int aborted;
} Ctx;

static void reverse(int *a, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

static const int NEXT[3] = {1, 2, 0};

static inline int low_bit(uint32_t m) { return __builtin_ctz(m); }

static int left_value(const Ctx *c, uint32_t remaining) {
    if (c->t->bonus)
        return __builtin_popcount(remaining) / 3;
    int v = 0;
    while (remaining) {
        int b = low_bit(remaining);
        remaining &= remaining - 1;
        v += (int)c->t->value[b];
    }
    return v;
}

static int sure_value(const Tables *t, uint32_t cards) {
    int v = 0;
    while (cards) {
        int b = low_bit(cards);
        cards &= cards - 1;
        v += (int)(t->value[b] + t->bonus);
    }
    return v;
}

/* Moves of mask m (from hand) without equivalent cards, lowest first; returns the count. */
static int moves_of(const Tables *t, uint32_t m, uint32_t hand, uint32_t remaining, int *out) {
    int n = 0;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        uint32_t above = remaining & t->run_mask[c];
        if (above && (hand & (above & (~above + 1))))
            continue;
        out[n++] = c;
    }
    return n;
}

/* Opponent of the mover is winning: cheapest winners first, then the rest lowest first. */
static int ordered(const Tables *t, uint32_t m, uint32_t hand, uint32_t remaining, uint32_t win,
                   int *out) {
    if (!win)
        return moves_of(t, m, hand, remaining, out);
    int n = moves_of(t, win, hand, remaining, out);
    return n + moves_of(t, m & ~win, hand, remaining, out + n);
}

static void smear_order(const Tables *t, int *a, int n) {
    for (int i = 1; i < n; i++) {
        int x = a[i];
        int kx = (int)t->value[x] * 2 + !((t->trumps >> x) & 1);
        int j = i - 1;
        while (j >= 0 && ((int)t->value[a[j]] * 2 + !((t->trumps >> a[j]) & 1)) < kx) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* Leads: cards that are top (or near the top) of their group among the cards still out
 * first, trumps before side cards at the same distance, stronger first. */
static void lead_order(const Tables *t, int *a, int n, uint32_t remaining, uint32_t hand) {
    int key[32];
    for (int i = 0; i < n; i++) {
        int c = a[i];
        uint32_t above = remaining & t->cls_mask[c] & ~((2u << c) - 1) & ~hand;
        key[i] = __builtin_popcount(above) * 64 + (((t->trumps >> c) & 1) ? 0 : 32) + (31 - c);
    }
    for (int i = 1; i < n; i++) {
        int x = a[i], kx = key[i], j = i - 1;
        while (j >= 0 && key[j] > kx) {
            a[j + 1] = a[j];
            key[j + 1] = key[j];
            j--;
        }
        a[j + 1] = x;
        key[j + 1] = kx;
    }
}

static size_t slot(uint32_t h0, uint32_t h1, uint32_t h2, int leader, size_t mask) {
    uint64_t x = ((uint64_t)h0 * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)h1 * 0xC2B2AE3D27D4EB4FULL) ^
                 ((uint64_t)h2 * 0x165667B19E3779F9ULL) ^ (uint64_t)leader;
    x ^= x >> 29;
    return (size_t)(x & mask);
}

/* The declarer's points from here (tricks in trick mode), fail-soft against `need`: a
 * result v >= need says the value is at least v, v < need that it is at most v. The
 * bound a search proves is often tighter than `need`, and the transposition table keeps
 * it for the later questions of other needs (the schneider question, other worlds' cards). */
static int search(Ctx *c, uint32_t h[3], int leader, int need, int total) {
    const Tables *t = c->t;
    if (out_of_budget(++c->nodes, c->max_nodes, c->stop_at, c->stop)) {
        c->aborted = 1;
        return 0;
    }
    uint32_t remaining = h[0] | h[1] | h[2];
    if (need > total)
        return total;
    if (t->trumps) {
        /* A trump above every trump of the other side wins its trick whenever it is laid:
         * its own value is sure for its side. */
        uint32_t mine = h[t->declarer] & t->trumps;
        uint32_t theirs = remaining & t->trumps & ~mine;
        if (mine) {
            uint32_t sure = theirs ? mine & ~((2u << (31 - __builtin_clz(theirs))) - 1) : mine;
            int value = sure_value(t, sure);
            if (value >= need)
                return value;
        }
        if (theirs) {
            /* the defenders' sure trumps: all their points count, but two of them may fall
             * in one trick, so only one defender's count of them is sure tricks */
            uint32_t sure = mine ? theirs & ~((2u << (31 - __builtin_clz(mine))) - 1) : theirs;
            int value = sure_value(t, sure);
            if (t->bonus) {
                int d1 = NEXT[t->declarer], d2 = NEXT[d1];
                int n1 = __builtin_popcount(sure & h[d1]), n2 = __builtin_popcount(sure & h[d2]);
                value = (n1 > n2 ? n1 : n2) * (int)t->bonus;
            }
            if (total - value < need)
                return total - value;
        }
    }
    Entry *e = &c->tt[slot(h[0], h[1], h[2], leader, c->tt_mask)];
    int lo = 0, hi = total;
    int hash_move = -1;
    uint64_t key = (uint64_t)h[0] | (uint64_t)h[1] << 32;
    uint64_t data = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
    uint64_t check = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
    if ((uint32_t)data == h[2] && (int)(data >> 32 & 0xFF) == leader + 1 &&
        (check ^ data) == key) {
        lo = (int)(data >> 40 & 0xFF);
        hi = (int)(data >> 48 & 0xFF);
        hash_move = (int)(data >> 56) - 1;
        if (lo >= need)
            return lo;
        if (hi < need)
            return hi;
    }
    int p1 = leader, p2 = NEXT[p1], p3 = NEXT[p2];
    uint32_t h1 = h[p1], h2 = h[p2], h3 = h[p3];
    int w1 = t->maxer[p1], w2 = t->maxer[p2], w3 = t->maxer[p3];
    int last = __builtin_popcount(h1) == 1;
    int mv1[32], mv2[32], mv3[32];
    int n1 = moves_of(t, h1, h1, remaining, mv1);
    lead_order(t, mv1, n1, remaining, h1);
    if (hash_move >= 0) { /* the lead that decided here before goes first */
        for (int i = 1; i < n1; i++) {
            if (mv1[i] == hash_move) {
                for (int j = i; j > 0; j--)
                    mv1[j] = mv1[j - 1];
                mv1[0] = hash_move;
                break;
            }
        }
    }
    int variant = remaining == c->root ? c->variant : 0;
    if (variant & 1)
        reverse(mv1, n1);
    /* each level keeps its mover's best so far: the maximiser's highest, the other side's
     * lowest (every value is a bound of the kind its side of `need` says) */
    int best1 = w1 ? -1 : 1 << 20;
    int decided = -1;
    for (int i1 = 0; i1 < n1; i1++) {
        int c1 = mv1[i1];
        uint32_t cm = t->cls_mask[c1];
        uint32_t m2 = (h2 & cm) ? (h2 & cm) : h2;
        uint32_t b1 = t->beats[c1];
        int n2;
        if (w2 != w1) {
            n2 = ordered(t, m2, h2, remaining, m2 & b1, mv2);
        } else {
            n2 = moves_of(t, m2, h2, remaining, mv2);
            /* the partner led: if the last hand cannot beat the lead, give points to it */
            uint32_t m3l = (h3 & cm) ? (h3 & cm) : h3;
            if (!(m3l & b1))
                smear_order(t, mv2, n2);
        }
        if (variant & 2)
            reverse(mv2, n2);
        int best2 = w2 ? -1 : 1 << 20;
        for (int i2 = 0; i2 < n2; i2++) {
            int c2 = mv2[i2];
            int wc, wp;
            if ((1u << c2) & b1) {
                wc = c2;
                wp = p2;
            } else {
                wc = c1;
                wp = p1;
            }
            uint32_t m3 = (h3 & cm) ? (h3 & cm) : h3;
            uint32_t bw = t->beats[wc];
            int n3;
            if (t->maxer[wp] == w3) {
                /* the partner holds the trick: the most points first, side cards before
                 * trumps of equal points */
                n3 = moves_of(t, m3, h3, remaining, mv3);
                smear_order(t, mv3, n3);
            } else {
                n3 = ordered(t, m3, h3, remaining, m3 & bw, mv3);
            }
            if (variant & 4)
                reverse(mv3, n3);
            int base = (int)(t->value[c1] + t->value[c2] + t->bonus);
            if (!last) {
                /* Half the search time waits for table entries to come from memory: ask
                 * for every child's entry now, so that the later siblings' lookups find
                 * them in the cache while the first child is searched. */
                uint32_t r1 = h1 & ~(1u << c1), r2 = h2 & ~(1u << c2);
                for (int i3 = 0; i3 < n3; i3++) {
                    uint32_t hh[3];
                    hh[p1] = r1;
                    hh[p2] = r2;
                    hh[p3] = h3 & ~(1u << mv3[i3]);
                    int winner = ((1u << mv3[i3]) & bw) ? p3 : wp;
                    __builtin_prefetch(&c->tt[slot(hh[0], hh[1], hh[2], winner, c->tt_mask)]);
                }
            }
            int best3 = w3 ? -1 : 1 << 20;
            for (int i3 = 0; i3 < n3; i3++) {
                int c3 = mv3[i3];
                int winner = ((1u << c3) & bw) ? p3 : wp;
                int trick = base + (int)t->value[c3];
                int gained = winner == t->declarer ? trick : 0;
                int v = gained; /* need met already (a lower bound), or the last trick */
                if (gained < need && !last) {
                    uint32_t hh[3];
                    hh[p1] = h1 & ~(1u << c1);
                    hh[p2] = h2 & ~(1u << c2);
                    hh[p3] = h3 & ~(1u << c3);
                    v = gained + search(c, hh, winner, need - gained, total - trick);
                    if (c->aborted)
                        return 0; /* unwind without storing half-searched results */
                }
                if (w3 ? v > best3 : v < best3)
                    best3 = v;
                if ((v >= need) == w3)
                    break;
            }
            if (w2 ? best3 > best2 : best3 < best2)
                best2 = best3;
            if ((best3 >= need) == w2)
                break;
        }
        if (w1 ? best2 > best1 : best2 < best1)
            best1 = best2;
        if ((best2 >= need) == w1) {
            decided = c1;
            break;
        }
    }
    if (best1 >= need) {
        if (best1 > lo)
            lo = best1;
    } else if (best1 < hi) {
        hi = best1;
    }
    data = (uint64_t)h[2] | (uint64_t)(leader + 1) << 32 | (uint64_t)lo << 40 |
           (uint64_t)hi << 48 | (uint64_t)(decided + 1) << 56;
    __atomic_store_n(&e->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&e->check, key ^ data, __ATOMIC_RELAXED);
    return best1;
}

/* ------------------------------------------------------------------ null
 *
 * Null has its own search: no trumps, no points, one question (can the declarer avoid
 * every trick?), so the general search's move ordering (win tricks cheaply, give points to
 * the partner) is upside down there. Positions are relative to the declarer: 0 is the
 * declarer, 1 the next hand after him, 2 the other defender. Cards are in the internal null
 * order: bit 8 * suit + rank, rank 0 the seven .. 7 the ace (so "lower" is "weaker").
 *
 * null_search(tt, d, n1, n2, leader, max_nodes) -> (safe, nodes)
 *   safe is True (the declarer can avoid every trick), False, or None (node budget out)
 */

/* As Entry: `data` is the leader + 1 (0: an empty slot) | safe << 8, `check` the canonical
 * position (see null_key) xor `data`. */
typedef struct {
    uint64_t check;
    uint64_t data;
} NullEntry;

typedef struct {
    NullEntry *tt;
    size_t tt_mask;
    uint64_t nodes;
    uint64_t max_nodes; /* 0: no limit */
    double stop_at;     /* as in Ctx */
    const uint8_t *stop; /* as in Ctx */
    int aborted;
} NullCtx;

/* PEXT8[m][x]: the bits of x at the set bits of m, packed low (rank compression) */
static uint8_t PEXT8[256][256];
/* SPREAD8[x]: bit i of x moved to bit 2i */
static uint16_t SPREAD8[256];
/* SAFE8[d][o]: the declarer's holding d in a suit can never be made to win a trick in it
 * while the defenders, holding o, lead: his i-th lowest card is below their i-th lowest,
 * for every i up to the shorter holding (Hall's condition for ducking every lead with the
 * highest card below it) */
static uint8_t SAFE8[256][256];

static void null_init(void) {
    for (int m = 0; m < 256; m++) {
        for (int x = 0; x < 256; x++) {
            int out = 0, k = 0;
            for (int b = 0; b < 8; b++) {
                if (m >> b & 1) {
                    if (x >> b & 1)
                        out |= 1 << k;
                    k++;
                }
            }
            PEXT8[m][x] = (uint8_t)out;
        }
    }
    for (int x = 0; x < 256; x++) {
        int out = 0;
        for (int b = 0; b < 8; b++)
            if (x >> b & 1)
                out |= 1 << (2 * b);
        SPREAD8[x] = (uint16_t)out;
    }
    for (int d = 0; d < 256; d++) {
        for (int o = 0; o < 256; o++) {
            int dd = d, oo = o, safe = 1;
            while (dd && oo) {
                if ((dd & -dd) > (oo & -oo)) {
                    safe = 0;
                    break;
                }
                dd &= dd - 1;
                oo &= oo - 1;
            }
            SAFE8[d][o] = (uint8_t)safe;
        }
    }
}

#define SUIT_OF(c) (0xFFu << ((c) & ~7))
#define BELOW(c) ((1u << (c)) - 1)

/* The position up to what cannot matter: in each suit only the order of the cards still
 * out counts (which hand holds the lowest, the next...), and the suits are interchangeable.
 * Each suit becomes 8 two-bit owner codes (1 declarer, 2 next hand, 3 the other; 0 none),
 * lowest card first, and the four suit codes are sorted. */
static uint64_t null_key(const uint32_t h[3]) {
    uint32_t rem = h[0] | h[1] | h[2];
    uint32_t a = h[0] | h[2], b = h[1] | h[2];
    uint16_t code[4];
    for (int s = 0; s < 4; s++) {
        int r = (int)(rem >> (8 * s) & 0xFF);
        code[s] = (uint16_t)(SPREAD8[PEXT8[r][a >> (8 * s) & 0xFF]] |
                             (SPREAD8[PEXT8[r][b >> (8 * s) & 0xFF]] << 1));
    }
    /* a sorting network for four */
#define CSWAP(i, j)                                                                            \
    if (code[i] < code[j]) {                                                                   \
        uint16_t x_ = code[i];                                                                 \
        code[i] = code[j];                                                                     \
        code[j] = x_;                                                                          \
    }
    CSWAP(0, 1) CSWAP(2, 3) CSWAP(0, 2) CSWAP(1, 3) CSWAP(1, 2)
#undef CSWAP
    return (uint64_t)code[0] << 48 | (uint64_t)code[1] << 32 | (uint64_t)code[2] << 16 |
           (uint64_t)code[3];
}

static size_t null_slot(uint64_t key, int leader, size_t mask) {
    /* splitmix64's finalizer: every bit of the key and the leader reaches the low bits */
    uint64_t x = key + 0x9E3779B97F4A7C15ULL * (uint64_t)(leader + 1);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (size_t)(x & mask);
}

/* Moves of mask m without equivalent cards: a card is dropped when the next card still out
 * above it in its suit is in the same hand (in null all cards of a suit count alike). */
static int null_moves(uint32_t m, uint32_t hand, uint32_t rem, int *out) {
    int n = 0;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        uint32_t above = rem & SUIT_OF(c) & ~((2u << c) - 1);
        if (above && (hand & (above & (~above + 1))))
            continue;
        out[n++] = c;
    }
    return n;
}

static void sort_by_key(int *a, int *key, int n) {
    for (int i = 1; i < n; i++) {
        int x = a[i], kx = key[i], j = i - 1;
        while (j >= 0 && key[j] > kx) {
            a[j + 1] = a[j];
            key[j + 1] = key[j];
            j--;
        }
        a[j + 1] = x;
        key[j + 1] = kx;
    }
}

/* Is every suit of the declarer safe (see SAFE8) against the defenders' cards? */
static int all_safe(uint32_t d, uint32_t def) {
    for (int s = 0; s < 32; s += 8)
        if (!SAFE8[d >> s & 0xFF][def >> s & 0xFF])
            return 0;
    return 1;
}

/* The declarer's cards ordered for a discard or a follow: cards that duck `under` (all of
 * them when under is 0: a discard) come first, highest first; when `keep_forced` is set,
 * cards above `under` are kept only if they stay below `forced` (the next hand's lowest
 * card of the suit, which must then overtake); the others surely take the trick and are
 * left out. Discards: the highest card of a suit that is not safe first. */
static int order_declarer(uint32_t m, uint32_t hand, uint32_t rem, uint32_t def, int follow,
                          uint32_t under, uint32_t forced, int *out) {
    int key[32];
    int mv[32];
    int n0 = null_moves(m, hand, rem, mv);
    int n = 0;
    for (int i = 0; i < n0; i++) {
        int c = mv[i];
        uint32_t bit = 1u << c;
        int k;
        if (!follow) {
            int s = c & ~7;
            k = (SAFE8[hand >> s & 0xFF][def >> s & 0xFF] ? 32 : 0) + (31 - c);
        } else if (bit < under) {
            k = 31 - c;
        } else if (bit < forced) {
            k = 32 + c;
        } else {
            continue;
        }
        out[n] = c;
        key[n] = k;
        n++;
    }
    sort_by_key(out, key, n);
    return n;
}

/* A defender's cards: below `under` highest first (keeps the low cards that force the
 * declarer later), then the rest lowest first; under = 0: highest first. */
static int order_defender(uint32_t m, uint32_t hand, uint32_t rem, uint32_t under, int *out) {
    int key[32];
    int n = null_moves(m, hand, rem, out);
    for (int i = 0; i < n; i++) {
        int c = out[i];
        key[i] = ((1u << c) < under) ? 31 - c : (under ? 32 + c : 31 - c);
    }
    sort_by_key(out, key, n);
    return n;
}

static int null_search_node(NullCtx *c, const uint32_t h[3], int leader) {
    if (out_of_budget(++c->nodes, c->max_nodes, c->stop_at, c->stop)) {
        c->aborted = 1;
        return 0;
    }
    uint32_t hd = h[0];
    if (!hd)
        return 1;
    uint32_t def = h[1] | h[2];
    uint32_t rem = hd | def;
    if (leader) {
        /* A defender leads his lowest card of a suit in which the declarer cannot duck it
         * (and the other defender cannot be made to overtake): the declarer is caught. */
        int other = 3 - leader;
        uint32_t hl = h[leader], ho = h[other];
        for (int s = 0; s < 32; s += 8) {
            uint32_t S = 0xFFu << s;
            uint32_t ls = hl & S, ds = hd & S;
            if (!ls || !ds)
                continue;
            uint32_t x = ls & (~ls + 1), dl = ds & (~ds + 1);
            if (dl < x)
                continue;
            uint32_t os = ho & S, ol = os & (~os + 1);
            if (leader == 1) { /* the declarer plays third, after the other's lowest */
                if (!os || dl > ol)
                    return 0;
            } else if (!os || ol < dl) { /* he plays second; the last hand can stay under */
                return 0;
            }
        }
        /* every suit safe: the defenders lead throughout and he ducks every card */
        if (all_safe(hd, def))
            return 1;
    } else {
        /* he leads a card a defender must overtake and is safe in every suit afterwards */
        for (int s = 0; s < 32; s += 8) {
            uint32_t S = 0xFFu << s, ds = hd & S;
            if (!ds)
                continue;
            uint32_t a1 = h[1] & S, a2 = h[2] & S;
            uint32_t l1 = a1 & (~a1 + 1), l2 = a2 & (~a2 + 1);
            uint32_t top = l1 > l2 ? l1 : l2;
            for (uint32_t m = ds; m; m &= m - 1) {
                uint32_t bit = m & (~m + 1);
                if (bit > top)
                    break;
                if (all_safe(hd ^ bit, def))
                    return 1;
            }
        }
    }
    uint64_t key = null_key(h);
    NullEntry *e = &c->tt[null_slot(key, leader, c->tt_mask)];
    {
        uint64_t data = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
        uint64_t check = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
        if ((int)(data & 0xFF) == leader + 1 && (check ^ data) == key)
            return (int)(data >> 8 & 1);
    }

    int p1 = leader, p2 = NEXT[p1], p3 = NEXT[p2];
    uint32_t h1 = h[p1], h2 = h[p2], h3 = h[p3];
    int last = __builtin_popcount(h1) == 1;
    int mv1[32], mv2[32], mv3[32], key1[32];
    int n1 = 0;
    {
        int all[32];
        int n = null_moves(h1, h1, rem, all);
        for (int i = 0; i < n; i++) {
            int c1 = all[i];
            uint32_t S = SUIT_OF(c1);
            int k;
            if (p1 == 0) {
                /* the declarer leads: a card some defender must overtake first, then cards
                 * with few of the defenders' cards below them; a card above all of theirs
                 * takes the trick and is left out */
                if (!(def & S & ~((2u << c1) - 1)))
                    continue;
                uint32_t a1 = h[1] & S, a2 = h[2] & S;
                int forced = (a1 && (a1 & (~a1 + 1)) > (1u << c1)) ||
                             (a2 && (a2 & (~a2 + 1)) > (1u << c1));
                k = forced ? c1 : 32 * (1 + __builtin_popcount(def & S & BELOW(c1))) + c1;
            } else {
                /* a defender leads: the suits where the declarer has few cards below the
                 * lead first, low cards first; suits he is void in last */
                uint32_t ds = hd & S;
                k = ds ? 32 * __builtin_popcount(ds & BELOW(c1)) + c1 : 32 * 9 + c1;
            }
            mv1[n1] = c1;
            key1[n1] = k;
            n1++;
        }
        sort_by_key(mv1, key1, n1);
    }
    int want1 = p1 == 0; /* the declarer looks for one safe line, the defenders for one catch */
    int r = !want1;
    for (int i1 = 0; i1 < n1; i1++) {
        int c1 = mv1[i1];
        uint32_t cm = SUIT_OF(c1);
        uint32_t f2 = h2 & cm, m2 = f2 ? f2 : h2;
        uint32_t f3 = h3 & cm;
        int n2;
        if (p2 == 0) {
            uint32_t forced = f3 ? (f3 & (~f3 + 1)) : 0;
            n2 = order_declarer(m2, h2, rem, def, f2 != 0, 1u << c1, forced, mv2);
        } else {
            /* stay under the declarer's lead, or under the partner's lead */
            n2 = order_defender(m2, h2, rem, f2 ? 1u << c1 : 0, mv2);
        }
        int want2 = p2 == 0;
        r = !want2;
        for (int i2 = 0; i2 < n2; i2++) {
            int c2 = mv2[i2];
            int wc = c1, wp = p1;
            if ((1u << c2) & cm && c2 > c1) {
                wc = c2;
                wp = p2;
            }
            uint32_t m3 = f3 ? f3 : h3;
            int n3;
            if (p3 == 0) {
                n3 = order_declarer(m3, h3, rem, def, f3 != 0, 1u << wc, 0, mv3);
            } else if (wp == 0) {
                n3 = order_defender(m3, h3, rem, f3 ? 1u << wc : 0, mv3);
            } else {
                n3 = order_defender(m3, h3, rem, 0, mv3);
            }
            int want3 = p3 == 0;
            r = !want3;
            for (int i3 = 0; i3 < n3; i3++) {
                int c3 = mv3[i3];
                int winner = wp;
                if ((1u << c3) & cm && c3 > wc)
                    winner = p3;
                if (winner == 0) {
                    r = 0;
                } else if (last) {
                    r = 1;
                } else {
                    uint32_t hh[3];
                    hh[p1] = h1 & ~(1u << c1);
                    hh[p2] = h2 & ~(1u << c2);
                    hh[p3] = h3 & ~(1u << c3);
                    r = null_search_node(c, hh, winner);
                    if (c->aborted)
                        return 0;
                }
                if (r == want3)
                    break;
            }
            if (r == want2)
                break;
        }
        if (r == want1)
            break;
    }
    uint64_t data = (uint64_t)(leader + 1) | (uint64_t)(r ? 1 : 0) << 8;
    __atomic_store_n(&e->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&e->check, key ^ data, __ATOMIC_RELAXED);
    return r;
}

/* The optional stop flag: None, or a writable buffer whose first byte another thread sets
 * to stop the search (then answered like a spent budget). Returns 0 with an exception set
 * when it is neither. */
static int get_stop(PyObject *obj, Py_buffer *view, const uint8_t **stop) {
    *stop = NULL;
    view->obj = NULL;
    if (obj == NULL || obj == Py_None)
        return 1;
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE) < 0)
        return 0;
    if (view->len < 1) {
        PyBuffer_Release(view);
        view->obj = NULL;
        PyErr_SetString(PyExc_ValueError, "the stop flag needs at least one byte");
        return 0;
    }
    *stop = (const uint8_t *)view->buf;
    return 1;
}

static PyObject *py_null_search(PyObject *self, PyObject *args) {
    Py_buffer tt, stop_view;
    unsigned int d, n1, n2;
    int leader;
    unsigned long long max_nodes = 0;
    double max_seconds = 0;
    PyObject *stop_obj = NULL;
    const uint8_t *stop;
    if (!PyArg_ParseTuple(args, "w*IIIi|KdO", &tt, &d, &n1, &n2, &leader, &max_nodes,
                          &max_seconds, &stop_obj))
        return NULL;
    if (!get_stop(stop_obj, &stop_view, &stop)) {
        PyBuffer_Release(&tt);
        return NULL;
    }
    PyObject *result = NULL;
    size_t entries = (size_t)tt.len / sizeof(NullEntry);
    if (entries == 0 || (entries & (entries - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the table needs a power-of-two number of entries");
    } else if (leader < 0 || leader > 2) {
        PyErr_SetString(PyExc_ValueError, "leader must be 0, 1 or 2 (relative to the declarer)");
    } else if ((d & n1) || (d & n2) || (n1 & n2)) {
        PyErr_SetString(PyExc_ValueError, "the hands share a card");
    } else {
        NullCtx c;
        c.tt = (NullEntry *)tt.buf;
        c.tt_mask = entries - 1;
        c.nodes = 0;
        c.max_nodes = (uint64_t)max_nodes;
        c.stop_at = max_seconds > 0 ? now_seconds() + max_seconds : 0;
        c.stop = stop;
        c.aborted = 0;
        uint32_t h[3] = {d, n1, n2};
        int r;
        Py_BEGIN_ALLOW_THREADS
        r = null_search_node(&c, h, leader);
        Py_END_ALLOW_THREADS
        PyObject *answer = c.aborted ? Py_None : (r ? Py_True : Py_False);
        result = Py_BuildValue("(OK)", answer, (unsigned long long)c.nodes);
    }
    PyBuffer_Release(&tt);
    if (stop_view.obj)
        PyBuffer_Release(&stop_view);
    return result;
}

/* search() and search_value() share this: `value` set, the answer is the fail-soft bound
 * itself, else whether it reaches `need`. */
static PyObject *run_search(PyObject *args, int value) {
    Py_buffer tables, tt, stop_view;
    unsigned int h0, h1, h2;
    int leader, need;
    unsigned long long max_nodes = 0;
    double max_seconds = 0;
    PyObject *stop_obj = NULL;
    const uint8_t *stop;
    int variant = 0;
    if (!PyArg_ParseTuple(args, "y*w*IIIii|KdOi", &tables, &tt, &h0, &h1, &h2, &leader, &need,
                          &max_nodes, &max_seconds, &stop_obj, &variant))
        return NULL;
    if (!get_stop(stop_obj, &stop_view, &stop)) {
        PyBuffer_Release(&tables);
        PyBuffer_Release(&tt);
        return NULL;
    }
    PyObject *result = NULL;
    size_t entries = (size_t)tt.len / sizeof(Entry);
    if ((size_t)tables.len != sizeof(Tables)) {
        PyErr_Format(PyExc_ValueError, "tables must be %zu bytes, not %zd", sizeof(Tables),
                     tables.len);
    } else if (entries == 0 || (entries & (entries - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the table needs a power-of-two number of entries");
    } else if (leader < 0 || leader > 2) {
        PyErr_SetString(PyExc_ValueError, "leader must be 0, 1 or 2");
    } else {
        Ctx c;
        c.t = (const Tables *)tables.buf;
        c.tt = (Entry *)tt.buf;
        c.tt_mask = entries - 1;
        c.nodes = 0;
        c.max_nodes = (uint64_t)max_nodes;
        c.stop_at = max_seconds > 0 ? now_seconds() + max_seconds : 0;
        c.stop = stop;
        c.root = h0 | h1 | h2;
        c.variant = variant;
        c.aborted = 0;
        uint32_t h[3] = {h0, h1, h2};
        int v;
        /* The search touches only the two buffers (held until released below), so other
         * threads run meanwhile: the table's analysis worker must not stall its main loop. */
        Py_BEGIN_ALLOW_THREADS
        v = search(&c, h, leader, need, left_value(&c, h0 | h1 | h2));
        Py_END_ALLOW_THREADS
        if (c.aborted)
            result = Py_BuildValue("(OK)", Py_None, (unsigned long long)c.nodes);
        else if (value)
            result = Py_BuildValue("(iK)", v, (unsigned long long)c.nodes);
        else
            result = Py_BuildValue("(OK)", v >= need ? Py_True : Py_False,
                                   (unsigned long long)c.nodes);
    }
    PyBuffer_Release(&tables);
    PyBuffer_Release(&tt);
    if (stop_view.obj)
        PyBuffer_Release(&stop_view);
    return result;
}

static PyObject *py_search(PyObject *self, PyObject *args) { return run_search(args, 0); }

static PyObject *py_search_value(PyObject *self, PyObject *args) { return run_search(args, 1); }

static PyObject *py_sizes(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("(nn)", (Py_ssize_t)sizeof(Tables), (Py_ssize_t)sizeof(Entry));
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(tables, tt, h0, h1, h2, leader, need, max_nodes=0, max_seconds=0, stop=None, "
     "variant=0) -> (bool or None, nodes)"},
    {"search_value", py_search_value, METH_VARARGS,
     "search_value(tables, tt, h0, h1, h2, leader, need, max_nodes=0, max_seconds=0, "
     "stop=None, variant=0) -> "
     "(int or None, nodes): the fail-soft bound (>= need: the value is at least it; "
     "< need: at most it)"},
    {"null_search", py_null_search, METH_VARARGS,
     "null_search(tt, declarer, next, other, leader, max_nodes=0, max_seconds=0, stop=None) -> "
     "(bool or None, nodes)"},
    {"sizes", py_sizes, METH_NOARGS, "sizes() -> (bytes of the tables, bytes of one entry)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "Double-dummy search core (see solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__dds(void) {
    null_init();
    return PyModule_Create(&module);
}
