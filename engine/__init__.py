"""Pure ISkO Skat rules: cards, bidding, play, scoring, series, ISS records, computer players.

Standard library only: no I/O beyond what a caller hands in, no imports of the other packages.
"""
