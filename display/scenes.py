"""The scenes: from a :class:`~display.view.View` to the list of boxes that make the screen.

Every scene shares the top bar (what is happening, the deal number, sheet/undo/language/card
buttons) and, where players act, the row of seat panels at the bottom (name, role, dealer,
whose turn, and the hand when it is shown). Texts come from gettext through ``_``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

from . import commands as cmd
from .analysis import analysis_scene, result_line
from .confirmscene import CONFIRM_H, confirm_block
from .hints import hint_banner, hint_button
from .i18n import LANGUAGE_NAMES, Translator
from .layout import (
    ALERT,
    ALERT_INK,
    BUTTON,
    BUTTON_INK,
    FELT_DARK,
    GOLD,
    GOLD_DARK,
    INK,
    LOST,
    MUTED,
    PANEL,
    WON,
    Frame,
)
from .reasons import reasons_text
from .statsscene import scene_statistics, stats_button, stats_button_width
from .view import (
    CARD_STYLES,
    LANGUAGES,
    LEVELS,
    SPEEDS,
    SUIT_ORDERS,
    Call,
    Fault,
    PlayView,
    SheetRow,
    TrickView,
    View,
)
from .wording import (
    breakdown_text,
    factor_words,
    fault_sentence,
    follow_hint,
    money,
    press_word,
    refusal_detail,
    result_notes,
    short_name,
    standing_sentence,
)

CARD_RATIO = 1.5  # height / width of a card
OUT_PANEL = (14, 50, 36)  # a seat out of the deal or the bidding
TOP = 60.0        # height of the top bar
# A hand fans in one row, or in two when one row would make the strips narrower than STRIP
# of a card (the corner index is about 40 % of it): room for twelve cards in rows of six.
STRIP = 0.62
HAND_ROW = 6
HAND_ROW1 = 50.0   # the part of the first row's cards that shows: the index, a tap target
HAND_CARD_MAX = 58.0
HAND_HEAD = 56.0   # a seat panel's name and role lines above its hand
OUT_W = 100.0      # the panel of the seat out of the deal at four, where hands are shown
TABLE_CARD_MIN = 56.0  # a trick's card lower than this is laid in a row (no room for the
# names beside the places: two lines, the name and "declarer")
CHOSEN_LIFT = 6.0  # how far a hand card chosen by a first tap rises (Kiosk.tap_twice): to
# the baseline of the seat line above it, whose letters stay whole
BUTTON_H = 50.0   # the smallest tap target: 48 px (9 mm) and more on the 7-inch screen
GAP = 8.0
JUMPS = 4         # jump bids offered beside "bid": the next legal values above it
# The scenes of a deal under way: the top bar marks a Bock deal on each.
BOCK_SCENES = ("deal", "bidding", "declaration", "pushing", "play")


def bid_values() -> tuple[int, ...]:
    """Every legal Skat bid from 18 to 264."""
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    values |= {24 * m for m in range(1, 12)} | {23, 35, 46, 59}
    return tuple(sorted(v for v in values if 18 <= v <= 264))


BID_VALUES = bid_values()


@dataclass(frozen=True)
class UiState:
    """What the kiosk itself remembers between views (never the controller's business)."""

    draft: frozenset[str] = frozenset()   # declaration modifiers toggled: "S", "Z", "O"
    show_sheet: bool = False
    show_last_trick: bool = False
    picker: bool = False                  # the language picker is open
    clock: str = ""                       # "14:05" on the idle screen
    focus: int | None = None              # index among the actionable elements
    confirm: str = ""                     # an open question: "concede", "claim", "notice",
                                          # "new-series", "quit"
    hide_refusal: bool = False            # the refusal banner was tapped away
    show_analysis: bool = False           # the trick-by-trick open-card analysis is open
    series_end: bool = False              # the series' summary after its last result
    show_stats: bool = False              # the statistics (display.statsscene) are open
    stats_page: str = "players"           # ... on the page of the players, or "series"
    # The simulator's guard against misplays (Kiosk.tap_twice): the hand card a first tap
    # chose, (seat, card); a second tap on it lays it.
    chosen: tuple[int, Card] | None = None
    settings: bool = False                # the settings screen is open (the gear button)


def compose_contract(game: str, skat_taken: bool, draft: frozenset[str]) -> str:
    """ISS text of a declaration: ``compose_contract("C", False, {"S"}) == "CHS"``."""
    if "O" in draft:
        if game == "N":
            return "NO" if skat_taken else "NOH"
        return f"{game}O"
    if game == "N" and draft & {"S", "Z"}:
        return ""  # no schneider or schwarz in null: the button is off
    text = game + ("" if skat_taken else "H")
    if game != "N":
        if "Z" in draft:
            text += "Z"  # the engine's notation: schwarz announced implies schneider
        elif "S" in draft:
            text += "S"
    return text


class SceneBuilder:
    def __init__(self, frame: Frame, view: View, tr: Translator, ui: UiState) -> None:
        self.f = frame
        self.v = view
        self._ = tr
        self.tr = tr
        self.ui = ui

    # ------------------------------------------------------------------ helpers
    def name(self, seat: int | None, limit: int | None = None) -> str:
        """A player's name as the screens show it: at most ``NAME_CHARS`` characters (a long
        name is cut with an ellipsis rather than squeezing every sentence it appears in);
        ``limit`` cuts shorter, for narrow boxes."""
        if seat is None or seat < 0 or seat >= len(self.v.players):
            return ""
        name = short_name(self.v.players[seat])
        if limit is not None and len(name) > limit:
            name = name[:limit - 1].rstrip() + "…"
        return name

    def seats_in_play(self) -> list[int]:
        """The seats that hold cards this deal, left to right in table order."""
        if self.v.positions is not None:
            return sorted(self.v.positions)
        return list(range(min(3, len(self.v.players))))

    def status(self, seat: int) -> str:
        _ = self._
        v = self.v
        if v.scene == "bidding" and v.bidding:
            b = v.bidding
            if seat in b.passed:
                return _("passed")
            said = [c for c in v.calls if c.seat == seat and c.what in ("bid", "yes")]
            if said and said[-1].what == "bid":
                return _("said {value}").format(value=said[-1].value)
            if seat == b.holder and b.value:
                return _("holds {value}").format(value=b.value)
        if (v.scene == "play" and v.play and seat == v.play.declarer
                and v.play.contract[:1] != "R"):
            return _("declarer")
        if v.scene == "deal" and v.deal:
            n = v.deal.dealt[seat] if seat < len(v.deal.dealt) else 0
            return self.tr.ngettext("{n} card", "{n} cards", n).format(n=n)
        if v.scene == "pushing" and v.pushing:
            for who, took in v.pushing.decided:
                if who == seat:
                    return _("pushed") if took else _("passed it on")
        return ""

    # ------------------------------------------------------------------ chrome
    def top_bar(self, title: str, subtitle: str | None = None, chrome: bool = True) -> float:
        """The top bar: the title, what is happening (``subtitle``, else the game's number),
        and the buttons; without ``chrome`` (a screen of the kiosk's own, the statistics)
        only the language and the gear."""
        f, _, v = self.f, self._, self.v
        f.panel(0, 0, f.W, TOP, fill=FELT_DARK, radius=0, role="topbar")
        right = f.W - 6
        w_lang, w_style = 64.0, 56.0
        right -= w_lang
        code = v.language.upper()
        f.button(right, 5, w_lang, TOP - 10, code, cmd.SetLanguage(v.language), role="language",
                 size=18)
        right -= w_style + 6
        if v.scene == "enrol":  # (no table to set up yet: the faces to see the cards by)
            nxt = CARD_STYLES[(CARD_STYLES.index(v.card_style) + 1) % len(CARD_STYLES)]
            f.button(right, 5, w_style, TOP - 10, "", cmd.SetCardStyle(nxt), role="card-style",
                     suit="H")
        else:
            # The gear opens the settings screen (and closes it again), where the card faces
            # are chosen by name among the rest (the heart that stood here cycled them).
            f.button(right, 5, w_style, TOP - 10, "⚙", OpenSettings(), role="settings-button",
                     size=26, selected=self.ui.settings)
        # Under the settings no Sheet, Undo or Hint: an Undo there would change the table
        # out of sight. Nor on a screen of the kiosk's own (the statistics).
        chrome = chrome and not self.ui.settings
        if chrome and v.sheet is not None and v.scene not in ("sheet", "enrol"):
            label = _("Back") if self.ui.show_sheet else _("Sheet")
            # As wide as the wider of its two words: it does not move when it turns to Back.
            w_sheet = max(self.label_width(_("Sheet"), 18, 96.0),
                          self.label_width(_("Back"), 18, 96.0))
            right -= w_sheet + 6
            f.button(right, 5, w_sheet, TOP - 10, label, cmd.ShowSheet(), role="sheet-button",
                     size=18)
        if chrome and v.scene not in ("idle", "fault", "sheet"):
            # Undo's place is kept while there is nothing to undo, so that neither it nor the
            # Hint button beside it moves within a deal.
            w_undo = self.label_width(_("Undo"), 18, 96.0)
            right -= w_undo + 6
            if v.can_undo:
                f.button(right, 5, w_undo, TOP - 10, _("Undo"),
                         cmd.Press(v.turn if v.turn is not None else 0, "undo"), role="undo",
                         size=18)
        left = (hint_button(self, right - 6, 5, TOP - 10)  # tables with hints on (hints.py)
                if chrome else right - 6)
        if left < right - 6:
            right = left
        on_sheet = chrome and v.stats is not None and (self.ui.show_sheet
                                                       or v.scene == "sheet")
        if on_sheet:
            # On the score sheet, left of everything that has its place in every scene: the
            # statistics over the finished series (display.statsscene). It takes the room of
            # the game's number, which the sheet's own foot says ("8 of 36 games").
            w_stats = stats_button_width(self)
            right -= w_stats + 6
            stats_button(self, right, 5, w_stats, TOP - 10)
        left_w = right - 18
        # A Bock deal is said before and during play, with how many are left (this one
        # included), in gold: it decides how high to bid and whether to say Kontra.
        bock = (_("Bock: {n} left").format(n=v.bock)
                if chrome and v.bock and v.scene in BOCK_SCENES else "")
        sub = subtitle or ""
        if (subtitle is None and v.game_number and v.sheet is not None and v.scene != "enrol"
                and not on_sheet):
            total = v.sheet.games_total
            sub = (_("Game {n} of {total}").format(n=v.game_number, total=total) if total
                   else _("Game {n}").format(n=v.game_number))
        club = chrome and v.club is not None and v.scene not in ("fault", "idle", "seating") and (
            v.club.state != "online" or v.club.waiting)
        if club:  # the club's line only when there is something to say (offline, sending)
            from .clubscene import club_line

            line = club_line(v.club, self.tr)
            sub = f"{sub} · {line}" if sub else line
        standing = v.faults if v.scene not in ("fault", "idle") else ()
        if standing:  # a reader down or the journal: said on every screen until it is fixed
            title_w = min(left_w * 0.45, max(left_w * 0.3, self.label_width(title, 19, 0)))
            if bock:  # the Bock mark at the right of the fault's pill
                w_bock = min((left_w - title_w) * 0.4, self.label_width(bock, 18, 0.0))
                f.text(12 + left_w - w_bock, 10, w_bock, TOP - 20, bock, size=18,
                       face="bold", colour=GOLD_DARK, fill=GOLD, role="bock")
                left_w -= w_bock + 6
                bock = ""
            sentence = standing_sentence(standing[0], self.tr, v.players)
            if len(standing) > 1:
                sentence += f" (+{len(standing) - 1})"
            if any(fault.notice is not None for fault in standing):
                # A loss report to read and confirm: the pill opens it (notice_dialog).
                f.button(12 + title_w + 6, 4, left_w - title_w - 6, TOP - 8, sentence,
                         ShowNotice(), role="standing-fault", size=18, fill=ALERT,
                         colour=ALERT_INK, wrap=True)
            else:
                f.text(12 + title_w + 6, 4, left_w - title_w - 6, TOP - 8, sentence, size=18,
                       face="bold", colour=ALERT_INK, fill=ALERT, role="standing-fault",
                       wrap=True)
            sub = ""
        else:
            title_w = left_w * (0.55 if sub or bock else 1.0)
        f.text(12, 4, title_w, TOP - 8, title, size=24, face="bold", align="left", role="title")
        sx, sw = 12 + title_w + 6, left_w - title_w - 6
        if bock:  # the subtitle on one line, the Bock mark under it
            if sub:
                f.text(sx, 5, sw, 25, sub, size=18, colour=MUTED, align="left",
                       role="subtitle", ellipsize=True)
            f.text(sx, 31 if sub else 10, min(sw, self.label_width(bock, 18, 0.0)),
                   24 if sub else TOP - 20, bock, size=18, face="bold", colour=GOLD_DARK,
                   fill=GOLD, role="bock")
        elif sub:
            f.text(sx, 4 if club else 8, sw, TOP - (8 if club else 16), sub, size=18,
                   colour=MUTED, align="left", role="subtitle", wrap=club)
        return TOP + GAP

    def label_width(self, label: str, size: float, least: float) -> float:
        """The width (units) of a button that shows ``label`` whole at ``size``."""
        px = self.f.fonts.size("bold", self.f.px(size), label)[0]
        return max(least, px / self.f.scale + 24)

    def seat_row(self, with_hands: bool, bottom: float | None = None) -> float:
        """Seat panels along the bottom; returns the y where they start.

        ``with_hands`` reserves room for a hand in every panel whether or not a hand is shown
        now: the panels, and so every control above them, keep one height through the deal
        (the last trick, when every hand is empty, is no reason for the buttons to jump)."""
        f, _, v = self.f, self._, self.v
        seats = list(range(len(v.players)))
        hands = v.hands if v.hands else (None,) * len(seats)
        margin = 8.0
        widths = self.seat_widths(with_hands)
        card_w = max(self.hand_card_w(w - 16) for w in widths)
        head = HAND_HEAD if with_hands else 62.0
        ph = head + (HAND_ROW1 + card_w * CARD_RATIO + 6 if with_hands else 0)
        y = (bottom if bottom is not None else f.H) - ph - margin
        turn = v.turn
        if v.scene == "deal" and v.deal is not None and v.deal.to is not None:
            turn = v.deal.to
        x = margin
        for seat in seats:
            pw = widths[seat]
            is_turn = seat == turn
            # Out of this deal (passed, or the dealer at four): a quieter panel.
            out = (v.scene == "bidding" and v.bidding is not None and seat in v.bidding.passed
                   ) or (v.positions is not None and seat not in v.positions)
            f.panel(x, y, pw, ph, fill=GOLD_DARK if is_turn else (OUT_PANEL if out else PANEL),
                    selected=is_turn, role=f"seat{seat}" + (" turn" if is_turn else ""))
            name = self.name(seat) + (" ★" if seat in v.computer else "")
            status = self.status(seat)
            word = (_("to act") if v.scene != "deal" else _("gets cards")) if is_turn else ""
            turn_w = min(pw * 0.5, self.label_width(word, 18, 70.0) - 8) if is_turn else 0.0
            top = 2.0 if with_hands else 4.0
            # The name whole before the pill: a name that does not fit beside it (at the
            # smallest size the fitting goes to) keeps the first line, and the pill goes to
            # the end of the second.
            needed = self.label_width(name, 18, 0) - 24 + 8
            pill_below = is_turn and needed > pw - 16 - turn_w - 6
            name_w = pw - 16 - (turn_w + 6 if is_turn and not pill_below else 0)
            f.text(x + 8, y + top, name_w, 28, name, size=21, face="bold", align="left",
                   role="seat-name", colour=GOLD if is_turn else (MUTED if out else INK),
                   ellipsize=True)
            if is_turn:
                f.text(x + pw - 8 - turn_w, y + top + (29 if pill_below else 1), turn_w,
                       24 if pill_below else 26, word, size=18, face="bold",
                       colour=GOLD_DARK, fill=GOLD, role="turn", ellipsize=True)
            role = v.role_of(seat)
            parts = [self.tr.role(role)] if role else []
            if status:  # what the seat said or did
                parts.append(status)
            # The dealer is said where nothing else says it: at three the dealer is always
            # rearhand (the word only cut the line short: "Rearhand · said 18 · dea…"), at
            # four the dealer sits out and has no role.
            if v.dealer == seat and role != "rearhand":
                parts.append(_("dealer"))
            f.text(x + 8, y + top + 28, pw - 16 - (turn_w + 6 if pill_below else 0), 24,
                   " · ".join(parts) or " ", size=18, colour=MUTED, align="left",
                   role="seat-role", ellipsize=True)
            hand = hands[seat] if seat < len(hands) else None
            if with_hands and hand:
                self.fan(x + 8, y + head, pw - 16, card_w, hand, seat)
            x += pw + margin
        return y

    def seat_widths(self, with_hands: bool) -> list[float]:
        """Panel widths in table order: equal, except that where hands are shown at four the
        seat out of the deal (it holds no cards) gets a narrow panel and the hands the room."""
        f, v = self.f, self.v
        n = len(v.players)
        margin = 8.0
        out = ([s for s in range(n) if s not in v.positions]
               if with_hands and v.positions is not None and n > 3 else [])
        rest = f.W - margin * (n + 1) - OUT_W * len(out)
        return [OUT_W if s in out else rest / (n - len(out)) for s in range(n)]

    @staticmethod
    def hand_card_w(w: float) -> float:
        """The width of a card in a hand fanned across ``w`` units: a full hand of twelve
        (after a pick-up) in two rows of six, each strip wide enough for its whole index."""
        return min(HAND_CARD_MAX, w / (1 + STRIP * (HAND_ROW - 1)))

    def fan(self, x: float, y: float, w: float, card_w: float, hand: tuple[Card, ...],
            seat: int) -> None:
        """A hand as an overlapping row, or two rows when one would make strips too narrow
        to read: the first row shows the top of its cards (the indices), the second lies over
        the rest. Each card's visible part is its tap target."""
        contract = self.v.play.contract if self.v.play is not None else None
        hand = tuple(self.sorted_hand(hand, contract))
        n = len(hand)
        card_h = card_w * CARD_RATIO
        fits = 1 + int((w - card_w) / (STRIP * card_w) + 1e-6)
        rows = [hand] if n <= fits else [hand[:(n + 1) // 2], hand[(n + 1) // 2:]]
        longest = len(rows[0])
        step = card_w if longest <= 1 else min(card_w + 4, (w - card_w) / (longest - 1))
        push = self.v.pushing
        # A tap on a card is a card laid, as on the table's reader: during the bidding and
        # before the skat is taken the table answers why no card is laid now (rather than a
        # tap that does nothing at all).
        clickable = (self.v.simulator and self.v.scene in ("play", "bidding", "declaration")
                     ) or (self.v.simulator and self.v.scene == "pushing" and push is not None
                           and push.taken and seat == push.to_act)
        # The two cards just taken up from the skat are marked, as players keep them apart
        # in the hand until they have decided what to lay away.
        decl = self.v.declaration
        picked = (set(decl.skat) if self.v.scene == "declaration" and decl is not None
                  and decl.skat_taken and seat == decl.declarer else set())
        if self.v.scene == "pushing" and push is not None and push.taken and seat == push.to_act:
            picked = set(push.skat)  # Schieberamsch: the skat taken up, as after a pick-up
        for r, row in enumerate(rows):
            covered = r == 0 and len(rows) > 1
            for i, card in enumerate(row):
                # (a hair less than the step: rounding to pixels must not let strips touch)
                visible = card_w if i == len(row) - 1 else min(card_w, step - 1e-6)
                el = self.f.card(x + i * step, y + r * HAND_ROW1, card_w, card_h, card,
                                 role=f"hand{seat}",
                                 command=cmd.LayCard(seat, card) if clickable else None,
                                 visible_w=visible, visible_h=HAND_ROW1 if covered else None)
                el.selected = card in picked
                if clickable and self.ui.chosen == (seat, card):
                    # The card a first tap chose (the guard against misplays): drawn lifted
                    # out of the hand, over the lines above it; its tap target stays where
                    # the finger found it, so that the second tap lays it.
                    el.raised = self.f.px(CHOSEN_LIFT)
                    el.draw_rect = (el.draw_rect or el.rect).move(0, -el.raised)

    def sorted_hand(self, hand: tuple[Card, ...], contract: str | None) -> list[Card]:
        """A hand in the order the settings ask for (trump first or not, the suit order)."""
        s = self.v.settings
        return sort_hand(hand, contract, s.trump_first, s.suit_order)

    def banner(self, y: float, prompt_y: float | None = None) -> None:
        """The refusal banner and the computer's prompt, floating above the scene."""
        v = self.v
        if v.refusal is not None and not self.ui.hide_refusal:
            self.fault_banner(v.refusal, y)
        elif v.prompt is not None:
            self.prompt_banner(y if prompt_y is None else prompt_y)

    def fault_banner(self, fault: Fault, y: float) -> None:
        """The red banner: the rule in words; the refused card crossed out on the left, the
        cards to follow with on the right."""
        f = self.f
        cards = fault.follow_with[:8]
        refused = fault.card if fault.kind in ("revoke", "out-of-turn", "wrong-pad",
                                               "not-in-hand") else None
        h = 118.0 if cards or refused is not None else 92.0
        x, w = 40.0, f.W - 80
        cw = 40.0
        f.panel(x, y, w, h, fill=ALERT, role="refusal", radius=12, layer=2)
        f.text(x + 14, y + 6, w - 28, 34, fault_sentence(fault, self.tr, self.v.players),
               size=24, face="bold", colour=ALERT_INK, role="refusal-text", layer=3)
        tx = x + 14
        if refused is not None:
            f.card(tx, y + 40, cw, cw * CARD_RATIO - 4, refused, role="refused-card", layer=3)
            tx += cw + 12
        # The rule above, in the table's language; "other" refusals say it there already.
        line2 = follow_hint(fault, self.tr) if cards else (
            "" if fault.kind == "other" else refusal_detail(fault, self.tr))
        right = x + w - 14 - (len(cards) * (cw + 6) if cards else 0)
        if line2:
            f.text(tx, y + 42, right - tx - 6, 24 if cards else 56, line2, size=18,
                   colour=ALERT_INK, align="left",
                   role="refusal-detail", layer=3, wrap=not cards)
        for i, card in enumerate(cards):
            f.card(x + w - 14 - (len(cards) - i) * (cw + 6), y + 40, cw, cw * CARD_RATIO - 4,
                   card, role="follow-with", layer=3)

    def prompt_banner(self, y: float) -> None:
        f, _, p = self.f, self._, self.v.prompt
        assert p is not None
        x, w, h = 60.0, f.W - 120, 84.0
        f.panel(x, y, w, h, fill=GOLD, role="prompt", radius=12, layer=2)
        who = _("Computer ({name})").format(name=self.name(p.seat))
        if p.card is not None:
            text = _("{who} plays {card}: please lay it").format(who=who,
                                                                  card=self.tr.card(p.card))
            f.card(x + w - 58, y + 6, 48, 72, p.card, role="prompt-card", layer=3)
            tw = w - 80
        else:
            if p.contract:
                what = self.tr.contract(p.contract)
            elif p.press == "bid" and p.value:
                what = str(p.value)
            else:
                what = press_word(p.press or "", self.tr)
            text = _("{who} says {what}: please press it").format(who=who, what=what)
            tw = w - 24
        f.text(x + 12, y + 8, tw, 68, text, size=24, face="bold", colour=GOLD_DARK,
               role="prompt-text", layer=3, wrap=True)

    # ------------------------------------------------------------------ scenes
    def build(self) -> None:
        v, _ = self.v, self._
        if self.ui.picker:
            self.top_bar(_("Language"))
            self.language_picker()
            return
        if self.ui.settings and v.scene not in ("enrol", "idle"):
            # Over every scene: the game goes on under it (a computer's card, a new deal)
            # and the screen stays until it is closed.
            self.top_bar(_("Settings"))
            self.settings_screen()
            return
        if self.ui.show_stats and v.stats is not None:
            scene_statistics(self)
            return
        if self.ui.show_sheet and v.sheet is not None and v.scene not in ("enrol",):
            self.sheet(title_key="sheet-overlay")
            return
        if (self.ui.show_analysis and v.scene == "result" and v.analysis is not None
                and v.analysis.state == "done"):
            analysis_scene(self, cmd.ShowAnalysis())
            return
        if self.ui.series_end and self.series_over():
            self.series_summary()
        else:
            getattr(self, "scene_" + v.scene)()
        hint_banner(self, TOP + 4)
        if v.offer == "resume":
            self.resume_dialog()
        elif self.ui.confirm == "notice" and v.scene not in ("fault", "idle"):
            self.notice_dialog()
        elif self.ui.confirm == "quit":
            self.quit_dialog()
        elif self.ui.confirm == "new-series" and self.series_over() and v.simulator:
            self.new_series_dialog()

    def series_over(self) -> bool:
        """The last result of a series is on the screen (its summary comes next)."""
        v = self.v
        return v.scene == "result" and v.sheet is not None and v.sheet.finished

    def quit_dialog(self) -> None:
        """Esc asks before the kiosk quits: one key must not end an evening's table."""
        _ = self._
        self.choice_dialog(_("Quit the table?"), [
            (_("Quit"), cmd.Quit(), "quit-confirm"),
            (_("Cancel: stay"), CloseDialog(), "confirm-cancel")], max_h=72.0, gap=12, size=24)

    def new_series_dialog(self) -> None:
        """A new series wipes the screen of this one: asked first."""
        _ = self._
        self.choice_dialog(_("Start a new series?"), [
            (_("Start a new series"), cmd.DealNext(), "confirm-new-series"),
            (_("Cancel: stay"), CloseDialog(), "confirm-cancel")], max_h=72.0, gap=12, size=24)

    def notice_dialog(self) -> None:
        """A loss report (a repaired journal) in full, over everything else (layers 4 and 5,
        above any other question), until someone confirms it or puts it off."""
        f, _ = self.f, self._
        notices = [fault for fault in self.v.faults if fault.notice is not None]
        if not notices:
            return
        fault = notices[0]
        f.panel(0, 0, f.W, f.H, fill=FELT_DARK, role="modal", radius=0, layer=4)
        x, w = 60.0, f.W - 120
        y = TOP + 10
        title = _("The journal was repaired")
        if len(notices) > 1:
            title += f" (1/{len(notices)})"
        f.text(x, y, w, 40, title, size=28, face="bold", role="notice-title", layer=5)
        y += 52
        f.text(x, y, w, 116, fault_sentence(fault, self.tr, self.v.players), size=24,
               face="bold", colour=ALERT_INK, fill=ALERT, role="notice-text", layer=5,
               wrap=True)
        y += 116 + 16
        bh = min(64.0, (f.H - y - 16 - 12) / 2)
        f.button(x, y, w, bh, _("Confirm"), cmd.ConfirmNotice(fault.notice or 0),
                 role="notice-confirm", size=24, layer=5, wrap=True)
        f.button(x, y + bh + 12, w, bh, _("Later"), CloseDialog(), role="confirm-cancel",
                 size=24, layer=5, wrap=True, fill=GOLD, colour=GOLD_DARK)

    def resume_dialog(self) -> None:
        """The start screen of the simulator: an unfinished series was found in the journal."""
        f, _, v = self.f, self._, self.v
        f.panel(0, 0, f.W, f.H, fill=FELT_DARK, role="modal", radius=0, layer=2)
        x, w = 60.0, f.W - 120
        y = TOP + 20
        f.text(x, y, w, 44, _("An unfinished series from last time"), size=30, face="bold",
               role="resume-title", layer=3)
        y += 52
        total = v.sheet.games_total if v.sheet is not None else None
        where = (_("Game {n} of {total}").format(n=v.game_number, total=total) if total
                 else _("Game {n}").format(n=v.game_number))
        if v.sheet is not None and v.sheet.totals:
            where += "   " + "   ".join(f"{self.name(s, 10)} {t:+d}"
                                        for s, t in enumerate(v.sheet.totals))
        f.text(x, y, w, 56, where, size=22, colour=MUTED, role="resume-where", layer=3,
               wrap=True)
        y += 68
        bh = min(72.0, (f.H - y - 20) / 2 - 6)
        f.button(x, y, w, bh, _("Continue the series"), cmd.Resume(True), role="resume-keep",
                 fill=GOLD, colour=GOLD_DARK, size=26, layer=3)
        f.button(x, y + bh + 12, w, bh, _("Start a new series"), cmd.Resume(False),
                 role="resume-new", size=24, layer=3)

    def scene_idle(self) -> None:
        f, _, v = self.f, self._, self.v
        f.panel(0, 0, f.W, f.H, fill=FELT_DARK, radius=0, role="idle-bg")
        if self.ui.clock:
            f.text(0, 16, f.W, 100, self.ui.clock, size=84, face="bold", role="clock",
                   colour=MUTED)
        icon = 40.0
        for i, suit in enumerate("CSHD"):
            f.suit_icon(f.W / 2 - 2 * (icon + 20) + 10 + i * (icon + 20), 196 - icon - 24, icon,
                        suit, role="idle-suit")
        f.text(40, 200, f.W - 80, 60, "Skat", size=48, face="bold", colour=GOLD, role="brand")
        if v.sheet is not None and v.sheet.totals:
            parts = [f"{self.name(s)} {t:+d}" for s, t in enumerate(v.sheet.totals)]
            f.text(40, 276, f.W - 80, 56, "   ".join(parts), size=26, role="totals", wrap=True)
        if v.note:
            f.text(40, 340, f.W - 80, 36, v.note, size=22, colour=MUTED, role="note",
                   ellipsize=True)
        if v.club is not None:
            from .clubscene import club_line

            f.text(40, 372, f.W - 80, 28, club_line(v.club, self.tr), size=18, colour=MUTED,
                   role="club-line", ellipsize=True)
        f.text(40, 400, f.W - 80, 40, _("Lay a card or touch the screen"), size=22,
               colour=MUTED, role="wake-hint")

    def scene_seating(self) -> None:
        from .clubscene import scene_seating

        scene_seating(self)

    def scene_enrol(self) -> None:
        f, _, v = self.f, self._, self.v
        e = v.enrol
        assert e is not None
        y = self.top_bar(_("Enrol the deck"))
        card_h = min(f.H - y - 40, 300.0)
        card_w = card_h / CARD_RATIO
        cx = 40.0
        if e.card is not None:
            f.card(cx, y + 10, card_w, card_h, e.card, role="enrol-card")
        else:
            f.slot(cx, y + 10, card_w, card_h, role="enrol-done")
        x = cx + card_w + 40
        w = f.W - x - 30
        if e.card is not None:
            f.text(x, y + 20, w, 32, _("Lay this card on a reader:"), size=22, align="left",
                   colour=MUTED, role="enrol-ask")
            f.text(x, y + 56, w, 64, self.tr.card(e.card), size=50, face="bold",
                   align="left", role="enrol-name")
        else:
            f.text(x, y + 40, w, 64, _("The deck is complete"), size=40, face="bold",
                   align="left", colour=WON, role="enrol-name")
        f.bar(x, y + 140, w, 22, e.done / max(1, e.total), role="enrol-progress")
        f.text(x, y + 168, w, 30, _("{done} of {total} cards").format(done=e.done,
                                                                       total=e.total),
               size=22, align="left", role="enrol-count")
        if e.last is not None:
            f.text(x, y + 204, w, 28, _("Stored: {card}").format(card=self.tr.card(e.last)),
                   size=18, align="left", colour=MUTED, role="enrol-last")
        if v.refusal is not None:
            self.fault_banner(v.refusal, f.H - 130)

    def scene_deal(self) -> None:
        f, _, v = self.f, self._, self.v
        d = v.deal
        assert d is not None
        y = self.top_bar(_("Deal"))
        bottom = self.seat_row(with_hands=False)
        mid_h = bottom - y - GAP
        f.text(30, y + 4, f.W * 0.45, 34, _("Dealer: {name}").format(name=self.name(v.dealer)),
               size=22, align="left", role="dealer")
        f.text(30, y + 44, f.W * 0.45, 90, f"{d.counted} / 32", size=72, face="bold",
               align="left", role="deal-count")
        f.text(30, y + 136, f.W * 0.45, 28, _("cards dealt"), size=18, colour=MUTED,
               align="left", role="deal-count-label")
        f.bar(30, y + 206, f.W * 0.45, 16, d.counted / 32, role="deal-progress")
        if d.to is not None:
            who = _("the skat") if d.to == -1 else self.name(d.to, 10)
            pk = PACKETS[min(d.packet, len(PACKETS) - 1)]
            f.text(30, y + 228, f.W * 0.45, 48,
                   self.tr.ngettext("Packet {n}: {count} card to {who}",
                                    "Packet {n}: {count} cards to {who}", pk).format(
                       n=d.packet + 1, count=pk, who=who),
                   size=20, align="left", role="deal-packet", colour=GOLD, wrap=True)
        # The skat: two slots, backs for the cards already there.
        sx = f.W * 0.55
        card_h = min(mid_h - 40, 140.0)
        card_w = card_h / CARD_RATIO
        f.text(sx, y + 4, card_w * 2 + 12, 28, _("Skat"), size=20, face="bold",
               role="skat-label", colour=GOLD if d.to == -1 else INK)
        for i in range(2):
            if i < d.skat:
                f.card(sx + i * (card_w + 12), y + 36, card_w, card_h, None, role="skat")
            else:
                f.slot(sx + i * (card_w + 12), y + 36, card_w, card_h, role="skat-slot")
        if v.simulator and d.to is not None:
            by = y + 36 + card_h + 16
            bw = min(f.W - sx - 20, 300.0)
            f.button(sx, by, bw, 56, _("Deal next card"),
                     cmd.DealNext(), role="deal-next", fill=GOLD, colour=GOLD_DARK, wrap=True)
            if by + 56 + 8 + BUTTON_H <= bottom - GAP:
                f.button(sx, by + 64, bw, BUTTON_H, _("Deal all cards"), cmd.DealRest(),
                         role="deal-rest", wrap=True)
            if d.last is not None:
                lw = min(60.0, card_h / CARD_RATIO * 0.7)
                f.card(sx + 2 * (card_w + 12) + 12, y + 36, lw, lw * CARD_RATIO, d.last,
                       role="deal-last")
        self.banner(y + 40)

    def scene_bidding(self) -> None:
        f, _, v = self.f, self._, self.v
        b = v.bidding
        assert b is not None
        y = self.top_bar(_("Bidding"))
        bottom = self.seat_row(with_hands=v.simulator)
        mid_h = bottom - y - GAP
        cw = min(f.W - 40, 640.0)
        cx = (f.W - cw) / 2
        seat = b.to_act
        jumps = ([x for x in BID_VALUES if x > b.next_value][:JUMPS]
                 if seat == b.bidder and b.next_value and not b.forehand_alone else [])
        # The history's line is kept before the first call too, and the jump bids' places
        # while the seat to act hears: the buttons stay where they are all through the
        # bidding (Pass never slides under a finger).
        who_h, next_h, bh, hist_h = 30.0, 24.0, BUTTON_H, 26.0
        value_h = max(40.0, min(110.0, mid_h - 20 - who_h - next_h - bh - 10 - hist_h))
        ph = min(mid_h, who_h + value_h + next_h + 10 + bh + hist_h + 20)
        py = y + (mid_h - ph) / 2
        f.panel(cx, py, cw, ph, role="bid-panel")
        ty = py + 10
        if b.forehand_alone and b.ramsch:  # passing now is no passing in: it is Ramsch
            line = _("{name} may play for 18 or pass (then Ramsch)").format(
                name=self.name(b.to_act))
        elif b.forehand_alone:
            line = _("{name} may play for 18 or pass").format(name=self.name(b.to_act))
        else:
            line = _("{bidder} says, {listener} hears").format(
                bidder=self.name(b.bidder, 10), listener=self.name(b.listener, 10))
        f.text(cx + 12, ty, cw - 24, who_h, line, size=24, role="bid-who")
        ty += who_h
        f.text(cx + 12, ty, cw - 24, value_h, str(b.value) if b.value else "–",
               size=value_h * 0.9, face="bold", colour=GOLD, role="bid-value")
        ty += value_h
        if b.next_value is not None:
            f.text(cx + 12, ty, cw - 24, next_h, _("next bid: {value}").format(
                value=b.next_value), size=18, colour=MUTED, role="bid-next")
        ty += next_h + 10
        buttons: list[tuple[str, cmd.Command, str]] = []
        if b.forehand_alone:
            buttons = [(_("Play for 18"), cmd.Press(seat, "bid"), "press-bid"),
                       (_("Pass"), cmd.Press(seat, "pass"), "press-pass")]
        elif seat == b.bidder:
            label = (_("Bid {value}").format(value=b.next_value) if b.next_value
                     else _("Bid"))
            buttons = [(label, cmd.Press(seat, "bid"), "press-bid"),
                       (_("Pass"), cmd.Press(seat, "pass"), "press-pass")]
        else:
            buttons = [(_("Yes"), cmd.Press(seat, "yes"), "press-yes"),
                       (_("Pass"), cmd.Press(seat, "pass"), "press-pass")]
        # One row: the answer, pass, and the jump bids (the next legal values above).
        inner = cw - 24
        jw = 64.0
        bw = (inner - JUMPS * (jw + 8) - 12) / 2
        bx = cx + 12
        for i, (label, command, role) in enumerate(buttons):
            primary = i == 0
            f.button(bx, ty, bw, bh, label, command, role=role,
                     fill=GOLD if primary else BUTTON, colour=GOLD_DARK if primary else BUTTON_INK,
                     size=26, wrap=True)
            bx += bw + (12 if i == 0 else 8)
        for val in jumps:
            f.button(bx, ty, jw, bh, str(val), cmd.Press(seat, "bid", val), role="press-jump",
                     size=22)
            bx += jw + 8
        ty += bh + 4
        if v.calls:
            f.text(cx + 12, ty, cw - 24, hist_h, self.history_line(cw - 24, 18), size=18,
                   colour=MUTED, role="bid-history")
        self.banner(y + 40)

    def call_text(self, call: Call) -> str:
        """One call as players say it, with who said it: ``Ben 18``, ``Anna passes``
        (``Anna passe``), ``Carla takes the skat``, ``Carla plays clubs hand``; each
        language words the whole phrase (English does not say "Ben pass")."""
        _ = self._
        name = self.name(call.seat)
        if call.what == "bid":
            return f"{name} {call.value}"
        if call.what == "yes":
            return _("{name} says yes").format(name=name)
        if call.what == "pass":
            return _("{name} passes").format(name=name)
        if call.what == "skat":
            return _("{name} takes the skat").format(name=name)
        if call.what == "declare":
            return _("{name} plays {contract}").format(
                name=name, contract=self.tr.contract(call.contract or ""))
        return f"{name} {press_word(call.what, self.tr)}"

    def history_line(self, width: float, size: float) -> str:
        """The latest calls that fit one line: ``Ben 18 · Anna ja · Ben 20 · Anna passe``."""
        parts = [self.call_text(c) for c in self.v.calls]
        px = self.f.px(size)
        avail = self.f.px(width) - self.f.px(6)
        for start in range(len(parts)):
            text = ("… " if start else "") + " · ".join(parts[start:])
            if self.f.fonts.size("sans", px, text)[0] <= avail:
                return text
        return parts[-1] if parts else ""

    def scene_declaration(self) -> None:
        """Take the skat or declare a hand game; the game buttons, and Schneider, Schwarz and
        Ouvert as toggles beside the skat button, each in a place of its own from the first
        look to the declaration (room for the toggles is made first: a hand game announced
        at any size)."""
        f, _, v = self.f, self._, self.v
        d = v.declaration
        assert d is not None
        y = self.top_bar(_("Declaration"))
        bottom = self.seat_row(with_hands=v.simulator)
        x0, w = 16.0, f.W - 32
        f.text(x0, y, w, 30, _("{name} is declarer, bid {value}").format(
            name=self.name(d.declarer), value=d.bid), size=22, face="bold", role="decl-who")
        y += 32
        if v.calls:  # how the bidding went, for whoever looked away
            f.text(x0, y, w, 26, self.history_line(w, 18), size=18, colour=MUTED,
                   role="decl-history")
        y += 32
        offered = set(d.contracts)
        games = "CSHDGN"
        # The toggles at the right end of the skat button's row: a tap toggles, the game
        # button declares with them. Offered only where some legal contract uses them.
        mods = [("S", _("Schneider")), ("Z", _("Schwarz")), ("O", _("Ouvert"))]
        widths = [self.label_width(label, 18, 100.0) for _m, label in mods]
        mods_x = x0 + w - sum(widths) - 8 * (len(mods) - 1)
        mx = mods_x
        for (m, label), mw in zip(mods, widths, strict=True):
            used = any(compose_contract(g, d.skat_taken, frozenset({m})) in offered
                       and compose_contract(g, d.skat_taken, frozenset({m}))
                       != compose_contract(g, d.skat_taken, frozenset()) for g in games)
            if used:
                on = m in self.ui.draft
                f.button(mx, y, mw, BUTTON_H, label, ToggleModifier(m),
                         role=f"mod-{m}" + (" on" if on else ""), selected=on,
                         fill=GOLD if on else BUTTON, colour=GOLD_DARK if on else BUTTON_INK,
                         size=18)
            mx += mw + 8
        room = mods_x - 12 - x0
        if not d.skat_taken:
            sw = min(room * 0.5, self.label_width(_("Take the skat"), 20, 150.0))
            f.button(x0, y, sw, BUTTON_H, _("Take the skat"), cmd.Press(d.declarer, "skat"),
                     role="press-skat", fill=GOLD, colour=GOLD_DARK, size=20, wrap=True)
            f.text(x0 + sw + 12, y, room - sw - 12, BUTTON_H, _("or declare a hand game:"),
                   size=20, align="left", colour=MUTED, role="decl-or", wrap=True)
        else:
            left = 2 - len(d.discards)
            if v.simulator:  # no reader here: the cards are tapped in the hand
                msg = {2: _("Tap two cards of the hand to lay them away"),
                       1: _("Tap one more card to lay away")}.get(left, _("Skat laid away"))
            else:
                msg = {2: _("Lay two cards on the skat reader"),
                       1: _("Lay one more card on the skat reader")}.get(
                    left, _("Skat laid away"))
            laid_w = 2 * 40.0
            f.text(x0, y, room - laid_w - 8, BUTTON_H, msg, size=20, align="left",
                   role="decl-discard", wrap=True)
            for i, card in enumerate(d.discards):
                f.card(x0 + room - laid_w + i * 40, y - 2, 34, 51, card, role="discard")
        y += BUTTON_H + 8
        # Game icons: a tap declares with the modifiers toggled.
        gw = (w - 8 * (len(games) - 1)) / len(games)
        gh = min(96.0, max(BUTTON_H, bottom - y - GAP))
        for i, g in enumerate(games):
            text = compose_contract(g, d.skat_taken, self.ui.draft)
            allowed = text in offered
            suit = g if g in "CSHD" else None
            label = "" if suit else self.tr.game(g)
            f.button(x0 + i * (gw + 8), y, gw, gh, label,
                     cmd.Declare(d.declarer, text) if allowed else None,
                     role=f"declare-{g}" + ("" if allowed else " disabled"), suit=suit,
                     fill=BUTTON if allowed else (120, 130, 124), size=22)
        # Why the computers bid as they did, under the games (the room the icons leave).
        reasons_text(self, x0, y + gh + 10, w, bottom - GAP - (y + gh + 10), size=18,
                     kinds=("limit",))
        self.banner(TOP + 60)

    def scene_pushing(self) -> None:
        """Schieberamsch: who decides, take and push or pass it on, the pushes so far and what
        the Ramsch now counts, and the two cards going back on the skat."""
        f, _, v = self.f, self._, self.v
        p = v.pushing
        assert p is not None
        y = self.top_bar(_("Schieberamsch"))
        bottom = self.seat_row(with_hands=v.simulator)
        mid_h = bottom - y - GAP
        cw = min(f.W - 40, 600.0)
        cx = (f.W - cw) / 2
        seat = p.to_act
        who_h, line_h, bh = 46.0, 26.0, max(BUTTON_H, min(68.0, mid_h * 0.25))
        # Where hands take the height, the doubling goes beside its lines (the first may
        # take two of them there).
        beside = mid_h - 20 - who_h - 2 * line_h - 10 - bh < 36
        if beside:
            line_h = 23.0
        factor_h = (3 * line_h if beside
                    else max(36.0, min(84.0, mid_h - 20 - who_h - 2 * line_h - 10 - bh)))
        body_h = factor_h if beside else factor_h + 2 * line_h
        ph = min(mid_h, 10 + who_h + body_h + 10 + bh + 10)
        py = y + (mid_h - ph) / 2
        f.panel(cx, py, cw, ph, role="push-panel")
        ty = py + 10
        who = (_("{name} took the skat") if p.taken
               else _("{name}: push the skat on or pass it on")).format(
                   name=self.name(seat, 10))
        f.text(cx + 12, ty, cw - 24, who_h, who, size=24, role="push-who", wrap=True)
        ty += who_h
        fw = 110.0 if beside else cw - 24
        f.text(cx + 12, ty, fw, factor_h, f"×{p.factor}", size=factor_h * 0.85,
               face="bold", colour=GOLD, role="push-factor")
        lx, lw = (cx + 24 + fw, cw - 36 - fw) if beside else (cx + 12, cw - 24)
        if not beside:
            ty += factor_h
        count_h = 2 * line_h if beside else line_h
        f.text(lx, ty, lw, count_h, _("Pushed so far: {n}, each push doubles").format(
            n=p.pushes), size=18, colour=MUTED, role="push-count",
            align="left" if beside else "center", wrap=beside)
        ty += count_h
        if not p.jacks:
            f.text(lx, ty, lw, line_h, _("Jacks may not be pushed"), size=18,
                   colour=MUTED, role="push-jacks", align="left" if beside else "center")
        ty += line_h + 10
        bw = (cw - 24 - 12) / 2
        if not p.taken:
            f.button(cx + 12, ty, bw, bh, _("Take and push"), cmd.Press(seat, "skat"),
                     role="press-skat", fill=GOLD, colour=GOLD_DARK, size=24)
            f.button(cx + 24 + bw, ty, bw, bh, _("Pass it on"), cmd.Press(seat, "pass"),
                     role="press-pass", size=24)
        else:
            left = 2 - p.laid
            if v.simulator:
                msg = {2: _("Tap two cards of the hand to lay them away"),
                       1: _("Tap one more card to lay away")}.get(left, _("Skat laid away"))
            else:
                msg = {2: _("Lay two cards on the skat reader"),
                       1: _("Lay one more card on the skat reader")}.get(
                    left, _("Skat laid away"))
            card_h = bh
            card_w = card_h / CARD_RATIO
            slots_w = 2 * card_w + 8
            f.text(cx + 12, ty, cw - 36 - slots_w, bh, msg, size=20, align="left",
                   role="push-lay", wrap=True)
            sx = cx + cw - 12 - slots_w
            for i in range(2):
                x = sx + i * (card_w + 8)
                if i < len(p.laid_cards):
                    f.card(x, ty, card_w, card_h, p.laid_cards[i], role="pushed-card")
                elif i < p.laid:
                    f.card(x, ty, card_w, card_h, None, role="pushed-card")
                else:
                    f.slot(x, ty, card_w, card_h, role="push-slot")
        self.banner(y + 40)

    def scene_play(self) -> None:
        f, _, v = self.f, self._, self.v
        p = v.play
        assert p is not None
        y = self.top_bar(_("Play"))
        # Room for hands is kept through the whole play wherever hands are shown at all:
        # every hand in the simulator, the declarer's in an open game. A hand opened by a
        # claim on the table goes beside the trick instead, so nothing else moves for it.
        reserved = v.simulator or "O" in p.contract[1:]
        bottom = self.seat_row(with_hands=reserved)
        mid_h = bottom - y - GAP
        iw = 190.0
        self.game_panel(p, 8, y, iw, mid_h)
        rx = self.play_controls(p, y, mid_h)
        # Centre: the trick as it forms, one slot per seat in play; the last trick over it
        # on request.
        tx, tw = 8 + iw + GAP, rx - GAP - (8 + iw + GAP)
        th = mid_h
        if not reserved and p.open_hand:
            th = self.open_hand_row(p, p.open_hand, tx, y, tw, mid_h)
        self.trick(p.trick, tx, y, tw, th, p.to_act, before=p.last_trick)
        show_last = p.show_last_trick or self.ui.show_last_trick
        lt = p.last_trick
        banner = v.refusal is not None and not self.ui.hide_refusal
        if show_last and lt is not None and not banner:  # a refusal first; a tap closes it
            # Above the computer's prompt, which stays in sight.
            # (cards smaller where the hands leave little height: never over the prompt)
            oh = mid_h if v.prompt is None else min(mid_h, bottom - GAP - 84 - y - 6)
            f.panel(tx, y, tw, oh, fill=FELT_DARK, role="last-trick-panel", layer=2)
            f.text(tx + 8, y + 4, tw - 16, 30, _("Last trick"), size=20, face="bold",
                   role="last-title", layer=3)
            self.trick(lt, tx, y + 30, tw, oh - 30, None, layer=3, role="last")
        ramsch = p.contract[:1] == "R"
        declarer = p.declarer if p.declarer not in v.computer else None
        defender = self.person_defender(p.declarer)
        if p.waiting is not None:
            self.waiting_dialog(p)
        elif (self.ui.confirm == "claim" and v.can_concede and not ramsch
              and declarer is not None):
            self.claim_dialog(p)
        elif (self.ui.confirm == "concede" and v.can_concede and not ramsch
              and (declarer is not None or defender is not None)):
            self.concede_dialog(p)
        else:
            self.banner(y + max(0.0, (mid_h - 118) / 2), prompt_y=bottom - GAP - 84)
            if p.disagreed is not None and (v.refusal is None or self.ui.hide_refusal):
                self.news_banner(_("{name} disagrees with the claim: play goes on, "
                                   "{declarer}'s cards stay open").format(
                    name=self.name(p.disagreed), declarer=self.name(p.declarer)),
                    tx, y + 4, tw)

    def game_panel(self, p: PlayView, x: float, y: float, iw: float, mid_h: float) -> None:
        """Left: the game and the trump, unmistakable; then the rest in order of importance,
        each line only while the panel has room for it."""
        f, _ = self.f, self._
        f.panel(x, y, iw, mid_h, role="game-panel")
        game = p.contract[0]
        if game in "CSHD":
            trump = _("Trump: {suit}").format(suit=self.tr.game(game))
        else:
            trump = _("No suit is trump") if game == "N" else _("Only jacks are trump")
        if mid_h >= 260:  # room: the symbol big, its words under it
            icon = min(64.0, mid_h * 0.26)
            if game in "CSHD":
                f.suit_icon(x + (iw - icon) / 2, y + 6, icon, game, role="trump")
            else:
                f.text(x + 8, y + 6, iw - 16, icon, self.tr.game(game), size=icon * 0.6,
                       face="bold", colour=GOLD, role="trump")
            ty = y + 10 + icon
            f.text(x + 6, ty, iw - 12, 44, trump, size=18, face="bold", role="trump-text",
                   wrap=True)
            ty += 46
        elif game in "CSHD":  # hands below take the height: the symbol beside its words
            icon = 44.0
            f.suit_icon(x + 10, y + 8, icon, game, role="trump")
            f.text(x + 20 + icon, y + 4, iw - 26 - icon, 52, trump, size=18, face="bold",
                   role="trump-text", wrap=True, align="left")
            ty = y + 60
        else:
            f.text(x + 8, y + 4, iw - 16, 32, self.tr.game(game), size=26, face="bold",
                   colour=GOLD, role="trump")
            f.text(x + 6, y + 36, iw - 12, 44, trump, size=18, face="bold", role="trump-text",
                   wrap=True)
            ty = y + 82
        ramsch = game == "R"  # nobody declared: no declarer, no bid, no sides
        mods = self.tr.contract(p.contract)[len(self.tr.game(game)):].strip()
        lines: list[tuple[str, float, str, tuple[int, int, int], str]] = []
        if mods:
            lines.append((mods, 46, "contract-mods", GOLD, "bold"))
        if p.kontra > 1:
            lines.append((_("Re") if p.kontra == 4 else _("Kontra"), 24, "kontra", LOST, "bold"))
        if ramsch and p.pushes:  # Schieberamsch: what the pushes multiply the loss by
            lines.append((_("pushed ×{n}").format(n=2 ** p.pushes), 24, "pushed", GOLD,
                          "bold"))
        if not ramsch:
            lines.append((_("Declarer: {name}").format(name=self.name(p.declarer, 9)), 46,
                          "declarer", INK, "sans"))
            lines.append((_("Bid: {value}").format(value=p.bid), 24, "bid", MUTED, "sans"))
            # Before the first trick is taken the count says nothing yet: the computer's
            # reasons take its room (at 800x480 there is no other)
            if any(p.tricks) or not self.v.reasons:
                lines.append((_("Tricks: {name} {a}, defenders {b}").format(
                    name=self.name(p.declarer, 5), a=p.tricks[0], b=p.tricks[1]), 46,
                    "tricks", MUTED, "sans"))
        for text, h, role, colour, face in lines:
            if h > 24 and f.fonts.size(face, f.px(18), text)[0] <= f.px(iw - 12) - f.px(4):
                h = 24  # one line is enough: room for the next one
            if ty + h > y + mid_h - 4:
                break
            f.text(x + 6, ty, iw - 12, h, text, size=18, align="left", colour=colour,
                   face=face, role=role, wrap=h > 24)
            ty += h + 2
        # Why the computers bid, declared and doubled: last, in the room the game's lines
        # leave (never over them).
        reasons_text(self, x + 6, ty + 4, iw - 12, y + mid_h - 4 - ty - 4, size=18,
                     kinds=("game", "double", "limit"))

    def play_controls(self, p: PlayView, y: float, mid_h: float) -> float:
        """Right: the buttons of the play, each in a place of its own for the whole deal and
        kept empty while the button is not offered, so that no button ever comes where
        another was a moment ago (a tap meant for Concede once opened the claim): Last trick
        (or, before the first card, Kontra or Re: the one goes with the first card, the other
        comes with the first trick's last), Concede, Claim. Returns the panel's left edge."""
        f, _, v = self.f, self._, self.v
        rw = 170.0
        rx = f.W - rw - 8
        f.panel(rx, y, rw, mid_h, role="last-panel")
        slot = {"last-button": 0, "kontra": 0, "re": 0, "concede": 1, "claim": 2}
        show_last = p.show_last_trick or self.ui.show_last_trick
        lt = p.last_trick
        ramsch = p.contract[:1] == "R"
        buttons: list[tuple[str, cmd.Command, str]] = []
        if lt is not None:
            buttons.append((_("Hide") if show_last else _("Last trick"), cmd.ShowLastTrick(),
                            "last-button"))
        # Only people are acted for: a computer seat concedes, claims and doubles by itself.
        declarer = p.declarer if p.declarer not in v.computer else None
        defender = self.person_defender(p.declarer)
        if v.can_concede and not ramsch and (declarer is not None or defender is not None):
            buttons.append((_("Concede"), cmd.Press(
                declarer if declarer is not None else defender, "concede"), "concede"))
            if p.waiting is None and declarer is not None:
                buttons.append((_("Claim the rest"), cmd.Press(declarer, "claim"), "claim"))
        first_card = sum(p.tricks) == 0 and not p.trick.cards  # Kontra and Re only before it
        if v.kontra_re and not ramsch and p.kontra < 4 and first_card and lt is None:
            word = "kontra" if p.kontra == 1 else "re"
            who = defender if word == "kontra" else declarer
            if who is not None:
                buttons.append((_("Kontra") if word == "kontra" else _("Re"),
                                cmd.Press(who, word), word))  # type: ignore[arg-type]
        for label, command, role in buttons:
            f.button(rx + 6, y + 6 + slot[role] * (BUTTON_H + 8), rw - 12, BUTTON_H, label,
                     command, role=role, size=20, wrap=True)
        return rx

    def open_hand_row(self, p: PlayView, hand: tuple[Card, ...], x: float, y: float,
                      w: float, h: float) -> float:
        """On the table, the hand a declarer showed with his claim, under the trick (the seat
        panels keep their height). Returns the height left for the trick."""
        f, _ = self.f, self._
        row_h = min(110.0, h * 0.45)
        top = y + h - row_h
        f.text(x, top, w, 24, _("Open hand of {name}").format(name=self.name(p.declarer)),
               size=18, colour=MUTED, role="open-hand-title", align="left")
        card_h = row_h - 28
        card_w = card_h / CARD_RATIO
        n = len(hand)
        step = card_w if n <= 1 else min(card_w + 4, (w - card_w) / (n - 1))
        for i, card in enumerate(self.sorted_hand(hand, p.contract)):
            f.card(x + i * step, top + 28, card_w, card_h, card, role=f"hand{p.declarer}",
                   visible_w=card_w if i == n - 1 else min(card_w, step))
        return h - row_h - 6

    def news_banner(self, text: str, x: float, y: float, w: float) -> None:
        """Something the table decided by itself that a person would otherwise miss (a
        computer disagreed with a claim): a gold banner over the trick, until it is over."""
        f = self.f
        f.panel(x, y, w, 84, fill=GOLD, role="news", radius=12, layer=2)
        f.text(x + 10, y + 6, w - 20, 72, text, size=20, face="bold", colour=GOLD_DARK,
               role="news-text", layer=3, wrap=True)

    def concede_dialog(self, p: PlayView) -> None:
        """Conceding ends the game: the kiosk asks first, with what it would count."""
        _ = self._
        name = self.name(p.declarer)
        lost, won = p.concede_values
        declarer = (_("{name} gives up: lost, {value}").format(name=name, value=f"{lost:+d}")
                    if lost is not None else _("{name} gives up").format(name=name))
        defenders = (_("The defenders give up: {name} wins, {value}").format(
            name=name, value=f"{won:+d}") if won is not None
            else _("The defenders give up"))
        defender = self.person_defender(p.declarer)
        choices = ([(declarer, cmd.Press(p.declarer, "concede"), "confirm-declarer")]
                   if p.declarer not in self.v.computer else [])
        if defender is not None:
            choices.append((defenders, cmd.Press(defender, "concede"), "confirm-defenders"))
        choices.append((_("Cancel: play on"), CloseDialog(), "confirm-cancel"))
        # The factors in those values, named (the top bar with the Bock mark is covered).
        factors = ([("kontra", 2)] if p.kontra >= 2 else []) + (
            [("re", 2)] if p.kontra >= 4 else []) + ([("bock", 2)] if self.v.bock else [])
        self.choice_dialog(_("Give up this game?"), choices, max_h=72.0, gap=12, size=24,
                           note=" · ".join(factor_words(tuple(factors), self.tr)))

    def choice_dialog(self, title: str, choices: list[tuple[str, object, str]], *,
                      max_h: float, gap: int, size: int, note: str = "") -> None:
        """A modal question over the whole screen: a title (and a line of ``note`` under it),
        then one button per choice; the last choice is the way back (gold)."""
        f = self.f
        f.panel(0, 0, f.W, f.H, fill=FELT_DARK, role="modal", radius=0, layer=2)
        x, w = 60.0, f.W - 120
        y = TOP + 10
        f.text(x, y, w, 40, title, size=28, face="bold", role="confirm-title", layer=3)
        y += 52
        if note:
            f.text(x, y - 8, w, 28, note, size=20, face="bold", colour=GOLD,
                   role="confirm-note", layer=3)
            y += 26
        n = len(choices)
        bh = min(max_h, (f.H - y - 16 - (n - 1) * gap) / n)
        for i, (label, command, role) in enumerate(choices):
            last = i == n - 1
            f.button(x, y, w, bh, label, command, role=role, size=size, layer=3, wrap=True,
                     fill=GOLD if last else BUTTON, colour=GOLD_DARK if last else BUTTON_INK)
            y += bh + gap

    def claim_dialog(self, p: PlayView) -> None:
        """The declarer shows his cards and claims the rest: at which level (ISkO 4.4.4: a
        higher level is said when he shows)."""
        _ = self._
        levels = {"": _("Claim the rest: simple"),
                  "schneider": _("Claim the rest with schneider"),
                  "schwarz": _("Claim the rest with schwarz")}
        # Only the levels still open (no schwarz once the defenders have a trick).
        choices: list[tuple[str, object, str]] = [
            (label, cmd.Press(p.declarer, "claim", level=level), f"claim-{level or 'simple'}")
            for level, label in levels.items() if level in p.claim_levels or not level]
        choices.append((_("Cancel: play on"), CloseDialog(), "confirm-cancel"))
        self.choice_dialog(_("{name} claims the rest").format(name=self.name(p.declarer)),
                           choices, max_h=64.0, gap=10, size=22)

    def waiting_dialog(self, p: PlayView) -> None:
        """A claim (ISkO 4.4.4: the declarer's cards open, each defender agrees or not) or a
        violation (4.1: who laid which card, the innocent party ends the game or plays on)."""
        f, _ = self.f, self._
        f.panel(0, 0, f.W, f.H, fill=FELT_DARK, role="modal", radius=0, layer=2)
        x, w = 40.0, f.W - 80
        y = TOP + 6
        choices: list[tuple[str, cmd.Command, str]] = []
        if p.waiting == "claim":
            f.text(x, y, w, 40, _("{name} claims the rest").format(name=self.name(p.declarer)),
                   size=28, face="bold", role="claim-title", layer=3)
            y += 44
            if p.open_hand:
                f.text(x, y, w, 26, _("Open hand of {name}").format(
                    name=self.name(p.declarer)), size=18, colour=MUTED, role="open-hand-title",
                    layer=3)
                y += 28
                cw = min(56.0, (w - 9 * 6) / max(len(p.open_hand), 1))
                for i, card in enumerate(self.sorted_hand(p.open_hand, p.contract)):
                    f.card(x + i * (cw + 6), y, cw, cw * CARD_RATIO, card, role="open-hand-card",
                           layer=3)
                y += cw * CARD_RATIO + 10
            for seat in p.answering:
                name = self.name(seat, 9)
                choices.append((_("{name}: agree").format(name=name),
                                cmd.Press(seat, "agree"), f"agree{seat}"))
                choices.append((_("{name}: disagree").format(name=name),
                                cmd.Press(seat, "disagree"), f"disagree{seat}"))
        else:
            card = p.offending_card
            f.text(x, y, w, 40, _("{name} laid {card} against the rules").format(
                name=self.name(p.offender), card=self.tr.card(card) if card is not None else ""),
                size=26, face="bold", role="violation-title", layer=3, wrap=True)
            y += 50
            if card is not None:  # the card the table saw
                f.card(x + (w - 70) / 2, y, 70, 70 * CARD_RATIO, card, role="violation-card",
                       layer=3)
                y += 70 * CARD_RATIO + 12
            for seat in p.answering:
                name = self.name(seat, 9)
                choices.append((_("{name}: end the game").format(name=name),
                                cmd.Press(seat, "enforce"), f"enforce{seat}"))
                choices.append((_("{name}: play on, card taken back").format(name=name),
                                cmd.Press(seat, "play-on"), f"play-on{seat}"))
        cols = 2
        rows = max(1, (len(choices) + 1) // cols)
        bw = (w - 12) / cols
        bh = min(64.0, (f.H - y - 12 - (rows - 1) * 10) / rows)
        for i, (label, command, role) in enumerate(choices):
            f.button(x + (i % cols) * (bw + 12), y + (i // cols) * (bh + 10), bw, bh, label,
                     command, role=role, size=20, layer=3, wrap=True)

    def person_defender(self, declarer: int) -> int | None:
        """A defender a person plays (who concedes or doubles for the defenders), or None."""
        return next((s for s in self.seats_in_play()
                     if s != declarer and s not in self.v.computer), None)

    def home_seat(self) -> int:
        """The seat drawn at the near edge of the table: the first person in play (in the
        simulator the one who plays; on the table, where every seat is a person, the first
        seat of the table in the deal)."""
        seats = self.seats_in_play()
        return next((s for s in seats if s not in self.v.computer), seats[0])

    def trick(self, trick: TrickView, x: float, y: float, w: float, h: float,
              to_act: int | None, layer: int = 1, role: str = "trick",
              before: TrickView | None = None) -> None:
        """The trick on the table, each card at the place of the one who laid it: the seat
        nearest the screen at the front, the next in the play's order (clockwise, to its
        left) at the back left, the third at the back right; a name beside each place, the
        leader's marked, the declarer's said. A complete trick marks who took it. The line
        under the cards (kept, so that the cards do not change size when the trick is
        complete) says who takes it, or while a trick forms who took the one ``before``."""
        f, _, v = self.f, self._, self.v
        seats = self.seats_in_play()
        home = self.home_seat()
        at = seats.index(home)
        near, back_left, back_right = (seats[(at + i) % len(seats)] for i in range(3))
        laid = dict(trick.cards)
        complete = trick.winner is not None and len(laid) == len(seats)
        foot_h = 36.0 if complete or role == "trick" else 0.0
        label_w = min(90.0, w * 0.2)
        gap = 8.0
        room = h - foot_h - 12
        # Two ways to lay three places, whichever gives the larger cards: where the trick is
        # low, the three side by side with the near one a third of a card lower (and at least
        # a name's line: its name goes under the back left card, its role under the right);
        # where it is high, the near one under and between the back two.
        flat = min(room / 1.38, room - 40, (w - 2 * label_w - 4 * gap) / 3 * CARD_RATIO)
        stacked = min((room - gap) / 2, (w - 2 * label_w - 3 * gap) / 2 * CARD_RATIO)
        card_h = min(max(flat, stacked), 200.0)
        if card_h < TABLE_CARD_MIN:
            # Too little room for names beside the cards (the last trick over a prompt, a
            # small screen): the cards in a row in the order of the table, a name over each.
            self.trick_row(trick, x, y, w, h, to_act, layer, role, before, foot_h)
            return
        card_w = card_h / CARD_RATIO
        cx = x + w / 2
        if stacked > flat:
            drop = card_h + gap
            left_x, right_x = cx - card_w - gap / 2, cx + gap / 2
        else:
            drop = max(card_h * 0.38, 40.0)
            left_x, right_x = cx - card_w * 1.5 - gap, cx + card_w / 2 + gap
        top = y + (h - foot_h - card_h - drop) / 2
        places = {back_left: (left_x, top, "left"), back_right: (right_x, top, "right"),
                  near: (cx - card_w / 2, top + drop, "near")}
        ramsch = v.play is not None and v.play.contract[:1] == "R"
        declarer = v.play.declarer if v.play is not None and not ramsch else None
        for seat, (sx, sy, side) in places.items():
            is_turn = seat == to_act and seat not in laid and not complete
            taker = complete and seat == trick.winner
            mark = self.name(seat) + (" ▸" if seat == trick.leader else "")
            # The names beside their places: left of the back left card, right of the back
            # right one; the near one's under the back left card (its role under the right).
            # (each as wide as the room beside its card: "Alleinspieler" is long)
            if side == "right":
                lx, align = sx + card_w + gap / 2, "left"
                lw = x + w - lx
            else:
                lx, align = x, "right"
                lw = sx - gap / 2 - x
            ly = sy + (card_h - 54) / 2
            rx, ry, rw, align_r = lx, ly + 28, lw, align
            if side == "near" and stacked <= flat:
                ly = top + card_h + 10
                rx, ry, align_r = sx + card_w + gap / 2, ly + 2, "left"
                rw = x + w - rx
            f.text(lx, ly, lw, 28, mark, size=18,
                   face="bold" if is_turn or taker else "sans",
                   colour=GOLD if is_turn or taker else INK, align=align,
                   role=f"{role}-name", ellipsize=True, layer=layer)
            if seat == declarer:
                f.text(rx, ry, rw, 24, _("declarer"), size=18,
                       colour=GOLD, align=align_r, role=f"{role}-declarer", ellipsize=True,
                       layer=layer)
            if seat in laid:
                if taker:  # a gold bar under the winning card
                    f.bar(sx, sy + card_h + 2, card_w, 6, 1.0, role=f"{role}-winner")
                    self.f.elements[-1].layer = layer
                f.card(sx, sy, card_w, card_h, laid[seat], role=f"{role}-card seat{seat}",
                       layer=layer)
            else:
                f.slot(sx, sy, card_w, card_h, role=f"{role}-slot seat{seat}"
                       + (" turn" if is_turn else ""), layer=layer)
        self.trick_foot(trick, before, x, top + drop + card_h + 10, w, foot_h, layer, role)

    def trick_row(self, trick: TrickView, x: float, y: float, w: float, h: float,
                  to_act: int | None, layer: int, role: str, before: TrickView | None,
                  foot_h: float) -> None:
        """The trick where the table has no room: one slot per seat in play in a row, the
        name over it, the leader marked; the foot as in :meth:`trick`."""
        f, _ = self.f, self._
        seats = self.seats_in_play()
        laid = dict(trick.cards)
        n = len(seats)
        label_h = 28.0
        complete = trick.winner is not None and len(laid) == n
        card_h = max(1.0, min(h - label_h - foot_h - 14, (w - 10 * (n + 1)) / n * CARD_RATIO,
                              200.0))
        card_w = card_h / CARD_RATIO
        total = n * card_w + (n - 1) * 12
        cx = x + (w - total) / 2
        cy = y + (h - card_h - label_h - foot_h) / 2
        for i, seat in enumerate(seats):
            sx = cx + i * (card_w + 12)
            is_turn = seat == to_act and seat not in laid and not complete
            mark = self.name(seat) + (" ▸" if seat == trick.leader else "")
            f.text(sx - 5, cy, card_w + 10, label_h - 2, mark, size=18,
                   face="bold" if is_turn or seat == trick.winner else "sans",
                   colour=GOLD if is_turn or (complete and seat == trick.winner) else INK,
                   role=f"{role}-name", ellipsize=True, layer=layer)
            if seat in laid:
                if complete and seat == trick.winner:
                    f.bar(sx, cy + label_h + card_h + 2, card_w, 6, 1.0, role=f"{role}-winner")
                    self.f.elements[-1].layer = layer
                f.card(sx, cy + label_h, card_w, card_h, laid[seat],
                       role=f"{role}-card seat{seat}", layer=layer)
            else:
                f.slot(sx, cy + label_h, card_w, card_h, role=f"{role}-slot seat{seat}"
                       + (" turn" if is_turn else ""), layer=layer)
        self.trick_foot(trick, before, x, cy + label_h + card_h + 10, w, foot_h, layer, role)

    def trick_foot(self, trick: TrickView, before: TrickView | None, x: float, y: float,
                   w: float, foot_h: float, layer: int, role: str) -> None:
        """The line under a trick: who takes it, once complete; while one forms, who took
        the one ``before``."""
        f, _ = self.f, self._
        if trick.winner is not None and len(trick.cards) == len(self.seats_in_play()):
            f.text(x + 8, y, w - 16, foot_h - 6,
                   _("{name} takes the trick").format(name=self.name(trick.winner)),
                   size=20, face="bold", colour=GOLD, role=f"{role}-taken", layer=layer)
        elif before is not None and before.winner is not None:
            f.text(x + 8, y, w - 16, foot_h - 6,
                   _("{name} took the last trick").format(name=self.name(before.winner)),
                   size=18, colour=MUTED, role="last-winner", layer=layer)

    def scene_result(self) -> None:
        f, _, v = self.f, self._, self.v
        r = v.result
        assert r is not None
        y = self.top_bar(_("Result"))
        bottom = f.H - 8
        lw = f.W * 0.6
        f.panel(8, y, lw - 8, bottom - y, role="result-panel")
        x, w = 22.0, lw - 36
        left_bottom = bottom  # the left panel's: its foot holds a club's confirmation
        if r.confirmers:
            confirm_block(self, x, bottom - CONFIRM_H - 6, w)
            left_bottom -= CONFIRM_H + 8
        if r.passed_in:
            f.text(x, y + 16, w, 64, _("Passed in"), size=48, face="bold", role="result-head")
            f.text(x, y + 90, w, 60, _("Nobody bid: the next player deals"), size=24,
                   colour=MUTED, role="result-line", wrap=True)
        else:
            colour = WON if r.won else LOST
            if r.declarer is None:  # Ramsch: nobody declared; the loser(s) pay
                losers = ", ".join(self.name(s) for s in r.losers)
                head = _("Lost: {names}").format(names=losers) if losers else _("Ramsch")
            else:
                head = (_("{name} wins") if r.won else _("{name} loses")).format(
                    name=self.name(r.declarer, 8))
            f.text(x, y + 8, w * 0.64, 58, head, size=42, face="bold", colour=colour,
                   align="left", role="result-head")
            f.text(x + w * 0.64, y + 8, w * 0.36, 58, f"{r.value:+d}", size=52, face="bold",
                   colour=colour, align="right", role="result-value")
            ly = y + 72
            contract = self.tr.contract(r.contract or "")
            # One line usually; a long contract ("Schoppen Hand Schneider aangekondigd")
            # takes two rather than shrinking.
            long = self.f.fonts.size("bold", self.f.px(26), contract)[0] > self.f.px(w * 0.64)
            ch = 60.0 if long else 34.0
            f.text(x, ly, w * 0.66, ch, contract, size=26, face="bold", align="left",
                   role="result-contract", wrap=long)
            if r.bid:
                f.text(x + w * 0.66, ly, w * 0.34, 34, _("Bid: {value}").format(value=r.bid),
                       size=20, align="right", colour=MUTED, role="result-bid")
            ly += ch + 6
            # Two lines usually; a grand ouvert counted level by level, with Kontra and Re,
            # takes three or four rather than shrinking below readable or running over.
            for bh in (68.0, 100.0, 132.0):
                el = f.text(x, ly, w, bh, breakdown_text(r, self.tr), size=22, align="left",
                            role="result-breakdown", wrap=True)
                if el.fits or bh == 132.0:
                    break
                f.elements.remove(el)
            ly += bh + 6
            if r.ramsch_points:
                f.text(x, ly, w, 32, "  ".join(
                    f"{self.name(s)} {p}" for s, p in enumerate(r.ramsch_points)
                    if v.positions is None or s in v.positions),
                    size=22, align="left", role="result-points")
                ly += 38
            elif r.points is not None:
                tricks = r.tricks if r.tricks is not None else 0
                f.text(x, ly, w, 32, ", ".join((
                    self.tr.ngettext("{points} card point", "{points} card points",
                                     r.points).format(points=r.points),
                    self.tr.ngettext("{tricks} trick", "{tricks} tricks", tricks).format(
                        tricks=tricks))), size=22, align="left", role="result-points")
                ly += 38
            notes_bottom = left_bottom
            if v.analysis is not None and v.analysis.state != "none":
                notes_bottom = left_bottom - 80  # the open-card analysis takes the last lines
                result_line(self, x - 6, left_bottom - 76, w + 12, 72, cmd.ShowAnalysis())
            for line in result_notes(r, self.tr):
                if ly + 56 > notes_bottom - 4:
                    break
                f.text(x, ly, w, 56, line, size=20, align="left", colour=GOLD,
                       role="result-note", wrap=True)
                ly += 58
        # Right: skat and discards, then the totals and the next dealer.
        rx = lw + 8
        rw = f.W - rx - 8
        cw = min(64.0, (rw - 30) / 4)
        ch = cw * CARD_RATIO
        picked_up = bool(r.discards) and set(r.discards) != set(r.skat)
        if picked_up:
            f.text(rx, y, rw / 2 - 4, 26, _("Skat"), size=18, face="bold", role="skat-label")
            f.text(rx + rw / 2, y, rw / 2, 26, _("Laid away"), size=18, face="bold",
                   role="discard-label")
            for i, card in enumerate(r.discards[:2]):
                f.card(rx + 3 * rw / 4 - cw - 3 + i * (cw + 6), y + 30, cw, ch, card,
                       role="result-discard")
            skat_x = rx + rw / 4 - cw - 3
        else:  # a hand game (or passed in): the skat stayed as it was
            f.text(rx, y, rw, 26, _("Skat"), size=18, face="bold", role="skat-label")
            skat_x = rx + rw / 2 - cw - 3
        for i, card in enumerate(r.skat[:2]):
            f.card(skat_x + i * (cw + 6), y + 30, cw, ch, card, role="result-skat")
        ty = y + 42 + ch
        if v.sheet is not None and v.sheet.totals:
            f.panel(rx, ty, rw, 12 + 32 * len(v.sheet.totals), role="totals-panel")
            ty += 6
            for s, total in enumerate(v.sheet.totals):
                f.text(rx + 10, ty, rw * 0.6 - 10, 30, self.name(s), size=22, align="left",
                       role="total-name", ellipsize=True)
                f.text(rx + rw * 0.6, ty, rw * 0.4 - 10, 30, f"{total:+d}", size=22,
                       face="bold", align="right", role="total-value")
                ty += 32
            ty += 10
        over = self.series_over()
        if r.next_dealer is not None and ty + 30 <= bottom and not over:
            f.text(rx, ty + 4, rw, 30, _("Next dealer: {name}").format(
                name=self.name(r.next_dealer, 10)), size=19, colour=MUTED, role="next-dealer",
                ellipsize=True)
            ty += 38
        # How the next deal starts: a button in the simulator; on the table the first card.
        nh = min(64.0, bottom - ty)
        if over:  # the last deal: its summary (on the table too, where nothing else shows it)
            f.button(rx, bottom - nh, rw, nh, _("End of the series"), ShowSeriesEnd(),
                     role="series-end", fill=GOLD, colour=GOLD_DARK, size=22, wrap=True)
        elif v.simulator:
            f.button(rx, bottom - nh, rw, nh, _("Next deal"), cmd.DealNext(), role="deal-next",
                     fill=GOLD, colour=GOLD_DARK, size=24)
        elif nh >= 30:
            f.text(rx, bottom - nh, rw, nh, _("Deal the next game: its first card over the "
                                              "deal reader starts it"), size=18, colour=GOLD,
                   role="next-hint", wrap=True)

    def series_summary(self) -> None:
        """The end of a series: who won, everybody's total (and money, with a stake), the
        evening's best and worst game; a new series (simulator, asked first) away from the top
        bar, where Undo is."""
        f, _, v = self.f, self._, self.v
        sh = v.sheet
        assert sh is not None
        y = self.top_bar(_("End of the series"))
        bottom = f.H - 8
        lw = f.W * 0.6  # as the result: its buttons keep their places
        f.panel(8, y, lw - 8, bottom - y, role="summary-panel")
        x, w = 22.0, lw - 36
        scores = sh.seeger_fabian if sh.seeger_fabian is not None else sh.totals
        if sh.winner is not None:
            head = _("{name} wins the series").format(name=self.name(sh.winner))
        else:
            top = max(scores, default=0)
            head = _("A tie: {names}").format(names=", ".join(
                self.name(s, 10) for s, t in enumerate(scores) if t == top))
        f.text(x, y + 8, w, 52, head, size=32, face="bold", colour=GOLD, align="left",
               role="summary-head", wrap=True)
        ty = y + 64
        # Everybody by the series' score (Seeger-Fabian when the table counts it), with the
        # money when there is a stake; the columns named when there is more than the sheet.
        order = sorted(range(len(scores)), key=lambda s: -scores[s])
        money_w = w * 0.3 if sh.settlement is not None else 0.0
        score_w = w * 0.3
        name_w = w - score_w - money_w
        if sh.seeger_fabian is not None or sh.settlement is not None:
            if sh.seeger_fabian is not None:
                f.text(x + name_w, ty, score_w, 26, _("Seeger-Fabian"), size=18,
                       colour=MUTED, align="right", role="summary-label", ellipsize=True)
            if sh.settlement is not None:
                f.text(x + w - money_w, ty, money_w, 26, _("Settlement"), size=18,
                       colour=MUTED, align="right", role="summary-label", ellipsize=True)
            ty += 28
        for place, s in enumerate(order, start=1):
            colour = GOLD if s == sh.winner else INK
            f.text(x, ty, name_w, 34, f"{place}. {self.name(s)}", size=22, face="bold",
                   colour=colour, align="left", role="summary-name", ellipsize=True)
            f.text(x + name_w, ty, score_w, 34, f"{scores[s]:+d}", size=22, align="right",
                   colour=colour, role="summary-total")
            if sh.settlement is not None:
                amount = sh.settlement[s] if s < len(sh.settlement) else 0.0
                f.text(x + w - money_w, ty, money_w, 34, money(amount, v.language), size=22,
                       align="right", colour=WON if amount > 0 else (LOST if amount < 0
                                                                      else INK),
                       role="summary-money")
            ty += 38
        # Right: the evening's best and worst game, then the way on.
        rx = lw + 8
        rw = f.W - rx - 8
        ry = y
        for label, mark, role in ((_("Best game"), sh.best, "summary-best"),
                                  (_("Worst game"), sh.worst, "summary-worst")):
            if mark is None:
                continue
            f.text(rx, ry, rw, 26, label, size=18, colour=MUTED, align="left",
                   role=f"{role}-label")
            game = (self.tr.contract(mark.contract, short=True) if mark.contract
                    else _("Ramsch"))
            f.text(rx, ry + 26, rw, 60, _("Game {n}: {name}, {game} {value}").format(
                n=mark.number, name=self.name(mark.seat, 10), game=game,
                value=f"{mark.value:+d}"), size=20, face="bold", align="left",
                colour=WON if mark.value > 0 else LOST, role=role, wrap=True)
            ry += 94
        # Back where "End of the series" was (a second tap of it only goes back); a new
        # series above it, and asked first.
        bh = 64.0
        f.button(rx, bottom - bh, rw, bh, _("Back"), ShowSeriesEnd(), role="series-back",
                 size=22)
        ny = bottom - 2 * bh - 10
        # The evening among the others: the statistics over every finished series.
        stats_button(self, rx, ny - 70, rw, 60, size=22)
        if v.simulator:
            f.button(rx, ny, rw, bh, _("New series"), AskFirst("new-series"),
                     role="new-series", fill=GOLD, colour=GOLD_DARK, size=24)
        else:
            f.text(rx, ny, rw, bh, _("A new series starts with the first card over the deal "
                                     "reader"), size=18, colour=GOLD, role="next-hint",
                   wrap=True)

    def scene_sheet(self) -> None:
        self.sheet(title_key="sheet")

    def sheet(self, title_key: str) -> None:
        f, _, v = self.f, self._, self.v
        sh = v.sheet
        assert sh is not None
        y = self.top_bar(_("Score sheet"))
        n = len(v.players)
        num_w = 40.0
        # pub rules' marks (Kontra, Re, Bock, pushes) take room beside the contract: the
        # players' columns give up what a total does not need
        marked = any(self.sheet_marks(r) for r in sh.rows)
        game_w = max(200.0, f.W * 0.34, f.W - 16 - num_w - n * 96.0 if marked else 0.0)
        col_w = (f.W - 16 - num_w - game_w) / n
        x0 = 8.0
        row_h = 28.0
        f.panel(x0, y, f.W - 16, f.H - y - 8, role="sheet-panel")
        f.text(x0 + 4, y + 4, num_w - 4, row_h, "#", size=18, colour=MUTED, role="sheet-head")
        f.text(x0 + num_w, y + 4, game_w - 8, row_h, _("Game"), size=18, colour=MUTED,
               role="sheet-head", align="left")
        for s in range(n):
            f.text(x0 + num_w + game_w + s * col_w, y + 4, col_w - 8, row_h, self.name(s),
                   size=19, face="bold", role="sheet-player", align="right", ellipsize=True)
        footer = (1 + (sh.seeger_fabian is not None) + (sh.settlement is not None)
                  + (sh.finished and sh.winner is not None))
        foot_h = footer * row_h + 12
        body_top = y + 8 + row_h
        body_h = f.H - 8 - foot_h - body_top
        fit_rows = max(0, int(body_h // row_h))
        rows = sh.rows[-fit_rows:] if fit_rows else ()
        for i, row in enumerate(rows):
            ry = body_top + i * row_h
            f.text(x0 + 4, ry, num_w - 4, row_h - 2, str(row.number), size=18, colour=MUTED,
                   role="sheet-num")
            game = (self.tr.contract(row.contract, short=True) if row.contract
                    else _("passed in"))
            # What doubled the game, marked after it (the contract is cut first): Kontra or
            # Re, the Schieberamsch pushes, Bock.
            marks = self.sheet_marks(row)
            mark_w = 0.0
            if marks:
                px = f.fonts.size("sans", f.px(18), marks)[0]
                mark_w = min(px / f.scale + 8, game_w - 74 - 86)  # "Ramsch" stays whole
                f.text(x0 + num_w + game_w - 74 - mark_w, ry, mark_w, row_h - 2, marks,
                       size=18, align="right", colour=GOLD, role="sheet-marks",
                       ellipsize=True)
            f.text(x0 + num_w, ry, game_w - 74 - mark_w - (4 if marks else 0), row_h - 2, game,
                   size=18, align="left", role="sheet-game", ellipsize=True)
            if row.contract:
                f.text(x0 + num_w + game_w - 70, ry, 62, row_h - 2, f"{row.value:+d}",
                       size=18, align="right", colour=WON if row.value > 0 else LOST,
                       role="sheet-value")
            for s in range(n):
                right = x0 + num_w + game_w + (s + 1) * col_w - 8  # the numbers end here
                cell_w = 0.0
                # the declarer's column, or the seats a game without one booked (a Ramsch's
                # loser(s), a Durchmarsch)
                booked = s < len(row.scores) and row.scores[s] != 0
                if s == row.declarer or booked:
                    text = str(row.totals[s])
                    cell_w = min(col_w - 34, self.label_width(text, 18, 0) - 16)
                    f.text(right - cell_w, ry, cell_w, row_h - 2, text, size=18,
                           align="right", face="bold", role="sheet-cell")
                if s == row.dealer:  # just left of the column's own number, never by the last
                    f.text(right - cell_w - 24, ry, 22, row_h - 2, "◆", size=18,
                           colour=MUTED, role="sheet-dealer")
        fy = f.H - 8 - foot_h + 6
        played = sh.played if sh.played is not None else len(sh.rows)
        label = (_("{n} of {total} games").format(n=played, total=sh.games_total)
                 if sh.games_total else self.tr.ngettext("{n} game", "{n} games",
                                                         played).format(n=played))
        f.text(x0 + 4, fy, (num_w + game_w) * 0.52, row_h, label, size=18, align="left",
               colour=MUTED, role="sheet-progress")
        f.text(x0 + 4 + (num_w + game_w) * 0.52, fy, (num_w + game_w) * 0.48 - 8, row_h,
               "◆ " + _("dealer"), size=18, align="left", colour=MUTED, role="sheet-legend")
        for s in range(n):
            total = sh.totals[s] if s < len(sh.totals) else 0
            f.text(x0 + num_w + game_w + s * col_w, fy, col_w - 8, row_h, str(total),
                   size=21, face="bold", align="right", role="sheet-total",
                   colour=GOLD if sh.winner == s else INK)
        fy += row_h
        if sh.seeger_fabian is not None:
            f.text(x0 + 4, fy, num_w + game_w - 8, row_h, _("Seeger-Fabian"), size=18,
                   align="left", colour=MUTED, role="sheet-sf-label")
            for s in range(n):
                f.text(x0 + num_w + game_w + s * col_w, fy, col_w - 8, row_h,
                       str(sh.seeger_fabian[s]), size=18, align="right", role="sheet-sf")
            fy += row_h
        if sh.settlement is not None:
            f.text(x0 + 4, fy, num_w + game_w - 8, row_h, _("Settlement"), size=18,
                   align="left", colour=MUTED, role="sheet-settlement-label")
            for s in range(n):
                amount = sh.settlement[s] if s < len(sh.settlement) else 0.0
                f.text(x0 + num_w + game_w + s * col_w, fy, col_w - 8, row_h,
                       money(amount, v.language), size=18, align="right",
                       role="sheet-settlement")
            fy += row_h
        if sh.finished and sh.winner is not None:
            f.text(x0 + 4, fy, f.W - 24, row_h, _("Winner: {name}").format(
                name=self.name(sh.winner)), size=19, face="bold", colour=GOLD, align="left",
                role="sheet-winner")

    def sheet_marks(self, row: SheetRow) -> str:
        """The marks of a sheet row, what was said or agreed that doubled its value:
        ``Kontra`` (or ``Re``), ``geschoben ×4``, ``Bock``. What the play made of it (a lost
        game, a Jungfrau, like schneider) is the result's breakdown, not a mark: a row has
        room for three marks at most."""
        _ = self._
        factors = dict(row.factors)
        marks = []
        if "re" in factors:
            marks.append(_("Re"))
        elif "kontra" in factors:
            marks.append(_("Kontra"))
        if "pushed" in factors:
            marks.append(_("pushed ×{n}").format(n=factors["pushed"]))
        if row.bock:
            marks.append(_("Bock"))
        return " · ".join(marks)

    def scene_fault(self) -> None:
        f, _, v = self.f, self._, self.v
        y = self.top_bar(_("The table needs help"))
        faults = list(v.faults) or ([v.refusal] if v.refusal else [])
        h = min(120.0, (f.H - y - 8) / max(1, len(faults)) - 8)
        for fault in faults:
            f.panel(16, y, f.W - 32, h, fill=ALERT, role="fault-panel")
            f.text(30, y + 8, f.W - 60, min(40.0, h * 0.45), fault_sentence(
                fault, self.tr, v.players), size=26, face="bold", colour=ALERT_INK,
                role="fault-text")
            if fault.detail and h >= 70:
                f.text(30, y + 8 + min(40.0, h * 0.45) + 4, f.W - 60, min(30.0, h * 0.3),
                       fault.detail, size=18, colour=ALERT_INK, role="fault-detail",
                       min_units=12)
            y += h + 8

    def settings_screen(self) -> None:
        """The settings: one row each, its name on the left and its choices as buttons (the
        chosen one gold); "Back" at the foot. The choices go to the controller, which keeps
        them across restarts; the language opens the picker."""
        f, _, v = self.f, self._, self.v
        s = v.settings
        # (label, choice): a choice is its words, its command, whether it is the one chosen,
        # the suits it shows (the suit order) and its role
        rows: list[tuple[str, list[tuple[str, object, bool, str, str]]]] = []
        if s.speed_applies:
            words = {"slow": _("Slow"), "normal": _("Normal"), "fast": _("Fast")}
            rows.append((_("Computer speed"), [
                (words[speed], cmd.ChangeSetting("speed", speed), s.speed == speed, "",
                 f"speed-{speed}") for speed in SPEEDS]))
        notes: dict[int, str] = {}  # row -> the words in place of its choices
        if s.level:
            choices, note = self.level_choices()
            if note:
                notes[len(rows)] = note
            # (a level chosen for the next deal says so in place of the row's name: a button
            # has room for the level's name only)
            rows.append((_("{level} from the next game").format(level=self.level_word(
                s.next_level)) if s.next_level else _("Computer level"), choices))
        rows.append((_("Order of the hand"), [
            (_("Trump first"), cmd.ChangeSetting("trump_first", not s.trump_first),
             s.trump_first, "", "trump-first"),
            *[("", cmd.ChangeSetting("suit_order", order), s.suit_order == order, order,
               f"suits-{order}") for order in SUIT_ORDERS]]))
        faces = {"french": _("French"), "four-colour": _("Four colours"),
                 "german": _("German suits")}
        rows.append((_("Card faces"), [
            (faces[style], cmd.SetCardStyle(style), v.card_style == style, "", f"style-{style}")
            for style in CARD_STYLES]))
        rows.append((_("Language"), [(LANGUAGE_NAMES[v.language], cmd.SetLanguage(v.language),
                                      False, "", "settings-language")]))
        rows.append((_("Sound"), [(_("On"), cmd.ChangeSetting("sound", True), s.sound, "",
                                   "sound-on"),
                                  (_("Off"), cmd.ChangeSetting("sound", False), not s.sound,
                                   "", "sound-off")]))
        rows.append((_("Hints"), [(_("On"), cmd.ChangeSetting("hints", True), s.hints, "",
                                   "hints-on"),
                                  (_("Off"), cmd.ChangeSetting("hints", False), not s.hints,
                                   "", "hints-off")] if s.hints_allowed else []))
        top, foot = TOP + GAP, BUTTON_H + 6
        pitch = min(66.0, (f.H - top - 8 - foot + GAP) / len(rows))
        label_w = min(250.0, f.W * 0.3)
        x0, right = 16 + label_w + 10, f.W - 16
        col_w = (right - x0 - 2 * GAP) / 3
        # Too many rows over the foot (the simulator's computer speed and level): "Back"
        # takes the last row's third column, which its two choices leave free.
        back_in_row = pitch < BUTTON_H + GAP
        if back_in_row:
            pitch = min(66.0, (f.H - top - 8 + GAP) / len(rows))
        for i, (label, choices) in enumerate(rows):
            y = top + i * pitch
            f.text(16, y, label_w, BUTTON_H, label, size=21, face="bold", align="left",
                   role="settings-label", wrap=True)
            if not choices:  # the hints at a club table: never, and why; a fixed level
                note_w = (2 * col_w + GAP if back_in_row and i == len(rows) - 1
                          else right - x0)
                f.text(x0, y, note_w, BUTTON_H, notes.get(i, _("Never at a club table")),
                       size=18, colour=MUTED, align="left", role="settings-note", wrap=True)
            for j, (text, command, chosen, suits, role) in enumerate(choices):
                # Three columns in every row: a choice keeps its column, On under Slow.
                # (the level chosen for the next deal: framed, not filled, until it plays)
                gold = chosen and role != f"level-{s.next_level}"
                f.button(x0 + j * (col_w + GAP), y, col_w, BUTTON_H, text, command,
                         role=role, size=20, selected=chosen, fill=GOLD if gold else BUTTON,
                         suit=suits or None, wrap=True)
        back = self.label_width(_("Back"), 20, 140.0)
        if back_in_row:
            f.button(right - col_w, top + (len(rows) - 1) * pitch, col_w, BUTTON_H, _("Back"),
                     OpenSettings(), role="settings-back", size=20)
            return
        f.button(right - back, f.H - 8 - BUTTON_H, back, BUTTON_H, _("Back"), OpenSettings(),
                 role="settings-back", size=20)

    def level_choices(self) -> tuple[list[tuple[str, object, bool, str, str]], str]:
        """The settings row of the computer's level: its choices (the level in force gold,
        the one chosen for the next deal framed and said so), or, where the config keeps
        the level, no choices and the words why."""
        _, s = self._, self.v.settings
        if s.level_fixed == "club":
            return [], _("{level}: a club table plays at the level of its config").format(
                level=self.level_word(s.level))
        if s.level_fixed == "config":
            return [], _("Set in the table's config: {player}").format(player=s.level)
        return [(self.level_word(level), cmd.ChangeSetting("level", level),
                 level in (s.level, s.next_level), "", f"level-{level}")
                for level in LEVELS], ""

    def level_word(self, level: str) -> str:
        """A computer level in the table's language (another name as it is)."""
        _ = self._
        return {"beginner": _("Beginner"), "club": _("Club player"),
                "expert": _("Expert")}.get(level, level)

    def language_picker(self) -> None:
        f = self.f
        cols = 4
        bw = (f.W - 40 - (cols - 1) * 12) / cols
        bh = 80.0
        for i, code in enumerate(LANGUAGES):
            r, c = divmod(i, cols)
            f.button(20 + c * (bw + 12), TOP + 40 + r * (bh + 16), bw, bh, LANGUAGE_NAMES[code],
                     cmd.SetLanguage(code), role=f"pick-{code}", size=24,
                     selected=code == self.v.language,
                     fill=GOLD if code == self.v.language else BUTTON)


@dataclass(frozen=True)
class CloseDialog:
    """Kiosk-internal: close an open question (the concede confirmation); never sent on."""


@dataclass(frozen=True)
class OpenSettings:
    """Kiosk-internal: open the settings screen, or close it again; never sent on."""


@dataclass(frozen=True)
class ShowSeriesEnd:
    """Kiosk-internal: from a series' last result to its summary and back; never sent on."""


@dataclass(frozen=True)
class AskFirst:
    """Kiosk-internal: open the question ``what`` (``UiState.confirm``) before an action that
    cannot be taken back by a tap (a new series); never sent on."""

    what: str


@dataclass(frozen=True)
class ShowNotice:
    """Kiosk-internal: open the loss report to read and confirm (notice_dialog); never sent
    on."""


@dataclass(frozen=True)
class ToggleModifier:
    """Kiosk-internal: toggle a declaration modifier ("S", "Z", "O"); never sent on."""

    modifier: str


PACKETS = (3, 3, 3, 2, 4, 4, 4, 3, 3, 3)
SUIT_ORDER = "CSHD"
TRUMP_RANKS = (7, 3, 6, 5, 2, 1, 0)   # A 10 K Q 9 8 7 (jacks apart)
NULL_RANKS = (7, 6, 5, 4, 3, 2, 1, 0)  # A K Q J 10 9 8 7


def sort_hand(hand: tuple[Card, ...], contract: str | None, trump_first: bool = True,
              suit_order: str = SUIT_ORDER) -> list[Card]:
    """A hand in the order players hold it: jacks, then the trump suit, then the other suits
    in ``suit_order``; in null the jacks stay in their suits and rank between queen and ten.
    Without ``trump_first`` the trump suit keeps its place among the suits (the hand does not
    change its order when the game is declared; the jacks lead as in a grand).

    >>> hand = (Card.H7, Card.DJ, Card.HA, Card.CJ, Card.ST, Card.C8)
    >>> [str(c) for c in sort_hand(hand, "H")]
    ['CJ', 'DJ', 'HA', 'H7', 'C8', 'ST']
    >>> [str(c) for c in sort_hand(hand, "H", trump_first=False, suit_order="CHSD")]
    ['CJ', 'DJ', 'C8', 'HA', 'H7', 'ST']
    """
    game = contract[0] if contract else "G"
    null = game == "N"
    suits = (game + suit_order.replace(game, "") if trump_first and game in suit_order
             else suit_order)

    def key(c: Card) -> tuple[int, int]:
        if c.is_jack and not null:
            return (0, int(c.suit))
        ranks = NULL_RANKS if null else TRUMP_RANKS
        return (1 + suits.index(c.name[0]), ranks.index(int(c.rank)))

    return sorted(hand, key=key)
