"""``python -m display``: look at the kiosk's scenes without a table.

    python -m display                      # a window; PageUp/PageDown go through the scenes
    python -m display --scene play --language fr --style german
    python -m display --screenshots DIR    # every scene as PNG (headless), no window

Commands the screen makes are printed; language and card style switch as on the table.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m display", description=__doc__.splitlines()[0])
    p.add_argument("--scene", default="play", help="the first scene (or an extra sample name)")
    p.add_argument("--language", default="de")
    p.add_argument("--style", default="french", choices=("french", "four-colour", "german"))
    p.add_argument("--size", default="1024x600", help="window size WxH")
    p.add_argument("--simulator", action="store_true", help="show every hand, clickable")
    p.add_argument("--rotate", type=int, choices=(0, 90, 180, 270),
                   help="turn the picture clockwise (a portrait panel mounted across)")
    p.add_argument("--screenshots", metavar="DIR", help="write every scene as PNG and exit")
    args = p.parse_args(argv)
    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        print(f"--size: write WIDTHxHEIGHT, e.g. 800x480, not {args.size!r}", file=sys.stderr)
        return 2
    if args.screenshots:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from .kiosk import Kiosk
    from .render import Renderer, render
    from .samples import extra_views, sample_view
    from .view import LANGUAGES, SCENES

    def views(language: str, style: str) -> dict:
        out = {s: sample_view(s, language, style, simulator=args.simulator) for s in SCENES}
        out.update(extra_views(language, style))
        return out

    if args.language not in LANGUAGES:
        print(f"--language: one of {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    if args.screenshots:
        out = Path(args.screenshots)
        out.mkdir(parents=True, exist_ok=True)
        pygame.font.init()
        renderer = Renderer()
        for name, view in views(args.language, args.style).items():
            pygame.image.save(render(view, (w, h), renderer=renderer),
                              str(out / f"{name}-{args.language}-{w}x{h}.png"))
        return 0
    names = list(views(args.language, args.style))
    index = names.index(args.scene) if args.scene in names else 0
    language, style = args.language, args.style
    from . import commands as cmd

    class Gallery(Kiosk):
        """The kiosk plus PageUp/PageDown to go through the samples."""

        step = 0

        def handle(self, event: pygame.event.Event) -> list[cmd.Command]:
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP,
                                                              pygame.K_PAGEDOWN):
                self.step += 1 if event.key == pygame.K_PAGEDOWN else -1
                return []
            return super().handle(event)

    kiosk = Gallery(idle_after=0, rotate=args.rotate).open((w, h))
    while not kiosk.closed:
        kiosk.show(views(language, style)[names[(index + kiosk.step) % len(names)]])
        for c in kiosk.wait_events(1.0):
            print(c, flush=True)
            if isinstance(c, cmd.SetLanguage):
                language = c.code
            elif isinstance(c, cmd.SetCardStyle):
                style = c.style
    kiosk.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
