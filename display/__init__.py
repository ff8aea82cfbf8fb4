"""The pygame kiosk: scenes, card faces, layout, translations, touch and keyboard input."""

import os

# pygame prints a greeting on import; the table's JSON outputs (bench, replay) must stay clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
