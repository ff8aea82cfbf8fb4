/* The hot loop of engine/players/solver.py in C: the same search, the same tables.
 *
 * The rules are not repeated here: Python builds the tables of a game type (class of each
 * card, which cards beat it, equal-point runs, points) in internal bit order and passes them
 * in; this file only searches. The pure-Python search in solver.py stays the fallback and the
 * test oracle (tests/players/test_solver.py checks identical answers).
 *
 * search(tables, tt, h0, h1, h2, leader, need, max_nodes) -> (result, nodes)
 *   result is True, False, or None when max_nodes (0: no limit) ran out first
 *   tables: bytes, 4 x 32 uint32 (cls_mask, beats, run_mask, value) + 4 bytes
 *           (maxer[0..2], declarer) + uint32 bonus (1 per trick in trick mode, else 0)
 *           + uint32 trumps (the trump cards, 0 in null)
 *   tt:     a writable buffer of 16-byte entries (zeroed = empty), the transposition table
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

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

typedef struct {
    uint32_t h0, h1, h2;
    uint8_t leader; /* 0 = empty slot, else leader + 1 */
    uint8_t lo, hi;
    uint8_t best; /* the lead that decided the last search here, plus one (0: none) */
} Entry;

typedef struct {
    const Tables *t;
    Entry *tt;
    size_t tt_mask;
    uint64_t nodes;
    uint64_t max_nodes; /* 0: no limit */
    int aborted;
} Ctx;

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

static void reverse(int *a, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
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

static int search(Ctx *c, uint32_t h[3], int leader, int need) {
    const Tables *t = c->t;
    if (++c->nodes > c->max_nodes && c->max_nodes) {
        c->aborted = 1;
        return 0;
    }
    uint32_t remaining = h[0] | h[1] | h[2];
    int total = left_value(c, remaining);
    if (need > total)
        return 0;
    if (t->trumps) {
        /* A trump above every trump of the other side wins its trick whenever it is laid:
         * its own value is sure for its side. */
        uint32_t mine = h[t->declarer] & t->trumps;
        uint32_t theirs = remaining & t->trumps & ~mine;
        if (mine) {
            uint32_t sure = theirs ? mine & ~((2u << (31 - __builtin_clz(theirs))) - 1) : mine;
            if (sure_value(t, sure) >= need)
                return 1;
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
                return 0;
        }
    }
    Entry *e = &c->tt[slot(h[0], h[1], h[2], leader, c->tt_mask)];
    int lo = 0, hi = total;
    int hash_move = -1;
    if (e->leader == leader + 1 && e->h0 == h[0] && e->h1 == h[1] && e->h2 == h[2]) {
        lo = e->lo;
        hi = e->hi;
        hash_move = (int)e->best - 1;
        if (lo >= need)
            return 1;
        if (hi < need)
            return 0;
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
    int r = !w1;
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
        r = !w2;
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
            int base = (int)(t->value[c1] + t->value[c2] + t->bonus);
            r = !w3;
            for (int i3 = 0; i3 < n3; i3++) {
                int c3 = mv3[i3];
                int winner = ((1u << c3) & bw) ? p3 : wp;
                int n_need = need;
                if (winner == t->declarer)
                    n_need = need - base - (int)t->value[c3];
                if (n_need <= 0) {
                    r = 1;
                } else if (last) {
                    r = 0;
                } else {
                    uint32_t hh[3];
                    hh[p1] = h1 & ~(1u << c1);
                    hh[p2] = h2 & ~(1u << c2);
                    hh[p3] = h3 & ~(1u << c3);
                    r = search(c, hh, winner, n_need);
                    if (c->aborted)
                        return 0; /* unwind without storing half-searched results */
                }
                if (r == w3)
                    break;
            }
            if (r == w2)
                break;
        }
        if (r == w1) {
            decided = c1;
            break;
        }
    }
    if (r) {
        if (need > lo)
            lo = need;
    } else if (need - 1 < hi) {
        hi = need - 1;
    }
    e->h0 = h[0];
    e->h1 = h[1];
    e->h2 = h[2];
    e->leader = (uint8_t)(leader + 1);
    e->lo = (uint8_t)lo;
    e->hi = (uint8_t)hi;
    e->best = (uint8_t)(decided + 1);
    return r;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    Py_buffer tables, tt;
    unsigned int h0, h1, h2;
    int leader, need;
    unsigned long long max_nodes = 0;
    if (!PyArg_ParseTuple(args, "y*w*IIIii|K", &tables, &tt, &h0, &h1, &h2, &leader, &need,
                          &max_nodes))
        return NULL;
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
        c.aborted = 0;
        uint32_t h[3] = {h0, h1, h2};
        int r;
        /* The search touches only the two buffers (held until released below), so other
         * threads run meanwhile: the table's analysis worker must not stall its main loop. */
        Py_BEGIN_ALLOW_THREADS
        r = search(&c, h, leader, need);
        Py_END_ALLOW_THREADS
        PyObject *answer = c.aborted ? Py_None : (r ? Py_True : Py_False);
        result = Py_BuildValue("(OK)", answer, (unsigned long long)c.nodes);
    }
    PyBuffer_Release(&tables);
    PyBuffer_Release(&tt);
    return result;
}

static PyObject *py_sizes(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("(nn)", (Py_ssize_t)sizeof(Tables), (Py_ssize_t)sizeof(Entry));
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(tables, tt, h0, h1, h2, leader, need, max_nodes=0) -> (bool or None, nodes)"},
    {"sizes", py_sizes, METH_NOARGS, "sizes() -> (bytes of the tables, bytes of one entry)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "Double-dummy search core (see solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__dds(void) { return PyModule_Create(&module); }
