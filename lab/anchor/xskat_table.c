/*
 * skat-table: a text table for XSkat 4.0's game logic (the anchor of `skat-table duel`).
 *
 * XSkat (Gunter Gerhardt, 2004) keeps its rules and its computer players in skat.c, null.c,
 * ramsch.c and text.c, and everything a person sees or clicks in xio.c, xdial.c and irc.c.
 * This file is written for skat-table; it contains no XSkat code. It stands in for the second
 * group: it is linked with the user's unmodified skat.c, null.c, ramsch.c and text.c (built
 * from their source directory, see lab/anchor/xskat.py) and turns the program into a
 * line protocol on stdin/stdout, so that our engine can referee games against XSkat's players.
 *
 * Seats 0..numsp-1 are XSkat's "human" seats: the decisions of skat-table's players reach
 * XSkat through them, the way a click in XSkat's own window would. The other seats are XSkat's
 * computer players. Drawing becomes nothing; the bookkeeping the window code does when a card
 * is laid is done here again.
 *
 * Command line:  xskat-table NUMSP DEALER SEED
 *   NUMSP   0..2 seats fed from stdin (0: XSkat plays all three)
 *   DEALER  XSkat seat of the dealer (forehand is the seat after it)
 *   SEED    seeds XSkat's random generator (its play is randomised a little)
 * stdin, first: the deal as an XSkat game file (32 numbers: who gets card 0..31;
 *   0 skat, 1 middlehand, 2 rearhand, 3 forehand), then one command per line:
 *   bid V | hold | pass          the bidding of a stdin seat
 *   hand | skat                  a stdin declarer plays hand or takes the skat
 *   discard C1 C2                a stdin declarer lays these two cards away
 *   declare T H O S Z            trump (-1 null, 0 diamonds .. 3 clubs, 4 grand), hand,
 *                                ouvert, schneider, schwarz announced (0/1 each)
 *   play C                       a stdin seat lays card C
 *   rest                         (when a stdin seat is to lay a card) our engine has ended
 *                                the game early (schwarz announced, a defenders' trick): XSkat
 *                                plays the rest itself, its own way of cutting a game short
 *                                (finishgame), so that it reaches its result
 * stdout, one line per event, flushed:
 *   limit S V                    the bid limit XSkat's player S computed for its hand
 *   bid S V | hold S | pass S    what seat S said in the bidding (every seat)
 *   declare S T H O S Z D1 D2    the declarer's game; D1 D2 the cards in the skat after
 *                                his discard (the dealt skat in a hand game)
 *   play S C                     seat S laid card C (every seat)
 *   ask WHAT S                   XSkat waits for stdin seat S (WHAT: bid hold hand discard
 *                                declare play)
 *   result W V P T B             won (0/1), value (a lost game's already doubled), declarer's
 *                                card points, tricks played, the bid
 *   passed                       all passed
 *   error TEXT                   something the protocol does not allow; then exit status 3
 * Cards are XSkat's numbers: suit*8 + rank, suit 0 diamonds .. 3 clubs, rank 0 ace, 1 ten,
 * 2 king, 3 queen, 4 jack, 5 nine, 6 eight, 7 seven.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "defs.h"
#include "skat.h"
#include "text.h"

#define LINE_MAX_LEN 200

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#include <stdarg.h>

static void say(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

static void fail(const char *what)
{
  say("error %s", what);
  exit(3);
}

/* ------------------------------------------------------------ start-up */

void xinit(int argc, char **argv)
{
  int s;
  long v;

  if (argc != 4) {
    fprintf(stderr, "usage: xskat-table NUMSP DEALER SEED < deal-and-commands\n");
    exit(2);
  }
  numsp = atoi(argv[1]);
  s = atoi(argv[2]);
  v = atol(argv[3]);
  if (numsp < 0 || numsp > 2 || s < 0 || s > 2) {
    fprintf(stderr, "xskat-table: NUMSP is 0..2 and DEALER 0..2\n");
    exit(2);
  }
  /* do_geben() moves the deal on one seat before it deals */
  geber = (s + 2) % 3;
  /* the deal comes from stdin in XSkat's own game-file format */
  game_file = "-";
  setrnd(&seed[0], v ? v : 1);
  savseed = v;
  /* plain ISkO: no Ramsch, Kontra, Bock, Spitze, Revolution, Klopfen, Schenken; new rules */
  playramsch = playsramsch = playkontra = playbock = 0;
  spitzezaehlt = revolution = klopfen = schenken = oldrules = 0;
  resumebock = 0;
  for (s = 0; s < 3; s++) {
    strateg[s] = 0;        /* the strongest setting */
    nimmstich[s][0] = 0;   /* nobody has to click a trick away */
    abkuerz[s] = 0;        /* no shortcut: every card is played */
    hints[s] = 0;
    lang[s] = 0;
  }
  numgames = 0;
  logging = 0;
  dlhintseen = 1;
  firstgame = 0;
  list_file = opt_file = prot_file = cards_file = 0;
}

void exitus(int n)
{
  exit(n);
}

/* ------------------------------------------------------------ what the window showed */

void tell_limits(void);

void b_text(int s, tx_typ *tt)
{
  const char *t = tt->t[0];

  tell_limits();

  if (tt == &textarr[TX_PASSE]) say("pass %d", s);
  else if (tt == &textarr[TX_JA]) say("hold %d", s);
  else if (t[0] >= '0' && t[0] <= '9') say("bid %d %d", s, atoi(t));
  /* a blank clears the box after a "yes": nothing happened */
}

static int announced_once;

static void announce(void)
{
  if (announced_once) return;
  announced_once = 1;
  /* prot2.skat[1] holds what lies in the skat for the game: the discards, or the dealt
     skat in a hand game */
  say("declare %d %d %d %d %d %d %d %d", spieler, trumpf, handsp, ouveang, schnang, schwang,
      prot2.skat[1][0], prot2.skat[1][1]);
}

void di_ansage(void)
{
  announce();
  do_angesagt();
}

void drop_card(int i, int s)
{
  /* the window's bookkeeping of a laid card, which the game logic relies on */
  int c = cards[i];

  if (c < 0) fail("a card slot without a card was played");
  say("play %d %d", s, c);
  stcd[vmh] = c;
  gespcd[c] = 2;
  if ((c & 7) != BUBE) gespfb[c >> 3]++;
  cards[i] = -1;
}

void di_dicht(void)
{
  /* never shorten the game: play every card, as our engine does */
  ndichtw = 1;
  phase = SPIELEN;
}

void di_result(int be)
{
  (void)be;
  say("result %d %d %d %d %d", spgew, spwert, stsum, stich - 1,
      reizp >= 0 ? reizw[reizp] : 0);
  exit(0);
}

void di_weiter(int ini)
{
  (void)ini;
  say("passed");
  exit(0);
}

void di_wiederweiter(int sn) { di_weiter(sn); }

/* the house rules are off: reaching these is a fault */
void di_grandhand(int sn) { (void)sn; fail("XSkat offered grand hand (Ramsch rules)"); }
void di_schieben(void) { fail("XSkat offered Schieberamsch"); }
int di_verdoppelt(int f, int kl) { (void)f; (void)kl; fail("XSkat offered a doubling"); return 0; }
void revolutionscr(void) { fail("XSkat started a Revolution"); }

/* pure drawing and dialogs that wait for a stdin command (see hndl_events) */
void calc_desk(int sn) { (void)sn; }
void clear_info(void) {}
void clr_desk(int f) { (void)f; }
void di_copyr(int f) { (void)f; }
void di_delliste(void) {}
void di_hand(void) {}
void di_info(int sn, int f) { (void)sn; (void)f; }
void di_options(int sn) { (void)sn; }
void di_proto(int sn, int ini, int log) { (void)sn; (void)ini; (void)log; }
void di_spiel(void) {}
void draw_skat(int sn) { (void)sn; }
void givecard(int s, int n) { (void)s; (void)n; }
void home_skat(void) {}
void info_reiz(void) {}
void info_spiel(void) {}
void info_stich(int p, int c) { (void)p; (void)c; }
void initscr(int sn, int sor) { (void)sn; (void)sor; }
void inv_box(int s, int a, int b) { (void)s; (void)a; (void)b; }
void nimm_stich(void) {}
void put_box(int s) { (void)s; }
void put_fbox(int s, int t) { (void)s; (void)t; }
void putmark(int s) { (void)s; }
void rem_box(int s) { (void)s; }
void remmark(int f) { (void)f; }
void setcurs(int f) { (void)f; }
void show_hint(int sn, int a, int b) { (void)sn; (void)a; (void)b; }
void stdwait(void) {}
void waitt(int t, int f) { (void)t; (void)f; }

/* ------------------------------------------------------------ decisions from stdin */

static char line[LINE_MAX_LEN];

static char *next_command(const char *what, int s)
{
  size_t n;

  say("ask %s %d", what, s);
  for (;;) {
    if (!fgets(line, sizeof line, stdin)) exit(0); /* the referee is gone: nothing to do */
    n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
    if (n) return line;
  }
}

static int bid_index(int v)
{
  int i;

  for (i = 0; reizw[i] != 999; i++) {
    if (reizw[i] == v) return i;
  }
  return -1;
}

static int slot_of(int c, int s)
{
  int i;

  for (i = 0; i < 10; i++) {
    if (cards[10 * s + i] == c) return 10 * s + i;
  }
  if (cards[30] == c) return 30;
  if (cards[31] == c) return 31;
  return -1;
}

static void bidding_step(int s, int sager_to_act)
{
  char *cmd = next_command(sager_to_act ? "bid" : "hold", s);
  int v, i;

  if (!strcmp(cmd, "pass")) {
    maxrw[s] = 0;
  }
  else if (!sager_to_act && !strcmp(cmd, "hold")) {
    maxrw[s] = 998;
  }
  else if (sager_to_act && sscanf(cmd, "bid %d", &v) == 1) {
    i = bid_index(v);
    if (i < 0 || i < reizp) fail("a bid that is not a value above the last one");
    reizp = i;
    maxrw[s] = 998;
  }
  else fail("expected bid V, hold or pass");
  do_entsch();
}

static void take_or_hand(int s)
{
  char *cmd = next_command("hand", s);

  if (!strcmp(cmd, "hand")) handsp = 1;
  else if (strcmp(cmd, "skat")) fail("expected hand or skat");
  do_handok();
}

static void lay_away(int s)
{
  char *cmd = next_command("discard", s);
  int c[2], k, j;

  if (sscanf(cmd, "discard %d %d", &c[0], &c[1]) != 2 || c[0] == c[1])
    fail("expected discard C1 C2");
  for (k = 0; k < 2; k++) {
    j = slot_of(c[k], s);
    if (j < 0) fail("a discard that is not among the declarer's twelve cards");
    swap(&cards[j], &cards[30 + k]);
  }
  /* what pressing "done" does: the two cards leave the hand and count for the declarer */
  home_skat();
  save_skat(1);
  for (k = 0; k < 2; k++) {
    stsum += cardw[cards[30 + k] & 7];
    gespcd[cards[30 + k]] = 1;
    cards[30 + k] = -1;
  }
  gedr = 2;
  do_ansagen();
}

static void choose_game(int s)
{
  char *cmd = next_command("declare", s);
  int t, h, o, sn, sw;

  if (sscanf(cmd, "declare %d %d %d %d %d", &t, &h, &o, &sn, &sw) != 5 || t < -1 || t > 4)
    fail("expected declare T H O S Z");
  if (h != handsp) fail("the hand flag differs from the hand/skat decision");
  trumpf = t;
  spitzeang = 0;
  ouveang = !!o;
  schwang = t >= 0 && (sw || o);
  schnang = t >= 0 && (sn || sw || o);
  di_ansage();
}

static void lay_card(int s)
{
  char *cmd = next_command("play", s);
  int c, j, i, legal = 0;

  if (!strcmp(cmd, "rest")) {
    finishgame();
    return;
  }
  if (sscanf(cmd, "play %d", &c) != 1) fail("expected play C or rest");
  j = slot_of(c, s);
  if (j < 0 || j >= 30) fail("a card that is not in the player's hand");
  calc_poss(s);  /* also notes a suit the seat shows void in, as a click does */
  for (i = 0; i < possc; i++) {
    if (possi[i] == j) legal = 1;
  }
  if (!legal) fail("a card XSkat does not allow here");
  drop_card(j, s);
  do_next();
}

void do_msaho(int sn, char *str)
{
  (void)sn;
  (void)str;
  tell_limits();
}

void hndl_events(void)
{
  int s;

  tell_limits();
  switch (phase) {
  case REIZEN:
    if (saho && !iscomp(sager)) bidding_step(sager, 1);
    else if (!saho && !iscomp(hoerer)) bidding_step(hoerer, 0);
    else fail("bidding stalled");
    return;
  case HANDSPIEL:
    take_or_hand(spieler);
    return;
  case DRUECKEN:
    lay_away(spieler);
    return;
  case ANSAGEN:
    if (iscomp(spieler)) fail("declaration stalled");
    choose_game(spieler);
    return;
  case SPIELEN:
    s = (ausspl + vmh) % 3;
    if (iscomp(s)) fail("card play stalled");
    lay_card(s);
    return;
  default:
    fail("XSkat stopped in an unexpected phase");
  }
}

/* ------------------------------------------------------------ the bid limits */

/* XSkat works out its computer players' limits (maxrw) when it deals; report them once,
   when the bidding first needs a word from anyone. */
static int limits_told;

void tell_limits(void)
{
  int s;

  if (limits_told) return;
  limits_told = 1;
  for (s = numsp; s < 3; s++) say("limit %d %d", s, maxrw[s]);
}
