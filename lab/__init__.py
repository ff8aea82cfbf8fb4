"""The strength lab: computer players measured against each other and against XSkat.

Duels on duplicate deals, their games read back (where the points came from, which cards
turned them), decision quality on recorded positions, and the anchors (XSkat's computer
players behind a C harness). None of it runs on the table: the Pi's install leaves this
folder out, and nothing the table runs imports it (``tests/test_architecture.py``).
"""
