/* engine.solver._dd: the double-dummy search of engine/solver/search.py, compiled.
 *
 * The same search as the pure-Python Search class, which stays the reference it is tested
 * against (tests/engine/test_solver_native.py): zero-window searches "does the side take at
 * least t tricks", a transposition table at trick boundaries keyed by the remaining hands and
 * the leader holding bounds valid for every target, quick-trick bounds, the last trick played
 * out directly, touching cards searched once, and the same move ordering. Only the data
 * layout is C's own: masks are uint32_t (a deck of at most 32 distinct cards), the table is
 * open addressing that grows (and is cleared should it reach its cap: it holds bounds only,
 * so forgetting them never changes a result).
 *
 * engine/solver/native.py is the only caller; it passes plain ints and tuples:
 *
 *   solve(hands, trick, to_act, playing, suit_of, suit_mask, above, trump, duty, side, goal)
 *       -> (value, optimal)
 *   card_values(<the same arguments>) -> ((card, value), ...)
 *
 * hands: a mask per seat (at most 4 seats); trick: (player, card) pairs in play order;
 * suit_of, suit_mask, above, trump: the CardOrder; duty: Obligations.bits per seat; side: a
 * mask of seats; goal: 0 most, 1 fewest, 2 misere, 3 slam (engine.solver.position.GOALS).
 * Values are the side's tricks from the start of the trick in progress (tricks already won
 * not included). Arguments that do not describe a position of card play raise ValueError
 * (TypeError for arguments of the wrong type); the search itself runs without the GIL.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS 4
#define MAX_CARDS 32
#define ALL_CARDS 0xFFFFFFFFu

/* engine.tricks: Obligations.bits */
#define FOLLOW_BIT 1
#define TRUMP_BIT 2
#define HEAD_BIT 4
#define LOWEST_BIT 8

/* engine.solver.position.GOALS, in that order */
enum { GOAL_MOST, GOAL_FEWEST, GOAL_MISERE, GOAL_SLAM };

/* --- bits ------------------------------------------------------------------------------- */

static inline int
bit_count(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

/* The index of the highest set bit of x (x != 0): Python's x.bit_length() - 1. */
static inline int
top_bit(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(x);
#else
    int n = 0;
    while (x >>= 1) {
        n++;
    }
    return n;
#endif
}

static inline uint32_t
lowest(uint32_t x)
{
    return x & (0u - x);
}

/* The cards strictly above card c: every bit higher than bit c. */
static inline uint32_t
bits_above(int c)
{
    return ~((2u << c) - 1u);
}

/* --- the transposition table ------------------------------------------------------------ */

/* One trick boundary: the hands of the players who play (0 for a player at home, whose hand
 * never changes) and the leader; lo and hi bound the side's tricks from there; move is the
 * lead that last proved a bound there (-1: none), tried first next time. */
typedef struct {
    uint32_t hands[MAX_SEATS];
    int8_t leader; /* -1: an empty slot */
    int8_t lo;
    int8_t hi;
    int8_t move;
} Entry;

/* The table's first and largest number of slots (20 bytes each): a whole deal of 3 x 10 cards
 * fills some thousands of them. */
#ifndef TABLE_FIRST
#define TABLE_FIRST ((size_t)1 << 12)
#endif
#ifndef TABLE_CAP
#define TABLE_CAP ((size_t)1 << 21)
#endif

typedef struct {
    Entry *slots;
    size_t mask; /* capacity - 1, a power of two less one */
    size_t used;
} Table;

static inline uint64_t
mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline size_t
slot_of(const uint32_t hands[MAX_SEATS], int leader, size_t mask)
{
    uint64_t a = (uint64_t)hands[0] << 32 | hands[1];
    uint64_t b = ((uint64_t)hands[2] << 32 | hands[3]) + (uint64_t)leader;
    return (size_t)(mix64(a ^ mix64(b)) & mask);
}

static inline int
same_key(const Entry *e, const uint32_t hands[MAX_SEATS], int leader)
{
    return e->leader == leader && e->hands[0] == hands[0] && e->hands[1] == hands[1]
           && e->hands[2] == hands[2] && e->hands[3] == hands[3];
}

static int
table_init(Table *tt, size_t capacity)
{
    tt->slots = malloc(capacity * sizeof(Entry));
    if (tt->slots == NULL) {
        return -1;
    }
    memset(tt->slots, 0xFF, capacity * sizeof(Entry)); /* every leader -1 */
    tt->mask = capacity - 1;
    tt->used = 0;
    return 0;
}

static void
table_free(Table *tt)
{
    free(tt->slots);
    tt->slots = NULL;
}

/* The entry of a boundary, or NULL. */
static Entry *
table_find(const Table *tt, const uint32_t hands[MAX_SEATS], int leader)
{
    size_t i = slot_of(hands, leader, tt->mask);
    for (;;) {
        Entry *e = &tt->slots[i];
        if (e->leader < 0) {
            return NULL;
        }
        if (same_key(e, hands, leader)) {
            return e;
        }
        i = (i + 1) & tt->mask;
    }
}

/* Room for one more entry: twice the slots when three quarters are used, or (at the cap, or
 * out of memory) an empty table of the same size. */
static void
table_make_room(Table *tt)
{
    size_t capacity = tt->mask + 1;
    if ((tt->used + 1) * 4 <= capacity * 3) {
        return;
    }
    if (capacity < TABLE_CAP) {
        Table bigger;
        if (table_init(&bigger, capacity * 2) == 0) {
            for (size_t i = 0; i < capacity; i++) {
                const Entry *e = &tt->slots[i];
                if (e->leader < 0) {
                    continue;
                }
                size_t j = slot_of(e->hands, e->leader, bigger.mask);
                while (bigger.slots[j].leader >= 0) {
                    j = (j + 1) & bigger.mask;
                }
                bigger.slots[j] = *e;
            }
            bigger.used = tt->used;
            table_free(tt);
            *tt = bigger;
            return;
        }
    }
    memset(tt->slots, 0xFF, capacity * sizeof(Entry));
    tt->used = 0;
}

/* The entry of a boundary, made (with no bounds and no move) if there is none. */
static Entry *
table_put(Table *tt, const uint32_t hands[MAX_SEATS], int leader)
{
    Entry *e = table_find(tt, hands, leader);
    if (e != NULL) {
        return e;
    }
    table_make_room(tt);
    size_t i = slot_of(hands, leader, tt->mask);
    while (tt->slots[i].leader >= 0) {
        i = (i + 1) & tt->mask;
    }
    e = &tt->slots[i];
    memcpy(e->hands, hands, sizeof e->hands);
    e->leader = (int8_t)leader;
    e->move = -1;
    tt->used++;
    return e;
}

/* --- the position ----------------------------------------------------------------------- */

typedef struct {
    /* the game */
    int seats;
    int nsuits;
    int size;                  /* the players who play: the cards of a trick */
    int players[MAX_SEATS];    /* those players, in seat order */
    int after[MAX_SEATS];      /* the player after each one, among those who play */
    uint32_t playing;          /* mask of seats */
    uint8_t suit_of[MAX_CARDS];
    uint32_t suit_mask[MAX_CARDS];
    uint32_t above[MAX_CARDS];
    int trump;                 /* -1: none */
    int duty[MAX_SEATS];
    uint32_t side;             /* mask of seats */
    int max_side;              /* the side wants more tricks (most, slam) */
    int stop_win;              /* misere: the play ends at the side's first trick */
    int stop_loss;             /* slam: the play ends at the side's first lost trick */
    /* the search */
    uint32_t hands[MAX_SEATS];
    Table tt;
    int hint;                  /* the lead to try first at the boundary being searched */
    int cut;                   /* the lead that last proved a bound, or -1 */
    /* the trick in progress and the player to move */
    int root;
    int root_k;
    int root_led;
    int root_best;
    int root_by;
    uint32_t root_tmask;
    int tricks_left;
} Solver;

static inline int
beats(const Solver *s, int c, int best)
{
    return (s->above[best] >> c & 1u)
           || ((int)s->suit_of[c] == s->trump && (int)s->suit_of[best] != s->trump);
}

/* engine.tricks.legal_mask, to a trick led in game suit led whose best card is best. */
static inline uint32_t
legal_mask(const Solver *s, uint32_t hand, int led, int best, int duty)
{
    if (!(duty & FOLLOW_BIT)) {
        return hand;
    }
    uint32_t in_suit = hand & s->suit_mask[led];
    if (in_suit) {
        if ((duty & HEAD_BIT) && (int)s->suit_of[best] == led) {
            uint32_t higher = in_suit & s->above[best];
            if (higher) {
                return (duty & LOWEST_BIT) ? lowest(higher) : higher;
            }
        }
        return in_suit;
    }
    if (s->trump >= 0 && (duty & TRUMP_BIT)) {
        uint32_t trumps = hand & s->suit_mask[s->trump];
        if (trumps) {
            if (!(duty & HEAD_BIT)) {
                return trumps;
            }
            if ((int)s->suit_of[best] == s->trump) {
                uint32_t higher = trumps & s->above[best];
                if (higher) {
                    return (duty & LOWEST_BIT) ? lowest(higher) : higher;
                }
                return trumps;
            }
            return (duty & LOWEST_BIT) ? lowest(trumps) : trumps;
        }
    }
    return hand;
}

/* The cards still held by the players who play. */
static inline uint32_t
live_cards(const Solver *s)
{
    uint32_t live = 0;
    for (int i = 0; i < s->size; i++) {
        live |= s->hands[s->players[i]];
    }
    return live;
}

/* The table's key of a boundary: the hands of the players who play. */
static inline void
key_of(const Solver *s, uint32_t key[MAX_SEATS])
{
    for (int q = 0; q < MAX_SEATS; q++) {
        key[q] = (q < s->seats && (s->playing >> q & 1u)) ? s->hands[q] : 0u;
    }
}

/* --- the search ------------------------------------------------------------------------- */

static int boundary(Solver *s, int leader, int t);

/* Search._quick_bounds: bounds on the side's tricks from a trick boundary from the leader's
 * sure tricks (the top cards of a suit nobody can ruff before they are out), only where
 * everybody wants tricks (most, slam). */
static void
quick_bounds(const Solver *s, int leader, int left, int *lo, int *hi)
{
    if (!s->max_side) {
        *lo = 0;
        *hi = left;
        return;
    }
    int mine = (int)(s->side >> leader & 1u);
    uint32_t own = s->hands[leader];
    uint32_t theirs_all = 0;
    uint32_t ruff_hand[MAX_SEATS];
    int ruff_follows[MAX_SEATS];
    int ruffers = 0;
    for (int i = 0; i < s->size; i++) {
        int q = s->players[i];
        if (q == leader) {
            continue;
        }
        theirs_all |= s->hands[q];
        if (s->trump >= 0 && (s->hands[q] & s->suit_mask[s->trump])) {
            ruff_hand[ruffers] = s->hands[q];
            ruff_follows[ruffers] = s->duty[q] & FOLLOW_BIT;
            ruffers++;
        }
    }
    int total = 0;
    int best = 0;
    uint32_t rest = own;
    while (rest) {
        int su = s->suit_of[top_bit(rest)];
        uint32_t smask = s->suit_mask[su];
        uint32_t mine_s = own & smask;
        rest &= ~smask;
        uint32_t theirs = theirs_all & smask;
        uint32_t top = theirs ? mine_s & bits_above(top_bit(theirs)) : mine_s;
        int k = bit_count(top);
        if (k && su != s->trump) {
            for (int r = 0; r < ruffers; r++) {
                int can = ruff_follows[r] ? bit_count(ruff_hand[r] & smask) : 0;
                if (can < k) {
                    k = can;
                }
            }
        }
        total += k;
        if (k > best) {
            best = k;
        }
    }
    int quick = ruffers ? best : total;
    if (quick > left) {
        quick = left;
    }
    if (mine) {
        *lo = quick;
        *hi = left;
    } else if (s->stop_loss) {
        *lo = 0;
        *hi = quick ? 0 : left;
    } else {
        *lo = 0;
        *hi = left - quick;
    }
}

/* Search._last_trick: the side's tricks from the last trick, every card forced. */
static int
last_trick(const Solver *s, int leader)
{
    int best = top_bit(s->hands[leader]);
    int best_by = leader;
    int q = s->after[leader];
    for (int i = 1; i < s->size; i++) {
        int c = top_bit(s->hands[q]);
        if (beats(s, c, best)) {
            best = c;
            best_by = q;
        }
        q = s->after[q];
    }
    return (int)(s->side >> best_by & 1u);
}

/* Search.card: player p plays the k-th card (from 0) of the trick so far led in led, won by
 * best of best_by, holding cards tmask: whether the side then takes at least t tricks from
 * this trick on; only limits the cards tried. */
static int
card(Solver *s, int p, int k, int led, int best, int best_by, uint32_t tmask, int t,
     uint32_t only)
{
    uint32_t hand = s->hands[p];
    uint32_t legal = k == 0 ? hand : legal_mask(s, hand, led, best, s->duty[p]);
    legal &= only;
    int mine = (int)(s->side >> p & 1u);
    int maxnode = mine == s->max_side; /* p's party wants "at least t" to hold */
    uint32_t live = tmask | live_cards(s);
    int last = k + 1 == s->size;
    int hint = k == 0 ? s->hint : -1;
    int partner_wins = k > 0 && (int)(s->side >> best_by & 1u) == mine;

    /* one card of each run of touching legal cards, by descending (score, card) */
    int score[MAX_CARDS];
    int cand[MAX_CARDS];
    int n = 0;
    uint32_t m = legal;
    while (m) {
        int c = top_bit(m);
        m ^= 1u << c;
        int su = s->suit_of[c];
        uint32_t higher = live & s->suit_mask[su] & bits_above(c);
        if (lowest(higher) & legal) {
            continue;
        }
        int sc;
        if (k == 0) {
            sc = higher ? -c : 40 + c; /* sure winners first, then low cards */
            if (su == s->trump) {
                sc -= 8;
            }
            if (c == hint) {
                sc += 1000;
            }
        } else {
            int wins = beats(s, c, best);
            if (partner_wins) {
                sc = -c - (wins ? 32 : 0);
            } else if (wins) {
                sc = last ? 64 - c : 32 + c;
            } else {
                sc = -c;
            }
        }
        /* cards come highest first, so a card goes after those of an equal score */
        int j = n;
        while (j > 0 && score[j - 1] < sc) {
            score[j] = score[j - 1];
            cand[j] = cand[j - 1];
            j--;
        }
        score[j] = sc;
        cand[j] = c;
        n++;
    }

    int next = s->after[p];
    for (int i = 0; i < n; i++) {
        int c = cand[i];
        uint32_t bit = 1u << c;
        int nled, nbest, nby;
        if (k == 0) {
            nled = s->suit_of[c];
            nbest = c;
            nby = p;
        } else if (beats(s, c, best)) {
            nled = led;
            nbest = c;
            nby = p;
        } else {
            nled = led;
            nbest = best;
            nby = best_by;
        }
        s->hands[p] = hand ^ bit;
        int r;
        if (!last) {
            r = card(s, next, k + 1, nled, nbest, nby, tmask | bit, t, ALL_CARDS);
        } else if (s->side >> nby & 1u) {
            r = s->stop_win ? t <= 1 : boundary(s, nby, t - 1);
        } else {
            r = s->stop_loss ? 0 : boundary(s, nby, t);
        }
        s->hands[p] = hand;
        if (r == maxnode) {
            if (k == 0) {
                s->cut = c;
            }
            return r;
        }
    }
    if (k == 0) {
        s->cut = -1;
    }
    return !maxnode;
}

/* Search.boundary: whether the side takes at least t of the tricks still to come, leader to
 * lead to the next one. */
static int
boundary(Solver *s, int leader, int t)
{
    if (t <= 0) {
        return 1;
    }
    int left = bit_count(s->hands[leader]);
    if (t > (s->stop_win ? (left < 1 ? left : 1) : left)) {
        return 0;
    }
    uint32_t key[MAX_SEATS];
    key_of(s, key);
    int lo, hi, move = -1;
    const Entry *e = table_find(&s->tt, key, leader);
    if (e != NULL) {
        lo = e->lo;
        hi = e->hi;
        move = e->move;
        if (lo >= t) {
            return 1;
        }
        if (hi < t) {
            return 0;
        }
    } else {
        quick_bounds(s, leader, left, &lo, &hi);
        if (lo >= t || hi < t) {
            Entry *fresh = table_put(&s->tt, key, leader);
            fresh->lo = (int8_t)lo;
            fresh->hi = (int8_t)hi;
            return lo >= t;
        }
    }
    int result;
    int cut = -1;
    if (left == 1) {
        result = last_trick(s, leader) >= t;
    } else {
        s->hint = move;
        result = card(s, leader, 0, -1, -1, -1, 0u, t, ALL_CARDS);
        cut = s->cut;
    }
    if (result) {
        lo = t;
    } else {
        hi = t - 1;
    }
    Entry *slot = table_put(&s->tt, key, leader); /* the search may have moved e */
    slot->lo = (int8_t)lo;
    slot->hi = (int8_t)hi;
    if (cut >= 0) {
        slot->move = (int8_t)cut;
    }
    return result;
}

/* --- the answers ------------------------------------------------------------------------ */

/* Search.at_least: whether the side takes at least t tricks from the start of the trick in
 * progress, the player to move limited to the cards only. */
static int
at_least(Solver *s, int t, uint32_t only)
{
    if (t <= 0) {
        return 1;
    }
    if (s->root_k == 0 && only == ALL_CARDS) {
        return boundary(s, s->root, t);
    }
    s->hint = -1;
    return card(s, s->root, s->root_k, s->root_led, s->root_best, s->root_by, s->root_tmask, t,
                only);
}

/* The highest target the side reaches with the player to move limited to only. */
static int
value_of(Solver *s, uint32_t only)
{
    int lo = 0;
    int hi = s->tricks_left;
    if (s->stop_win && hi > 1) {
        hi = 1;
    }
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (at_least(s, mid, only)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/* Search._runs: the legal cards of the player to move in runs of touching cards, the highest
 * run first; returns how many. */
static int
runs_of(const Solver *s, uint32_t runs[MAX_CARDS])
{
    int p = s->root;
    uint32_t hand = s->hands[p];
    uint32_t legal = s->root_k == 0
                         ? hand
                         : legal_mask(s, hand, s->root_led, s->root_best, s->duty[p]);
    uint32_t live = s->root_tmask | live_cards(s);
    int n = 0;
    uint32_t m = legal;
    while (m) {
        int c = top_bit(m);
        uint32_t run = 1u << c;
        for (;;) {
            uint32_t lower = live & s->suit_mask[s->suit_of[c]] & ((1u << c) - 1u);
            if (!lower) {
                break;
            }
            int below = top_bit(lower);
            if (!(legal >> below & 1u)) {
                break;
            }
            run |= 1u << below;
            c = below;
        }
        m &= ~run;
        runs[n++] = run;
    }
    return n;
}

/* Search.optimal: the cards of the player to move that keep the value v. */
static uint32_t
optimal(Solver *s, int v)
{
    int maxnode = (int)(s->side >> s->root & 1u) == s->max_side;
    uint32_t runs[MAX_CARDS];
    int n = runs_of(s, runs);
    uint32_t out = 0;
    for (int i = 0; i < n; i++) {
        uint32_t top = 1u << top_bit(runs[i]);
        if (maxnode ? at_least(s, v, top) : !at_least(s, v + 1, top)) {
            out |= runs[i];
        }
    }
    return out;
}

/* --- arguments -------------------------------------------------------------------------- */

static int
as_int(PyObject *obj, long long lo, long long hi, const char *what, long long *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* The ints of a tuple or list of 1..most ints, each in [lo, hi]; returns how many, -1 on an
 * error. */
static Py_ssize_t
as_ints(PyObject *obj, Py_ssize_t most, long long lo, long long hi, const char *what,
        long long *out)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > most) {
        PyErr_Format(PyExc_ValueError, "%s must hold 1 to %zd values", what, most);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, what, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return n;
}

static int
invalid(const char *message)
{
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* The trick in progress: (player, card) pairs; returns how many, -1 on an error. */
static Py_ssize_t
as_trick(PyObject *obj, int players[MAX_SEATS], int cards[MAX_SEATS])
{
    PyObject *seq = PySequence_Fast(obj, "trick must be a sequence of (player, card)");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n >= MAX_SEATS) {
        Py_DECREF(seq);
        invalid("trick holds too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long pair[2];
        if (as_ints(PySequence_Fast_GET_ITEM(seq, i), 2, 0, MAX_CARDS - 1, "trick card", pair)
            != 2) {
            if (!PyErr_Occurred()) {
                invalid("a trick card is a (player, card) pair");
            }
            Py_DECREF(seq);
            return -1;
        }
        players[i] = (int)pair[0];
        cards[i] = (int)pair[1];
    }
    Py_DECREF(seq);
    return n;
}

/* Fill s from the Python arguments (Solver.tt not yet made); -1 with an exception set. */
static int
parse(PyObject *args, Solver *s)
{
    PyObject *o_hands, *o_trick, *o_to_act, *o_playing, *o_suit_of, *o_suit_mask, *o_above,
        *o_trump, *o_duty, *o_side, *o_goal;
    if (!PyArg_UnpackTuple(args, "solve", 11, 11, &o_hands, &o_trick, &o_to_act, &o_playing,
                           &o_suit_of, &o_suit_mask, &o_above, &o_trump, &o_duty, &o_side,
                           &o_goal)) {
        return -1;
    }
    long long v[MAX_CARDS];
    long long x;
    memset(s, 0, sizeof *s);

    Py_ssize_t seats = as_ints(o_hands, MAX_SEATS, 0, 0xFFFFFFFFLL, "hands", v);
    if (seats < 0) {
        return -1;
    }
    s->seats = (int)seats;
    for (int q = 0; q < s->seats; q++) {
        s->hands[q] = (uint32_t)v[q];
    }

    Py_ssize_t ncards = as_ints(o_suit_of, MAX_CARDS, 0, MAX_CARDS - 1, "suit_of", v);
    if (ncards < 0) {
        return -1;
    }
    for (int c = 0; c < ncards; c++) {
        s->suit_of[c] = (uint8_t)v[c];
    }
    Py_ssize_t nsuits = as_ints(o_suit_mask, MAX_CARDS, 0, 0xFFFFFFFFLL, "suit_mask", v);
    if (nsuits < 0) {
        return -1;
    }
    s->nsuits = (int)nsuits;
    for (int su = 0; su < s->nsuits; su++) {
        s->suit_mask[su] = (uint32_t)v[su];
    }
    if (as_ints(o_above, MAX_CARDS, 0, 0xFFFFFFFFLL, "above", v) != ncards) {
        return PyErr_Occurred() ? -1 : invalid("above must hold a mask per card");
    }
    for (int c = 0; c < ncards; c++) {
        s->above[c] = (uint32_t)v[c];
    }
    uint32_t deck = ncards == 32 ? ALL_CARDS : (1u << ncards) - 1u;
    /* the order: game suits partition the deck, a suit's cards rank by their index */
    for (int c = 0; c < ncards; c++) {
        int su = s->suit_of[c];
        if (su >= s->nsuits || !(s->suit_mask[su] >> c & 1u)) {
            return invalid("suit_of and suit_mask disagree");
        }
        if (s->above[c] != (s->suit_mask[su] & bits_above(c))) {
            return invalid("above must hold the higher cards of the card's game suit");
        }
    }
    uint32_t suits_union = 0;
    for (int su = 0; su < s->nsuits; su++) {
        if ((s->suit_mask[su] & ~deck) || (s->suit_mask[su] & suits_union)) {
            return invalid("suit_mask must split the deck into game suits");
        }
        suits_union |= s->suit_mask[su];
    }
    if (as_int(o_trump, -1, s->nsuits - 1, "trump", &x) < 0) {
        return -1;
    }
    s->trump = (int)x;

    if (as_ints(o_duty, MAX_SEATS, 0, 15, "duty", v) != s->seats) {
        return PyErr_Occurred() ? -1 : invalid("duty must hold one value per seat");
    }
    for (int q = 0; q < s->seats; q++) {
        s->duty[q] = (int)v[q];
    }
    uint32_t every_seat = (1u << s->seats) - 1u;
    if (as_int(o_playing, 1, every_seat, "playing", &x) < 0) {
        return -1;
    }
    s->playing = (uint32_t)x;
    if (as_int(o_side, 0, every_seat, "side", &x) < 0) {
        return -1;
    }
    s->side = (uint32_t)x;
    if (as_int(o_goal, GOAL_MOST, GOAL_SLAM, "goal", &x) < 0) {
        return -1;
    }
    s->max_side = x == GOAL_MOST || x == GOAL_SLAM;
    s->stop_win = x == GOAL_MISERE;
    s->stop_loss = x == GOAL_SLAM;
    if (as_int(o_to_act, 0, s->seats - 1, "to_act", &x) < 0) {
        return -1;
    }
    s->root = (int)x;

    /* who plays, and who follows whom */
    for (int q = 0; q < s->seats; q++) {
        if (s->playing >> q & 1u) {
            s->players[s->size++] = q;
        }
    }
    for (int q = 0; q < s->seats; q++) {
        int r = (q + 1) % s->seats;
        while (!(s->playing >> r & 1u)) {
            r = (r + 1) % s->seats;
        }
        s->after[q] = r;
    }
    if (!(s->playing >> s->root & 1u)) {
        return invalid("to_act must be a player who plays");
    }

    /* the cards: hands apart, inside the deck */
    uint32_t seen = 0;
    for (int q = 0; q < s->seats; q++) {
        if ((s->hands[q] & ~deck) || (s->hands[q] & seen)) {
            return invalid("hands must hold distinct cards of the deck");
        }
        seen |= s->hands[q];
    }

    /* the trick: cards of players who play, in turn, ending before the player to move */
    int tp[MAX_SEATS], tc[MAX_SEATS];
    Py_ssize_t k = as_trick(o_trick, tp, tc);
    if (k < 0) {
        return -1;
    }
    if (k >= s->size) {
        return invalid("trick holds too many cards");
    }
    s->root_k = (int)k;
    s->root_led = s->root_best = s->root_by = -1;
    int before = s->root;
    for (int i = (int)k - 1; i >= 0; i--) { /* the players before to_act, backwards */
        int q = before;
        for (int j = 0; j < s->seats; j++) {
            if (s->after[j] == before && j != before && (s->playing >> j & 1u)) {
                q = j;
            }
        }
        if (tp[i] != q || tp[i] == s->root) {
            return invalid("the trick's cards must come from the players before to_act");
        }
        before = q;
    }
    uint32_t played = 0;
    for (int i = 0; i < (int)k; i++) {
        int c = tc[i];
        if (c >= ncards || ((seen | played) >> c & 1u)) {
            return invalid("the trick's cards must be distinct cards of the deck, in no hand");
        }
        played |= 1u << c;
        if (i == 0) {
            s->root_led = s->suit_of[c];
            s->root_best = c;
            s->root_by = tp[i];
        } else if (beats(s, c, s->root_best)) {
            s->root_best = c;
            s->root_by = tp[i];
        }
    }
    s->root_tmask = played;

    /* every player who plays holds as many cards, less one for each card in the trick */
    int held = bit_count(s->hands[s->root]);
    for (int i = 0; i < s->size; i++) {
        int q = s->players[i];
        int in_trick = 0;
        for (int j = 0; j < (int)k; j++) {
            in_trick |= tp[j] == q;
        }
        if (bit_count(s->hands[q]) + in_trick != held) {
            return invalid("the players' hands must hold as many cards, the trick included");
        }
    }
    if (held == 0 && k > 0) {
        return invalid("the player to move holds no card");
    }
    s->tricks_left = held;
    return 0;
}

/* Parse and make the table; -1 with an exception set. */
static int
prepare(PyObject *args, Solver *s)
{
    if (parse(args, s) < 0) {
        return -1;
    }
    if (table_init(&s->tt, TABLE_FIRST) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->hint = s->cut = -1;
    return 0;
}

/* --- the module ------------------------------------------------------------------------- */

PyDoc_STRVAR(solve_doc,
             "solve(hands, trick, to_act, playing, suit_of, suit_mask, above, trump, duty, side, "
             "goal)\n--\n\n"
             "(value, optimal): the side's tricks from the start of the trick in progress under "
             "best play, and the mask of the cards of the player to move that achieve them "
             "(engine.solver.search.Search.value and .optimal).");

static PyObject *
dd_solve(PyObject *Py_UNUSED(module), PyObject *args)
{
    Solver s;
    if (prepare(args, &s) < 0) {
        return NULL;
    }
    int v = 0;
    uint32_t best = 0;
    if (s.tricks_left > 0) {
        Py_BEGIN_ALLOW_THREADS
        v = value_of(&s, ALL_CARDS);
        best = optimal(&s, v);
        Py_END_ALLOW_THREADS
    }
    table_free(&s.tt);
    return Py_BuildValue("(ik)", v, (unsigned long)best);
}

PyDoc_STRVAR(card_values_doc,
             "card_values(hands, trick, to_act, playing, suit_of, suit_mask, above, trump, duty, "
             "side, goal)\n--\n\n"
             "((card, value), ...): each legal card of the player to move, lowest first, with the "
             "side's tricks from the start of the trick in progress if he plays it and everybody "
             "plays best from there (engine.solver.search.Search.card_values).");

static PyObject *
dd_card_values(PyObject *Py_UNUSED(module), PyObject *args)
{
    Solver s;
    if (prepare(args, &s) < 0) {
        return NULL;
    }
    int value[MAX_CARDS];
    uint32_t legal = 0;
    if (s.tricks_left > 0) {
        uint32_t runs[MAX_CARDS];
        Py_BEGIN_ALLOW_THREADS
        int n = runs_of(&s, runs);
        for (int i = 0; i < n; i++) {
            int v = value_of(&s, 1u << top_bit(runs[i]));
            for (uint32_t m = runs[i]; m; m &= m - 1u) {
                value[top_bit(lowest(m))] = v;
            }
            legal |= runs[i];
        }
        Py_END_ALLOW_THREADS
    }
    table_free(&s.tt);
    PyObject *out = PyTuple_New(bit_count(legal));
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    for (uint32_t m = legal; m; m &= m - 1u) {
        int c = top_bit(lowest(m));
        PyObject *pair = Py_BuildValue("(ii)", c, value[c]);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i++, pair);
    }
    return out;
}

static PyMethodDef dd_methods[] = {
    {"solve", dd_solve, METH_VARARGS, solve_doc},
    {"card_values", dd_card_values, METH_VARARGS, card_values_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
             "The double-dummy search of engine.solver.search, compiled (engine.solver.native "
             "is its only caller).");

static struct PyModuleDef dd_module = {
    PyModuleDef_HEAD_INIT,
    "engine.solver._dd",
    module_doc,
    0,
    dd_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__dd(void)
{
    return PyModule_Create(&dd_module);
}
