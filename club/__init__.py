"""The club server: a Preisskat tournament across many tables, live in any browser.

Tables publish their finished games over MQTT (docs/club-link.md, "The contract");
``skat-table club serve``
stores every revision in SQLite, scores each game with the engine (never a second copy of the
rules), ranks by Seeger-Fabian and serves the pages and the lists a tournament director hands
out. It uses ``engine/`` and its own web, MQTT and PDF libraries; never the hardware.
"""
